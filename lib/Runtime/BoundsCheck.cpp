//===- BoundsCheck.cpp - a checked launch on the host ----------------------===//

#include "BoundsCheck.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdlib>
#include <limits>

#include "lib/Support/Env.h"

namespace ktc::detail {

BoundsCheck::BoundsCheck(const std::vector<ParamSpec> &params,
                         std::span<const LaunchArg> args)
    : params_(params), args_(args) {
  hook_.check = &BoundsCheck::check;
  hook_.owner = this;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!params[i].runtime)
      continue;
    Range r;
    r.param = i;
    const LaunchArg &a = args[i];
    if (params[i].kind.pointer && a.kind == LaunchArg::Kind::Buffer &&
        a.memory) {
      r.buffer = true;
      r.base = reinterpret_cast<uint64_t>(address(*a.memory));
      r.bytes = uint64_t(a.count) * size_in_bytes(a.dtype);
    }
    ranges_.push_back(r);
  }
}

int32_t BoundsCheck::check(BoundsHook *hook, uint64_t address, uint64_t bytes,
                           const char *site, int64_t argument) {
  BoundsCheck &self = *hook->owner;
  auto inside = [&](const Range &r) {
    return r.buffer && address >= r.base && bytes <= r.bytes &&
           address - r.base <= r.bytes - bytes;
  };
  if (argument >= 0 && size_t(argument) < self.ranges_.size() &&
      self.ranges_[argument].buffer) {
    if (inside(self.ranges_[argument]))
      return 1;
  } else {
    argument = -1; // the compiler does not know: any buffer will do
    for (const Range &r : self.ranges_)
      if (inside(r))
        return 1;
  }
  bool expected = false;
  if (self.failed_.compare_exchange_strong(expected, true)) {
    self.address_ = address;
    self.bytes_ = bytes;
    self.site_ = site;
    self.argument_ = argument;
  }
  return 0;
}

void BoundsCheck::throwIfViolated(const std::string &kernel) const {
  if (!failed_.load())
    return;
  // The site: "load\nFILE\nLINE\nCOLUMN".
  llvm::SmallVector<llvm::StringRef, 4> parts;
  llvm::StringRef(site_ ? site_ : "access").split(parts, '\n');
  std::string kind = parts[0].str();
  // The buffer to describe: the pointer's own, else the nearest.
  const Range *buffer = nullptr;
  if (argument_ >= 0)
    buffer = &ranges_[argument_];
  else
    for (const Range &r : ranges_) {
      if (!r.buffer)
        continue;
      auto distance = [&](const Range &r) {
        return address_ < r.base ? r.base - address_
                                 : address_ - r.base > r.bytes
                                       ? address_ - r.base - r.bytes
                                       : 0;
      };
      if (!buffer || distance(r) < distance(*buffer))
        buffer = &r;
    }
  std::string message = "kernel '" + kernel + "': " + kind + " of " +
                        std::to_string(bytes_) + " bytes out of bounds";
  if (buffer) {
    const ParamSpec &p = params_[buffer->param];
    const LaunchArg &a = args_[buffer->param];
    int64_t offset = int64_t(address_ - buffer->base);
    int64_t size = int64_t(size_in_bytes(a.dtype));
    message += ": element offset " + std::to_string(offset / size) +
               (offset % size ? " (byte " + std::to_string(offset) + ")"
                              : std::string()) +
               (argument_ >= 0 ? " of" : " from") + " argument " +
               std::to_string(buffer->param + 1) +
               (p.name.empty() ? "" : " (" + p.name + ")") +
               (argument_ >= 0 ? "" : " (the nearest buffer)") + ", a Buffer<" +
               name(a.dtype) + "> of " + std::to_string(a.count) +
               " elements";
  } else {
    message += " at address " + std::to_string(address_) +
               " (the launch has no buffers)";
  }
  message += " (a checked launch: the access was not made)";
  unsigned line = 0, column = 0;
  if (parts.size() == 4 && !parts[2].getAsInteger(10, line) &&
      !parts[3].getAsInteger(10, column))
    throw Error(message, parts[1].str(), line, column);
  throw Error(message);
}

/// KTC_CHECK_BOUNDS: 1, true, on or yes (any case) checks every launch on
/// the CPU.
bool checkBoundsFromEnvironment() {
  static const bool on = env::flag("KTC_CHECK_BOUNDS", false);
  return on;
}

} // namespace ktc::detail
