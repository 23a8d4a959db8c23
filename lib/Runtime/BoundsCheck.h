//===- BoundsCheck.h - a checked launch on the host -------------*- C++ -*-===//
//
// A launch with Options::check_bounds (or KTC_CHECK_BOUNDS=1) on the CPU
// runs a kernel compiled to call back before each load and store
// (lib/Target/CPU/BoundsCheck.h). The callback checks the access against
// the buffers of the launch: [base, base + bytes) of each pointer argument,
// the one the pointer comes from when the compiler knows it, else any. An
// access out of bounds is not made (a load reads 0); the first one is
// recorded and, once every program has run, becomes a ktc::Error at the
// op's line.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_RUNTIME_BOUNDSCHECK_H
#define KTC_LIB_RUNTIME_BOUNDSCHECK_H

#include "ktc/Kernel.h"

#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <cstdint>
#include <span>
#include <string>

namespace ktc::detail {

class BoundsCheck;

/// What the kernel's extra argument points at: the callback first.
struct BoundsHook {
  int32_t (*check)(BoundsHook *hook, uint64_t address, uint64_t bytes,
                   const char *site, int64_t argument);
  BoundsCheck *owner;
};

class BoundsCheck {
public:
  /// The buffers of a launch whose arguments have been checked.
  BoundsCheck(const std::vector<ParamSpec> &params,
              std::span<const LaunchArg> args);
  BoundsCheck(const BoundsCheck &) = delete;

  /// The value of the kernel's extra argument.
  uint64_t hookAddress() { return reinterpret_cast<uint64_t>(&hook_); }
  /// Throws the first access out of bounds, if there was one.
  void throwIfViolated(const std::string &kernel) const;

private:
  static int32_t check(BoundsHook *hook, uint64_t address, uint64_t bytes,
                       const char *site, int64_t argument);

  struct Range {
    uint64_t base = 0, bytes = 0;
    size_t param = 0; // index into params_
    bool buffer = false;
  };
  const std::vector<ParamSpec> &params_;
  std::span<const LaunchArg> args_;
  llvm::SmallVector<Range, 16> ranges_; // one per kernel argument
  BoundsHook hook_;
  std::atomic<bool> failed_{false};
  // The first access out of bounds (written once, read after the launch).
  uint64_t address_ = 0, bytes_ = 0;
  const char *site_ = nullptr;
  int64_t argument_ = -1;
};

} // namespace ktc::detail

#endif // KTC_LIB_RUNTIME_BOUNDSCHECK_H
