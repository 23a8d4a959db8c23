//===- Debug.cpp - device_print, device_assert, debug_barrier ---------------===//
//
// Both check their operands in every trace, so that a kernel that is wrong
// in debug mode is wrong without it too, but emit ktc.print / ktc.assert
// only when the kernel is traced with Options::debug (or KTC_DEBUG=1):
// otherwise they leave nothing in the IR, as Triton's do without
// TRITON_DEBUG. How each target prints and fails: docs/builder.md#debugging.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

void detail::devicePrint(const std::string &prefix,
                         const std::vector<Operand> &values, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  SmallVector<mlir::Value> args;
  for (const Operand &op : values) {
    mlir::Value v = t.resolve(op, Type(), loc);
    Type element = getElementTypeOrSelf(v.getType());
    if (!isa<IntegerType, FloatType>(element))
      t.fail(loc, "device_print prints integers and floats, got " +
                      typeStr(v.getType()));
    args.push_back(v);
  }
  if (!t.options.debug)
    return;
  mlir::ktc::PrintOp::create(t.b, t.loc(loc), t.b.getStringAttr(prefix),
                             args);
}

void device_assert(const Operand &cond, const std::string &message, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value c = t.resolve(cond, t.b.getI1Type(), loc);
  if (!getElementTypeOrSelf(c.getType()).isInteger(1))
    t.fail(loc, "device_assert needs a boolean (i1) scalar or block, got " +
                    typeStr(c.getType()));
  if (!t.options.debug)
    return;
  mlir::ktc::AssertOp::create(t.b, t.loc(loc), c,
                              t.b.getStringAttr(message));
}

// Triton's tl.debug_barrier (issue 19): upstream's gpu.barrier, lowered by
// convert-ktc-to-llvm to the target's barrier (DebugOpToLLVM.cpp) and
// dropped on the host (ConvertToHost.cpp), where one thread runs a
// program. Kept in every trace: it orders shared memory, unlike a print.
void debug_barrier(Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  gpu::BarrierOp::create(t.b, t.loc(loc));
}

} // namespace ktc
