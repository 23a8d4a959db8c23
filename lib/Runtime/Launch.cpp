//===- Launch.cpp - checking and launching kernels --------------------------===//
//
// Shared by every device: the launch arguments are checked against the
// kernel's parameters (errors at the caller's line), and marshalled into one
// `void **` array of pointers to 8-byte slots.
//
//===----------------------------------------------------------------------===//

#include "BoundsCheck.h"
#include "Device.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallVector.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace ktc::detail {

using Kind = LaunchArg::Kind;

static std::string describe(const std::vector<ParamSpec> &params, size_t i) {
  std::string s = "argument " + std::to_string(i + 1);
  if (!params[i].name.empty())
    s += " (" + params[i].name + ")";
  return s;
}

static std::string paramType(const ParamSpec &p) {
  if (p.kind.pointer)
    return std::string("Ptr<") + name(p.kind.dtype) + ">";
  return std::string("scalar ") + name(p.kind.dtype);
}

static std::string argType(const LaunchArg &a) {
  switch (a.kind) {
  case Kind::Buffer:
    return std::string(a.view ? "a View<" : "a Buffer<") + name(a.dtype) + ">";
  case Kind::Int:
    return "the integer " + (a.huge ? std::to_string(uint64_t(a.i))
                                    : std::to_string(a.i));
  case Kind::Float:
    return "the floating-point number " + std::to_string(a.f);
  case Kind::Bool:
    return a.i ? "true" : "false";
  case Kind::Null:
    return "a null pointer";
  case Kind::AnyBuffer:
    return std::string("an AnyBuffer<") + name(a.dtype) + ">";
  }
  return "?";
}

std::vector<ConstexprValue> checkConstexprs(const std::string &kernel,
                                            const std::vector<ParamSpec> &params,
                                            std::span<const LaunchArg> args,
                                            std::source_location loc) {
  std::vector<ConstexprValue> values(params.size());
  values.resize(checkConstexprs(kernel, params, args, values, loc));
  return values;
}

size_t checkConstexprs(const std::string &kernel,
                       const std::vector<ParamSpec> &params,
                       std::span<const LaunchArg> args,
                       std::span<ConstexprValue> out, std::source_location loc) {
  if (args.size() != params.size()) {
    std::string names;
    for (const ParamSpec &p : params)
      names += (names.empty() ? "" : ", ") +
               (p.name.empty() ? paramType(p) : p.name);
    throw Error("kernel '" + kernel + "' takes " +
                    std::to_string(params.size()) + " arguments (" + names +
                    "), got " + std::to_string(args.size()),
                loc);
  }
  size_t count = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].runtime)
      continue;
    const LaunchArg &a = args[i];
    ConstexprValue v = params[i].value; // its kind is the parameter's
    auto bad = [&](const std::string &what) {
      throw Error(describe(params, i) + " is a constexpr " + what + ", got " +
                      argType(a),
                  loc);
    };
    const ParamSpec &p = params[i];
    switch (v.kind) {
    case ConstexprValue::Kind::Int:
      if ((a.kind == Kind::Int && !a.huge) || a.kind == Kind::Bool)
        v.i = a.i;
      else if (a.kind == Kind::Float && a.f == std::floor(a.f) &&
               std::fabs(a.f) < 9.0e15)
        v.i = static_cast<int64_t>(a.f);
      else if (a.kind == Kind::Int)
        bad("integer up to " + std::to_string(p.max));
      else
        bad("integer");
      // The callable receives it in its own C++ type: it must fit.
      if (v.i < p.min || v.i > p.max)
        bad("integer from " + std::to_string(p.min) + " to " +
            std::to_string(p.max));
      break;
    case ConstexprValue::Kind::Bool:
      if ((a.kind == Kind::Bool || a.kind == Kind::Int) && (a.i == 0 || a.i == 1))
        v.i = a.i;
      else
        bad("boolean");
      break;
    case ConstexprValue::Kind::Float:
      if (a.kind == Kind::Float)
        v.f = a.f;
      else if (a.kind == Kind::Int)
        v.f = a.huge ? static_cast<double>(uint64_t(a.i))
                     : static_cast<double>(a.i);
      else
        bad("number");
      break;
    }
    out[count++] = v;
  }
  return count;
}

Device &launchDevice(const std::string &kernel,
                     const std::vector<ParamSpec> &params,
                     std::span<const LaunchArg> args, const Grid &grid) {
  std::source_location loc = grid.loc;
  Device *device = nullptr;
  size_t first = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == Kind::AnyBuffer)
      throw Error(describe(params, i) + " is an AnyBuffer<" +
                      name(args[i].dtype) +
                      ">, which stands for a buffer in emit_as_launched() "
                      "and info_as_launched() only: launch a Buffer<" +
                      name(args[i].dtype) + ">",
                  loc);
    if (args[i].kind != Kind::Buffer)
      continue;
    if (!args[i].memory)
      throw Error(describe(params, i) + " is a Buffer<" +
                      name(args[i].dtype) +
                      "> that was moved from and holds no memory",
                  loc);
    Device &d = deviceOf(*args[i].memory);
    if (!device) {
      device = &d;
      first = i;
    } else if (device != &d) {
      // Two Device objects may have the same name (two CPU devices).
      std::string other = device->name() == d.name()
                              ? "another Device object (also " +
                                    device->name() + ")"
                              : device->name();
      throw Error(describe(params, i) + " is a buffer on " + d.name() +
                      ", but " + describe(params, first) + " is on " + other +
                      "; kernel '" + kernel + "' runs on one device",
                  loc);
    }
  }
  Device *streamDevice = grid.stream.device();
  if (device && streamDevice && device != streamDevice)
    throw Error("kernel '" + kernel + "' is launched on a stream of " +
                    streamDevice->name() + ", but " + describe(params, first) +
                    " is a buffer on " + device->name() +
                    "; a launch runs on the device of its buffers",
                loc);
  if (device)
    return *device;
  return streamDevice ? *streamDevice : Device::get("auto", loc);
}

/// Writes scalar argument `i` into its slot, in the parameter's type.
static void scalarSlot(const std::vector<ParamSpec> &params, size_t i,
                       const LaunchArg &a, uint64_t &slot,
                       std::source_location loc) {
  const ParamSpec &p = params[i];
  DType t = p.kind.dtype;
  auto fail = [&](const std::string &why) {
    throw Error(describe(params, i) + " is a " + paramType(p) + ", " + why,
                loc);
  };
  if (a.kind == Kind::Buffer || a.kind == Kind::Null ||
      a.kind == Kind::AnyBuffer)
    fail("got " + argType(a));
  if (a.huge && is_int(t) && t != DType::u64)
    fail("and " + std::to_string(uint64_t(a.i)) + " does not fit in " +
         name(t));
  slot = 0;
  if (is_int(t)) {
    if (a.kind == Kind::Float)
      fail("got " + argType(a) + "; convert it to an integer");
    int64_t v = a.i;
    unsigned w = bit_width(t);
    if (t == DType::i1) {
      if (v != 0 && v != 1)
        fail("got " + argType(a));
    } else if (is_unsigned(t)) {
      if ((v < 0 && !a.huge) || (w < 64 && v >= (int64_t(1) << w)))
        fail("and " + std::to_string(v) + " does not fit in " + name(t));
    } else if (w < 64 && (v < -(int64_t(1) << (w - 1)) ||
                          v >= (int64_t(1) << (w - 1)))) {
      fail("and " + std::to_string(v) + " does not fit in " + name(t));
    }
    std::memcpy(&slot, &v, size_in_bytes(t)); // little-endian: the low bytes
    return;
  }
  double v = a.kind == Kind::Float ? a.f
             : a.huge               ? static_cast<double>(uint64_t(a.i))
                                    : static_cast<double>(a.i);
  if (t == DType::f64) {
    std::memcpy(&slot, &v, 8);
    return;
  }
  if (t == DType::f32 && !(std::fabs(v) > double(FLT_MAX))) {
    float f = static_cast<float>(v); // the common case, exactly as C++ does
    std::memcpy(&slot, &f, 4);
    return;
  }
  bool lost;
  llvm::APFloat f(v);
  llvm::APFloat::opStatus status =
      f.convert(t == DType::f32        ? llvm::APFloat::IEEEsingle()
                : t == DType::f16      ? llvm::APFloat::IEEEhalf()
                : t == DType::f8e4m3fn ? llvm::APFloat::Float8E4M3FN()
                : t == DType::f8e5m2   ? llvm::APFloat::Float8E5M2()
                                       : llvm::APFloat::BFloat(),
                llvm::APFloat::rmNearestTiesToEven, &lost);
  // Rounding is expected; a finite number that becomes infinite is not.
  if ((status & llvm::APFloat::opOverflow) && std::isfinite(v)) {
    char shown[32];
    std::snprintf(shown, sizeof(shown), "%g", v);
    fail("and " + std::string(shown) + " is beyond the range of " + name(t));
  }
  uint64_t bits = f.bitcastToAPInt().getZExtValue();
  std::memcpy(&slot, &bits, size_in_bytes(t)); // little-endian
}

/// Checks pointer argument `i`: a Buffer of the parameter's element type
/// (or an AnyBuffer of it, when `anyBuffer`).
static void checkPointer(const std::vector<ParamSpec> &params, size_t i,
                         const LaunchArg &a, bool anyBuffer,
                         std::source_location loc) {
  const ParamSpec &p = params[i];
  bool buffer =
      a.kind == Kind::Buffer || (anyBuffer && a.kind == Kind::AnyBuffer);
  if (!buffer || a.dtype != p.kind.dtype)
    throw Error(describe(params, i) + " is a " + paramType(p) +
                    " and needs a Buffer<" + name(p.kind.dtype) + ">" +
                    (anyBuffer ? std::string(" or an AnyBuffer<") +
                                     name(p.kind.dtype) + ">"
                               : "") +
                    ", got " + argType(a),
                loc);
  if (a.kind == Kind::Buffer && !a.memory)
    throw Error(describe(params, i) + " is a Buffer<" + name(a.dtype) +
                    "> that was moved from and holds no memory",
                loc);
}

void checkRuntimeArgs(const std::vector<ParamSpec> &params,
                      std::span<const LaunchArg> args,
                      std::source_location loc) {
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    if (!params[i].runtime)
      continue;
    uint64_t slot;
    if (params[i].kind.pointer)
      checkPointer(params, i, args[i], /*anyBuffer=*/true, loc);
    else
      scalarSlot(params, i, args[i], slot, loc);
  }
}

void launch(Executable &executable, const std::string &kernel,
            const std::vector<ParamSpec> &params,
            std::span<const LaunchArg> args, const Grid &grid) {
  std::source_location loc = grid.loc;
  const char *axes[] = {"x", "y", "z"};
  int64_t dims[] = {grid.x, grid.y, grid.z};
  for (int i = 0; i < 3; ++i) {
    if (dims[i] < 1)
      throw Error(std::string("grid ") + axes[i] + " = " +
                      std::to_string(dims[i]) +
                      ": every grid dimension must be at least 1",
                  loc);
    if (dims[i] > INT32_MAX)
      throw Error(std::string("grid ") + axes[i] + " = " +
                      std::to_string(dims[i]) + " is larger than 2147483647",
                  loc);
    if (dims[i] > executable.maxGrid[i])
      throw Error(std::string("grid ") + axes[i] + " = " +
                      std::to_string(dims[i]) + " is larger than " +
                      std::to_string(executable.maxGrid[i]) +
                      ", the most the device launches along " + axes[i],
                  loc);
  }
  // The hot path of every launch: no heap allocation for up to 16
  // arguments, messages built only on errors.
  llvm::SmallVector<uint64_t, 16> slots;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!params[i].runtime)
      continue;
    const ParamSpec &p = params[i];
    const LaunchArg &a = args[i];
    slots.push_back(0);
    if (!p.kind.pointer) {
      scalarSlot(params, i, a, slots.back(), loc);
      continue;
    }
    checkPointer(params, i, a, /*anyBuffer=*/false, loc);
    size_t arg = slots.size() - 1;
    if (a.count > size_t(INT32_MAX) && arg < executable.narrowOffsets.size() &&
        executable.narrowOffsets[arg])
      throw Error(describe(params, i) + " is a Buffer<" + name(a.dtype) +
                      "> of " + std::to_string(a.count) +
                      " elements, but kernel '" + kernel +
                      "' reaches it through i32 offsets only, which index at "
                      "most 2147483647 elements; compute its offsets in i64 "
                      "(e.g. program_id(0).to(ktc::DType::i64) * BLOCK)",
                  loc);
    slots.back() = reinterpret_cast<uint64_t>(address(*a.memory));
  }
  llvm::SmallVector<void *, 16> pointers;
  for (uint64_t &s : slots)
    pointers.push_back(&s);
  std::optional<BoundsCheck> bounds; // a checked launch's buffers
  uint64_t hook = 0;
  if (executable.checkBounds) {
    hook = bounds.emplace(params, args).hookAddress();
    pointers.push_back(&hook);
  }
  try {
    executable.launch(pointers.data(), pointers.size(),
                      {int32_t(grid.x), int32_t(grid.y), int32_t(grid.z)},
                      grid.stream.handle());
    if (bounds)
      bounds->throwIfViolated(kernel); // at the op's line
  } catch (const Error &e) {
    // A driver's error, at the user's launch.
    if (!e.file().empty())
      throw;
    throw Error("launching kernel '" + kernel + "': " + e.message(), loc);
  }
}

void specialisation(const std::vector<ParamSpec> &params,
                    std::span<const LaunchArg> args, std::span<uint8_t> spec) {
  std::fill(spec.begin(), spec.end(), 0);
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    if (!params[i].runtime)
      continue;
    const LaunchArg &a = args[i];
    bool by16 = false;
    if (a.kind == Kind::Buffer)
      by16 = reinterpret_cast<uintptr_t>(address(*a.memory)) % 16 == 0;
    else if (a.kind == Kind::AnyBuffer)
      by16 = true; // as every device allocates
    else if (a.kind == Kind::Int && is_int(params[i].kind.dtype) &&
             params[i].kind.dtype != DType::i1) {
      if (a.i == 1) {
        spec[i] = kEqualToOne;
        continue;
      }
      by16 = a.i % 16 == 0;
    }
    spec[i] = by16 ? 16 : 1;
  }
}

} // namespace ktc::detail
