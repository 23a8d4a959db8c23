//===- DebugOpToLLVM.cpp - ktc.print and ktc.assert on GPUs ----------------===//
//
// ktc.print: each thread prints the elements it holds, one printf a line,
// "pid (X, Y, Z) idx (I, ...) PREFIX: VALUE" as on the host; only the first
// copy of a replicated element prints (ifFirstReplica), so a scalar prints
// once per program, from thread 0. Targets without a printf
// (TargetInfo::hasPrint) reject the op with an error at its line.
// ktc.assert: each thread checks the elements it holds and, if one is
// false, calls the target's assertFail (CUDA's __assertfail, else a trap).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "Staging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

void TargetInfo::assertFail(OpBuilder &b, Location loc, Value message,
                            Value file, unsigned line, Value function) const {
  LLVM::Trap::create(b, loc);
}

namespace {

/// The address of a constant NUL-terminated copy of `text` (a new global
/// of the module, named `__ktc_debug_N`, in the target's constant address
/// space).
Value constantString(ConversionPatternRewriter &rewriter, Location loc,
                     Operation *op, const TargetInfo &target, StringRef text) {
  auto module = op->getParentOfType<ModuleOp>();
  std::string name;
  for (unsigned n = 0;; ++n) {
    name = "__ktc_debug_" + std::to_string(n);
    if (!module.lookupSymbol(name))
      break;
  }
  std::string bytes = text.str() + '\0';
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(
        rewriter, loc,
        LLVM::LLVMArrayType::get(rewriter.getI8Type(), bytes.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, name,
        rewriter.getStringAttr(bytes), /*alignment=*/0,
        target.constantAddressSpace());
  }
  return LLVM::AddressOfOp::create(rewriter, loc, global);
}

/// printf's conversion and argument for `v`: floats as double, integers
/// narrower than 32 bits as int (i1 zero-extended, the others sign-).
std::pair<const char *, Value> printfArg(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  if (isa<FloatType>(type))
    return {"%f", LLVM::FPExtOp::create(b, loc, b.getF64Type(), v)};
  if (type.isInteger(64))
    return {"%lld", v};
  if (type.isInteger(1))
    return {"%d", LLVM::ZExtOp::create(b, loc, b.getI32Type(), v)};
  if (type.getIntOrFloatBitWidth() < 32)
    return {"%d", LLVM::SExtOp::create(b, loc, b.getI32Type(), v)};
  return {"%d", v};
}

struct PrintLowering : OpConversionPattern<PrintOp> {
  PrintLowering(const TypeConverter &converter, MLIRContext *ctx,
                const LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(PrintOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TargetInfo &target = *state.target;
    if (!target.hasPrint())
      return op.emitError("device_print is not supported on ")
             << target.arch()
             << ": ktc prints on the host CPU, CUDA (sm_*) and AMD (gfx*) "
                "targets only (docs/builder.md#debugging)";
    Location loc = op.getLoc();
    std::string prefix;
    for (char c : op.getPrefix())
      prefix += c == '%' ? std::string("%%") : std::string(1, c);
    SmallVector<Value> pid;
    for (int axis = 0; axis < 3; ++axis)
      pid.push_back(target.programId(rewriter, loc, axis));
    uint64_t allThreads = uint64_t(state.numWarps) * target.waveSize() - 1;
    for (auto [k, arg] : llvm::enumerate(op.getArgs())) {
      std::string label = prefix;
      if (op.getArgs().size() > 1)
        label += " (operand " + std::to_string(k) + ")";
      ValueRange values = adaptor.getArgs()[k];
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      auto format = [&](const char *conversion) {
        std::string f = "pid (%d, %d, %d)";
        if (tensor) {
          f += " idx (";
          for (int64_t d = 0; d < tensor.getRank(); ++d)
            f += d ? ", %d" : "%d";
          f += ")";
        }
        return f + " " + label + ": " + conversion + "\n";
      };
      const char *conversion =
          printfArg(rewriter, loc, values[0]).first; // one type a block
      Value text =
          constantString(rewriter, loc, op, target, format(conversion));
      if (!tensor) {
        ifFirstReplica(rewriter, loc, target, allThreads,
                       [&](OpBuilder &b, Location loc) {
                         SmallVector<Value> args(pid);
                         args.push_back(printfArg(b, loc, values[0]).second);
                         target.print(b, loc, text, args);
                       });
        continue;
      }
      LinearLayout layout = toLinearLayout(tensor);
      ifFirstReplica(
          rewriter, loc, target, layout.replicatedThreadBits(),
          [&](OpBuilder &b, Location loc) {
            TileCoords coords(b, loc, target, layout);
            for (int64_t reg = 0; reg < int64_t(values.size()); ++reg) {
              SmallVector<Value> args(pid);
              for (Value c : coords.at(b, loc, reg))
                args.push_back(c);
              args.push_back(printfArg(b, loc, values[reg]).second);
              target.print(b, loc, text, args);
            }
          });
    }
    rewriter.eraseOp(op);
    return success();
  }
  const LoweringState &state;
};

struct AssertLowering : OpConversionPattern<AssertOp> {
  AssertLowering(const TypeConverter &converter, MLIRContext *ctx,
                 const LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}

  LogicalResult
  matchAndRewrite(AssertOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange values = adaptor.getCondition();
    Value all = values[0];
    for (Value v : values.drop_front())
      all = LLVM::AndOp::create(rewriter, loc, all, v);
    Value failed = LLVM::XOrOp::create(
        rewriter, loc, all,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), 1));
    std::string file = "unknown";
    unsigned line = 0;
    if (auto at = loc->findInstanceOf<FileLineColLoc>()) {
      file = at.getFilename().str();
      line = at.getLine();
    }
    std::string function = "unknown";
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      function = func.getName().str();
    const TargetInfo &target = *state.target;
    Value message = constantString(rewriter, loc, op, target, op.getMessage());
    Value fileText = constantString(rewriter, loc, op, target, file);
    Value functionText = constantString(rewriter, loc, op, target, function);
    scf::IfOp::create(rewriter, loc, failed, [&](OpBuilder &b, Location loc) {
      target.assertFail(b, loc, message, fileText, line, functionText);
      scf::YieldOp::create(b, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
  const LoweringState &state;
};

/// debug_barrier's gpu.barrier: the target's barrier (bar.sync 0,
/// s_barrier), as the lowering's own shared-memory barriers.
struct BarrierLowering : OpConversionPattern<gpu::BarrierOp> {
  BarrierLowering(const TypeConverter &converter, MLIRContext *ctx,
                  const LoweringState &state)
      : OpConversionPattern(converter, ctx), state(state) {}
  LogicalResult
  matchAndRewrite(gpu::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    state.target->barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
  const LoweringState &state;
};

} // namespace

void mlir::ktc::populateDebugPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const LoweringState &state) {
  patterns.add<PrintLowering, AssertLowering>(converter, patterns.getContext(),
                                              state);
  patterns.add<BarrierLowering>(converter, patterns.getContext(), state);
}
