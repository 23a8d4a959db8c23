//===- HostDebug.cpp - device_print and device_assert on the host ----------===//
//
// ktc.print: for each operand, a loop nest over its elements calling the
// process's printf once per element (one call, one line: lines of programs
// running on other threads never mix within a line). ktc.assert: the same
// loops calling ktc.host.assert_fail for each false element; the programs
// go on to their end, and the CPU device throws the first failure, by
// program then element, after the launch (lib/Runtime/CPU/CpuDevice.cpp).
//
//===----------------------------------------------------------------------===//

#include "HostDebug.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdio>

using namespace mlir;
using namespace mlir::ktc;

static constexpr llvm::StringLiteral kAssertFail = "ktc.host.assert_fail";

namespace {

/// Globals and declarations the expansion adds to a module.
struct Emitter {
  explicit Emitter(func::FuncOp kernel)
      : kernel(kernel), module(kernel->getParentOfType<ModuleOp>()),
        ptr(LLVM::LLVMPointerType::get(kernel.getContext())) {}

  /// The address of a constant NUL-terminated copy of `text`.
  Value string(OpBuilder &b, Location loc, StringRef text) {
    std::string bytes = text.str() + '\0';
    OpBuilder globals(module.getContext());
    globals.setInsertionPointToStart(module.getBody());
    std::string name = "__ktc_debug_" + kernel.getSymName().str() + "_" +
                       std::to_string(count++);
    auto global = LLVM::GlobalOp::create(
        globals, loc,
        LLVM::LLVMArrayType::get(globals.getI8Type(), bytes.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, name,
        globals.getStringAttr(bytes));
    return LLVM::AddressOfOp::create(b, loc, ptr, global.getSymName());
  }

  /// The declaration of `name` with `type`, added once.
  LLVM::LLVMFuncOp declare(StringRef name, LLVM::LLVMFunctionType type) {
    if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return f;
    OpBuilder b(module.getContext());
    b.setInsertionPointToStart(module.getBody());
    return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
  }

  func::FuncOp kernel;
  ModuleOp module;
  Type ptr;
  int count = 0;
};

/// body(indices, element) for every element of `value` (a block: loops in
/// row-major order) or once for a scalar (no indices).
void forEachElement(
    OpBuilder &b, Location loc, Value value,
    function_ref<void(OpBuilder &, Location, ValueRange, Value)> body) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor)
    return body(b, loc, {}, value);
  SmallVector<Value> lbs, ubs, steps;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t size : tensor.getShape()) {
    lbs.push_back(zero);
    ubs.push_back(arith::ConstantIndexOp::create(b, loc, size));
    steps.push_back(one);
  }
  scf::buildLoopNest(b, loc, lbs, ubs, steps,
                     [&](OpBuilder &b, Location loc, ValueRange ivs) {
                       Value element =
                           tensor::ExtractOp::create(b, loc, value, ivs);
                       body(b, loc, ivs, element);
                     });
}

/// printf's conversion for `type` and the value it takes (varargs: floats
/// as double, small integers as int).
std::pair<const char *, Value> printfArg(OpBuilder &b, Location loc,
                                         Value v) {
  Type type = v.getType();
  if (isa<FloatType>(type))
    return {"%f", arith::ExtFOp::create(b, loc, b.getF64Type(), v)};
  if (type.isInteger(64))
    return {"%lld", v};
  if (type.isInteger(1))
    return {"%d", arith::ExtUIOp::create(b, loc, b.getI32Type(), v)};
  if (type.getIntOrFloatBitWidth() < 32)
    return {"%d", arith::ExtSIOp::create(b, loc, b.getI32Type(), v)};
  return {"%d", v};
}

void expandPrint(Emitter &e, PrintOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Type i32 = b.getI32Type();
  LLVM::LLVMFuncOp printf = e.declare(
      "printf", LLVM::LLVMFunctionType::get(i32, {e.ptr}, /*isVarArg=*/true));
  SmallVector<Value> pid;
  for (int axis = 0; axis < 3; ++axis)
    pid.push_back(ProgramIdOp::create(b, loc, i32, b.getI32IntegerAttr(axis)));
  std::string prefix;
  for (char c : op.getPrefix())
    prefix += c == '%' ? std::string("%%") : std::string(1, c);
  for (auto [k, arg] : llvm::enumerate(op.getArgs())) {
    std::string label = prefix;
    if (op.getArgs().size() > 1)
      label += " (operand " + std::to_string(k) + ")";
    unsigned rank = 0;
    if (auto tensor = dyn_cast<RankedTensorType>(arg.getType()))
      rank = tensor.getRank();
    forEachElement(b, loc, arg, [&](OpBuilder &b, Location loc,
                                    ValueRange ivs, Value element) {
      auto [conversion, value] = printfArg(b, loc, element);
      std::string format = "pid (%d, %d, %d)";
      if (rank) {
        format += " idx (";
        for (unsigned d = 0; d < rank; ++d)
          format += d ? ", %d" : "%d";
        format += ")";
      }
      format += " " + label + ": " + conversion + "\n";
      SmallVector<Value> args{e.string(b, loc, format)};
      args.append(pid.begin(), pid.end());
      for (Value iv : ivs)
        args.push_back(arith::IndexCastOp::create(b, loc, i32, iv));
      args.push_back(value);
      LLVM::CallOp::create(b, loc, printf, args);
    });
  }
  (void)ctx;
  op.erase();
}

/// "FILE\nLINE\nCOLUMN\nMESSAGE" for `op`.
std::string siteText(AssertOp op) {
  std::string file, line = "0", column = "0";
  if (auto at = op.getLoc()->findInstanceOf<FileLineColLoc>()) {
    file = at.getFilename().str();
    line = std::to_string(at.getLine());
    column = std::to_string(at.getColumn());
  }
  return file + "\n" + line + "\n" + column + "\n" + op.getMessage().str();
}

void expandAssert(Emitter &e, AssertOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  LLVM::LLVMFuncOp fail = e.declare(
      kAssertFail,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(op.getContext()),
                                  {e.ptr, i32, i32, i32, i32, i64, i64, i64}));
  SmallVector<Value> pid;
  for (int axis = 0; axis < 3; ++axis)
    pid.push_back(ProgramIdOp::create(b, loc, i32, b.getI32IntegerAttr(axis)));
  Value site = e.string(b, loc, siteText(op));
  Value isFalse = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  forEachElement(b, loc, op.getCondition(), [&](OpBuilder &b, Location loc,
                                                ValueRange ivs, Value ok) {
    Value failed = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ok,
                                         isFalse);
    scf::IfOp::create(b, loc, failed, [&](OpBuilder &b, Location loc) {
      SmallVector<Value> args{site};
      args.append(pid.begin(), pid.end());
      args.push_back(
          arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(ivs.size())));
      for (unsigned d = 0; d < 3; ++d)
        args.push_back(d < ivs.size()
                           ? arith::IndexCastOp::create(b, loc, i64, ivs[d])
                                 .getResult()
                           : arith::ConstantOp::create(
                                 b, loc, b.getI64IntegerAttr(0))
                                 .getResult());
      LLVM::CallOp::create(b, loc, fail, args);
      scf::YieldOp::create(b, loc);
    });
  });
  op.erase();
}

} // namespace

void ::ktc::host::expandHostDebugOps(func::FuncOp kernel) {
  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    if (isa<PrintOp, AssertOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return;
  Emitter e(kernel);
  for (Operation *op : ops) {
    if (auto print = dyn_cast<PrintOp>(op))
      expandPrint(e, print);
    else
      expandAssert(e, cast<AssertOp>(op));
  }
}

//===----------------------------------------------------------------------===//
// The runtime side
//===----------------------------------------------------------------------===//

namespace ktc::host {

static thread_local AssertRecord *currentRecord = nullptr;
static thread_local std::array<int32_t, 3> currentGrid{};

static std::vector<llvm::StringRef> siteParts(const std::string &site) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  llvm::StringRef(site).split(parts, '\n', /*MaxSplit=*/3);
  parts.resize(4);
  return {parts.begin(), parts.end()};
}

std::string AssertRecord::message() const {
  std::string text = "device_assert failed: " + siteParts(site)[3].str() +
                     " (program (" + std::to_string(pid[0]) + ", " +
                     std::to_string(pid[1]) + ", " + std::to_string(pid[2]) +
                     ")";
  if (rank) {
    text += ", element (";
    for (int32_t d = 0; d < rank; ++d)
      text += (d ? ", " : "") + std::to_string(index[d]);
    text += ")";
  }
  return text + ")";
}
std::string AssertRecord::file() const { return siteParts(site)[0].str(); }
unsigned AssertRecord::line() const {
  unsigned v = 0;
  (void)siteParts(site)[1].getAsInteger(10, v);
  return v;
}
unsigned AssertRecord::column() const {
  unsigned v = 0;
  (void)siteParts(site)[2].getAsInteger(10, v);
  return v;
}

AssertScope::AssertScope(AssertRecord *record, std::array<int32_t, 3> grid)
    : previous_(currentRecord), previousGrid_(currentGrid),
      active_(record != nullptr) {
  if (active_) {
    currentRecord = record;
    currentGrid = grid;
  }
}
AssertScope::~AssertScope() {
  if (active_) {
    currentRecord = previous_;
    currentGrid = previousGrid_;
  }
}

/// The program's index in launch order (x fastest).
static int64_t linear(const std::array<int32_t, 3> &pid,
                      const std::array<int32_t, 3> &grid) {
  return pid[0] + int64_t(grid[0]) * (pid[1] + int64_t(grid[1]) * pid[2]);
}

extern "C" void ktcHostAssertFail(const char *site, int32_t x, int32_t y,
                                  int32_t z, int32_t rank, int64_t i0,
                                  int64_t i1, int64_t i2) {
  AssertRecord *record = currentRecord;
  AssertRecord fallback;
  AssertRecord &r = record ? *record : fallback;
  std::unique_lock<std::mutex> lock(r.mutex);
  std::array<int32_t, 3> pid{x, y, z};
  // The first failure of the earliest program: later failures of the same
  // program came later in its order.
  if (r.failed && linear(pid, currentGrid) >= linear(r.pid, r.grid))
    return;
  r.failed = true;
  r.site = site;
  r.pid = pid;
  r.grid = currentGrid;
  r.rank = rank;
  r.index = {i0, i1, i2};
  if (!record) // a kernel run outside a device's launch
    std::fprintf(stderr, "%s:%u:%u: %s\n", r.file().c_str(), r.line(),
                 r.column(), r.message().c_str());
}

llvm::Error defineHostDebugSymbols(llvm::orc::LLJIT &jit,
                                   llvm::orc::JITDylib &dylib) {
  llvm::orc::SymbolMap symbols;
  symbols[jit.mangleAndIntern(kAssertFail)] = {
      llvm::orc::ExecutorAddr::fromPtr(&ktcHostAssertFail),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  return dylib.define(
      llvm::orc::absoluteSymbols(std::move(symbols)));
}

} // namespace ktc::host
