//===- Launch.cpp - checking, compiling and launching kernels --------------===//
//
// Shared by every device: the launch arguments are checked against the
// kernel's parameters (errors at the caller's line), and marshalled into one
// `void **` array of pointers to 8-byte slots.
//
//===----------------------------------------------------------------------===//

#include "BoundsCheck.h"
#include "Device.h"

#include "lib/Builder/Trace.h"
#include "lib/Conversion/GpuPipeline.h"
#include "lib/Support/Env.h"
#include "lib/Support/ThreadDiagnostics.h"
#include "lib/Target/CPU/HostTarget.h"
#include "lib/Target/GpuCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Target/TargetMachine.h"

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
    return std::string("a Buffer<") + name(a.dtype) + ">";
  case Kind::Int:
    return "the integer " + (a.huge ? std::to_string(uint64_t(a.i))
                                    : std::to_string(a.i));
  case Kind::Float:
    return "the floating-point number " + std::to_string(a.f);
  case Kind::Bool:
    return a.i ? "true" : "false";
  case Kind::Null:
    return "a null pointer";
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
                     std::span<const LaunchArg> args,
                     std::source_location loc) {
  Device *device = nullptr;
  size_t first = 0;
  for (size_t i = 0; i < args.size(); ++i) {
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
  return device ? *device : Device::get("auto", loc);
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
  if (a.kind == Kind::Buffer || a.kind == Kind::Null)
    fail("got " + argType(a));
  if (a.huge && is_int(t))
    fail("and " + std::to_string(uint64_t(a.i)) + " does not fit in " +
         name(t));
  slot = 0;
  if (is_int(t)) {
    if (a.kind == Kind::Float)
      fail("got " + argType(a) + "; convert it to an integer");
    int64_t v = a.i;
    if (t == DType::i1) {
      if (v != 0 && v != 1)
        fail("got " + argType(a));
      uint8_t b = v;
      std::memcpy(&slot, &b, 1);
    } else if (t == DType::i32) {
      if (v < INT32_MIN || v > INT32_MAX)
        fail("and " + std::to_string(v) + " does not fit in i32");
      int32_t w = static_cast<int32_t>(v);
      std::memcpy(&slot, &w, 4);
    } else {
      std::memcpy(&slot, &v, 8);
    }
    return;
  }
  double v = a.kind == Kind::Float ? a.f
             : a.huge               ? static_cast<double>(uint64_t(a.i))
                                    : static_cast<double>(a.i);
  if (t == DType::f32 && !(std::fabs(v) > double(FLT_MAX))) {
    float f = static_cast<float>(v); // the common case, exactly as C++ does
    std::memcpy(&slot, &f, 4);
    return;
  }
  bool lost;
  llvm::APFloat f(v);
  llvm::APFloat::opStatus status =
      f.convert(t == DType::f32   ? llvm::APFloat::IEEEsingle()
                : t == DType::f16 ? llvm::APFloat::IEEEhalf()
                                  : llvm::APFloat::BFloat(),
                llvm::APFloat::rmNearestTiesToEven, &lost);
  // Rounding is expected; a finite number that becomes infinite is not.
  if ((status & llvm::APFloat::opOverflow) && std::isfinite(v)) {
    char shown[32];
    std::snprintf(shown, sizeof(shown), "%g", v);
    fail("and " + std::string(shown) + " is beyond the range of " + name(t));
  }
  uint64_t bits = f.bitcastToAPInt().getZExtValue();
  std::memcpy(&slot, &bits, t == DType::f32 ? 4 : 2); // little-endian
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
    if (a.kind != Kind::Buffer || a.dtype != p.kind.dtype)
      throw Error(describe(params, i) + " is a " + paramType(p) +
                      " and needs a Buffer<" + name(p.kind.dtype) + ">, got " +
                      argType(a),
                  loc);
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
                      {int32_t(grid.x), int32_t(grid.y), int32_t(grid.z)});
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

std::string gpuLowering(llvm::StringRef arch, unsigned numWarps) {
  return "ktc-opt --ktc-gpu-pipeline=\"target=" + arch.str() +
         " num-warps=" + std::to_string(numWarps) + "\"";
}

std::string compileForGpu(mlir::ModuleOp module, llvm::StringRef kernel,
                          llvm::StringRef arch, unsigned numWarps,
                          gpu::Stage stage, Dumper *dumper) {
  std::string diagnostics;
  ThreadDiagnosticHandler handler(
      module.getContext(), [&](mlir::Diagnostic &diag) {
        llvm::raw_string_ostream os(diagnostics);
        os << diag.getLocation() << ": " << diag.str() << "\n";
      });
  mlir::PassManager pm(module.getContext());
  if (dumper)
    if (auto dump = dumper->after("ktc-assign-layouts", "layout"))
      pm.addInstrumentation(std::move(dump));
  if (failed(mlir::ktc::buildGpuPipeline(pm, arch, numWarps)) ||
      failed(pm.run(module)))
    throw Error("lowering kernel '" + kernel.str() + "' for " + arch.str() +
                " failed:\n" + diagnostics);
  if (dumper) // the extra stages are generated only when asked for
    for (auto [name, dumpStage, ext] :
         {std::tuple{"llvm", gpu::Stage::LLVM, "ll"},
          std::tuple{"asm", gpu::Stage::Assembly,
                     arch.starts_with("sm_") ? "ptx" : "s"}})
      if (dumper->wants(name)) {
        if (auto text = gpu::emit(module, arch, dumpStage))
          dumper->dump(name, ext, *text);
        else
          llvm::consumeError(text.takeError());
      }
  auto text = gpu::emit(module, arch, stage);
  if (!text)
    throw Error("generating code for kernel '" + kernel.str() + "' (" +
                arch.str() + ") failed: " + llvm::toString(text.takeError()));
  return std::move(*text);
}

/// Per kernel argument, whether some load or store reaches that pointer
/// through ktc.addptr ops with i32 offsets and none with i64 ones. Such
/// offsets overflow before they index element 2^31, so a larger buffer is
/// refused at launch. Conservative: every pointer that flows into a value
/// (through loops, branches, selects, splats) counts as its source.
static std::vector<bool> narrowlyIndexed(mlir::func::FuncOp func) {
  enum : uint8_t { Direct, Narrow, Wide }; // the offsets seen so far
  std::vector<bool> narrow(func.getNumArguments(), false);
  llvm::DenseSet<std::pair<mlir::Value, uint8_t>> seen;
  llvm::SmallVector<std::pair<mlir::Value, uint8_t>> work;
  auto push = [&](mlir::Value v, uint8_t state) {
    if (mlir::isa<mlir::ktc::PtrType>(mlir::getElementTypeOrSelf(v.getType())) &&
        seen.insert({v, state}).second)
      work.push_back({v, state});
  };
  // What flows into `op`: its operands and its regions' yields.
  auto pushInputs = [&](mlir::Operation *op, uint8_t state) {
    for (mlir::Value operand : op->getOperands())
      push(operand, state);
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        if (!block.empty() && block.back().hasTrait<mlir::OpTrait::IsTerminator>())
          for (mlir::Value operand : block.back().getOperands())
            push(operand, state);
  };
  func.walk([&](mlir::Operation *op) {
    if (auto load = mlir::dyn_cast<mlir::ktc::LoadOp>(op))
      push(load.getPtr(), Direct);
    else if (auto store = mlir::dyn_cast<mlir::ktc::StoreOp>(op))
      push(store.getPtr(), Direct);
  });
  while (!work.empty()) {
    auto [value, state] = work.pop_back_val();
    if (auto arg = mlir::dyn_cast<mlir::BlockArgument>(value)) {
      mlir::Operation *owner = arg.getOwner()->getParentOp();
      if (owner == func.getOperation()) {
        if (state == Narrow)
          narrow[arg.getArgNumber()] = true;
      } else {
        pushInputs(owner, state); // a loop's or a branch's argument
      }
      continue;
    }
    mlir::Operation *def = value.getDefiningOp();
    if (auto add = mlir::dyn_cast<mlir::ktc::AddPtrOp>(def)) {
      bool wide = mlir::getElementTypeOrSelf(add.getOffset().getType())
                      .isInteger(64);
      push(add.getPtr(), wide || state == Wide ? Wide : Narrow);
      continue;
    }
    pushInputs(def, state);
  }
  return narrow;
}

/// The kernel's ktc.num_warps (its launch options), or 4.
static unsigned numWarpsOf(mlir::func::FuncOp func) {
  return mlir::ktc::KtcDialect::getNumWarps(func).value_or(4);
}

std::shared_ptr<Executable> compile(Trace &trace, Device &device,
                                    const std::vector<uint8_t> &spec) {
  mlir::ModuleOp module = trace.impl().finalize();
  mlir::func::FuncOp func = trace.impl().func;
  std::vector<bool> narrow = narrowlyIndexed(func); // before lowering
  // The specialisation becomes ktc.divisibility on the kernel's arguments
  // (the axis analysis reads it).
  mlir::OpBuilder b(func.getContext());
  std::string log;
  bool constants = false;
  for (size_t i = 0, arg = 0; i < spec.size(); ++i) {
    if (spec[i] == 0)
      continue; // a constexpr
    if (spec[i] == 16)
      func.setArgAttr(arg, mlir::ktc::KtcDialect::getDivisibilityAttrName(),
                      b.getI32IntegerAttr(16));
    if (spec[i] == kEqualToOne) {
      // The argument is 1 in every launch of this specialisation: fold it
      // (a stride of 1 makes addresses contiguous).
      mlir::BlockArgument value = func.getArgument(arg);
      b.setInsertionPointToStart(&func.getBody().front());
      auto one = mlir::arith::ConstantOp::create(
          b, func.getLoc(), b.getIntegerAttr(value.getType(), 1));
      value.replaceAllUsesWith(one);
      constants = true;
    }
    log += (log.empty() ? "" : ", ") + std::string("arg") +
           std::to_string(arg) +
           (spec[i] == 16 ? ":16" : spec[i] == kEqualToOne ? ":=1" : ":1");
    ++arg;
  }
  if (constants) {
    mlir::PassManager pm(func.getContext());
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
    if (failed(pm.run(module)))
      throw Error("simplifying kernel '" + func.getSymName().str() +
                  "' for its constant arguments failed");
  }
  if (env::flag("KTC_LOG_SPECIALIZATIONS", false)) {
    std::string constexprs;
    if (auto dict = func->getAttrOfType<mlir::DictionaryAttr>(
            mlir::ktc::KtcDialect::getConstexprAttrName())) {
      llvm::raw_string_ostream os(constexprs);
      os << " " << dict;
    }
    std::fprintf(stderr, "ktc: compiling %s%s [%s] for %s\n",
                 func.getSymName().str().c_str(), constexprs.c_str(),
                 log.c_str(), device.name().c_str());
  }
  // A checked launch (on the CPU only: GPUs ignore the option).
  bool checked = trace.impl().options.check_bounds &&
                 device.impl().kind() == DeviceKind::CPU;
  if (checked)
    func->setAttr(mlir::ktc::KtcDialect::getCheckBoundsAttrName(),
                  b.getUnitAttr());
  // The launch's Options::num_warps, recorded on the kernel.
  std::string name = func.getSymName().str();
  unsigned numWarps = numWarpsOf(func);
  Dumper dumper(module, name);
  try {
    std::shared_ptr<Executable> executable =
        compileCached(module, name, device.impl(), numWarps,
                      trace.impl().options.num_stages, dumper);
    executable->narrowOffsets = std::move(narrow);
    executable->checkBounds = checked;
    return executable;
  } catch (const Error &e) {
    std::string path =
        dumper.reproducer(e.message(), device.impl().lowering(numWarps));
    if (path.empty())
      throw;
    throw Error(e.message() + "\nreproducer: " + path + " (run: " +
                device.impl().lowering(numWarps) + " " + path + ")");
  }
}

/// Throws at `loc` unless `arch` is a GPU that LLVM's backends know (before
/// any compile: a misspelt target is not a failed compile).
static void checkGpuTarget(llvm::StringRef arch, std::source_location loc) {
  auto machine = gpu::createTargetMachine(arch);
  if (machine)
    return;
  std::string why = llvm::toString(machine.takeError());
  if (!llvm::StringRef(why).starts_with("unknown GPU"))
    throw Error(why, loc); // LLVM knows it, ktc does not serve it
  bool nvidia = arch.starts_with("sm_");
  throw Error("unknown GPU target '" + arch.str() + "': LLVM's " +
                  (nvidia ? "NVPTX" : "AMDGPU") +
                  " backend does not know it (ktc supports " +
                  (nvidia ? "sm_70 and newer: sm_80, sm_90, sm_100, sm_120, ..."
                          : "gfx9 and newer: gfx90a, gfx942, gfx950, gfx1100, "
                            "gfx1200, ...") +
                  ")",
              loc);
}

KernelInfo info(Trace &trace, const std::string &target,
                std::source_location loc) {
  llvm::StringRef arch(target);
  if (!arch.starts_with("gfx") && !arch.starts_with("sm_") &&
      target != "host" && target != "cpu" && target != "cuda" &&
      target != "hip" && target != "auto")
    throw Error("unknown target '" + target +
                    "' (a device: auto, cpu, cuda, hip; or host, sm_<N>, "
                    "gfx<N>)",
                loc);
  // Read before lowering: the lowering replaces the func.func.
  std::string name = trace.impl().func.getSymName().str();
  unsigned numWarps = numWarpsOf(trace.impl().func);
  if (arch.starts_with("gfx")) {
    std::string hsaco = emit(trace, "bin", target, loc);
    auto resources = gpu::amdgpu::readMetadata(hsaco, name);
    if (!resources)
      throw Error("reading the code object failed: " +
                      llvm::toString(resources.takeError()),
                  loc);
    return toInfo(*resources, target);
  }
  if (arch.starts_with("sm_")) {
    // Registers are allocated when the driver loads the PTX: known on a
    // CUDA device only (target "cuda").
    emit(trace, "asm", target, loc); // the kernel compiles
    KernelInfo info;
    info.target = target;
    info.wave_size = 32;
    info.max_threads = 32 * numWarps;
    return info;
  }
  return info(trace, Device::get(target == "host" ? "cpu" : target, loc));
}

KernelInfo info(Trace &trace, Device &device) {
  std::vector<uint8_t> noSpecialisation(trace.impl().args.size(), 1);
  return compile(trace, device, noSpecialisation)->info();
}

std::string emit(Trace &trace, const std::string &what,
                 const std::string &target, std::source_location loc) {
  if (what != "mlir" && what != "llvm" && what != "asm" && what != "bin")
    throw Error("unknown stage '" + what +
                    "' to emit (mlir, llvm, asm or bin)",
                loc);
  llvm::StringRef arch(target);
  bool isGpu = arch.starts_with("sm_") || arch.starts_with("gfx");
  if (!isGpu && target != "host")
    throw Error("unknown target '" + target +
                    "' (host, sm_<N> or gfx<N>)",
                loc);
  if (what == "mlir")
    return trace.finish();
  mlir::ModuleOp module = trace.impl().finalize();
  if (isGpu) {
    checkGpuTarget(arch, loc);
    mlir::func::FuncOp func = trace.impl().func;
    std::string name = func.getSymName().str();
    unsigned numWarps = numWarpsOf(func);
    Dumper dumper(module, name);
    try {
      return compileForGpu(module, name, arch, numWarps,
                           what == "llvm"  ? gpu::Stage::LLVM
                           : what == "asm" ? gpu::Stage::Assembly
                                           : gpu::Stage::Binary,
                           &dumper);
    } catch (const Error &e) {
      // At the caller's line, with a reproducer for ktc-opt.
      std::string command = gpuLowering(arch, numWarps);
      std::string path = dumper.reproducer(e.message(), command);
      throw Error(path.empty() ? e.message()
                               : e.message() + "\nreproducer: " + path +
                                     " (run: " + command + " " + path + ")",
                  loc);
    }
  }
  if (what == "bin")
    throw Error("--emit=bin is for GPU targets; the host JIT-compiles", loc);
  if (trace.impl().options.check_bounds) // the code of a checked launch
    trace.impl().func->setAttr(mlir::ktc::KtcDialect::getCheckBoundsAttrName(),
                               mlir::UnitAttr::get(module.getContext()));
  auto text = what == "llvm" ? host::emitLLVMIR(module)
                             : host::emitAssembly(module);
  if (!text)
    throw Error("emitting " + what + " failed: " +
                    llvm::toString(text.takeError()),
                loc);
  return *text;
}

} // namespace ktc::detail
