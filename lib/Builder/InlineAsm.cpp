//===- InlineAsm.cpp - inline_asm_elementwise -------------------------------===//
//
// Triton's tl.inline_asm_elementwise as ktc.inline_asm_elementwise
// (dialect/KtcInlineAsmOps.td): the arguments broadcast to one shape, the
// results of that shape. The assembly is per target (InlineAsmByTarget);
// the string forms give it for "any" target, as Triton does. The op's
// verifier holds the rules on pack and constraints; its message is
// reported here, at the user's line.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "lib/Support/ThreadDiagnostics.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

namespace {

constexpr const char *kName = "inline_asm_elementwise()";

/// An element type a register holds: integers of 8 to 64 bits, f16,
/// bf16, f32, f64.
bool isRegisterType(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth() >= 8;
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
}

std::vector<Value> build(const InlineAsmByTarget &asmByTarget,
                         const std::vector<Operand> &args,
                         const std::vector<DType> &dtypes, bool isPure,
                         int pack, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (dtypes.empty())
    t.fail(loc, std::string(kName) + " needs at least one result type");
  if (asmByTarget.empty())
    t.fail(loc, std::string(kName) + " needs assembly for at least one "
                                     "target");
  // The arguments, checked, then broadcast to one shape.
  SmallVector<mlir::Value> values;
  Type shapeOf = t.b.getI32Type(); // a scalar until a block comes
  for (auto [i, op] : llvm::enumerate(args)) {
    mlir::Value v = t.resolve(op, Type(), loc);
    Type element = getElementTypeOrSelf(v.getType());
    if (isa<mlir::ktc::PtrType>(element))
      t.fail(loc, std::string(kName) + " argument " + std::to_string(i) +
                      " is a pointer (" + typeStr(v.getType()) +
                      "); pass an integer instead");
    if (!isRegisterType(element))
      t.fail(loc, std::string(kName) + " argument " + std::to_string(i) +
                      " is " + typeStr(v.getType()) +
                      "; it takes integers of 8 to 64 bits and f16, bf16, "
                      "f32 or f64: convert it with .to()");
    SmallVector<int64_t> shape = t.broadcastShape(shapeOf, v.getType(), loc);
    shapeOf = shape.empty() ? Type(t.b.getI32Type())
                            : RankedTensorType::get(shape, t.b.getI32Type());
    values.push_back(v);
  }
  ArrayRef<int64_t> shape = mlir::ktc::getShapeOrScalar(shapeOf);
  for (mlir::Value &v : values)
    v = t.broadcastTo(v, shape, loc);
  SmallVector<Type> resultTypes;
  for (DType d : dtypes) {
    Type element = detail::toMlir(d, t.ctx);
    if (!isRegisterType(element))
      t.fail(loc, std::string(kName) + " cannot return " + name(d) +
                      "; it returns integers of 8 to 64 bits and f16, "
                      "bf16, f32 or f64");
    resultTypes.push_back(mlir::ktc::getSameShape(shapeOf, element));
  }

  // The entries, in the op's dictionary (sorted by key).
  SmallVector<NamedAttribute> entries;
  for (const auto &[target, code] : asmByTarget)
    entries.emplace_back(
        t.b.getStringAttr(target),
        t.b.getArrayAttr({t.b.getStringAttr(code.asm_string),
                          t.b.getStringAttr(code.constraints)}));
  auto op = mlir::ktc::InlineAsmElementwiseOp::create(
      t.b, t.loc(loc), resultTypes, values,
      t.b.getDictionaryAttr(entries), t.b.getI32IntegerAttr(pack),
      isPure ? t.b.getUnitAttr() : UnitAttr());
  // The op's rules (pack, target names, constraints), at the user's line.
  std::string message;
  LogicalResult verified = success();
  {
    ::ktc::ThreadDiagnosticHandler handler(t.ctx, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
    });
    verified = op.verify();
  }
  if (failed(verified)) {
    op.erase();
    StringRef text(message);
    text.consume_front("'ktc.inline_asm_elementwise' op ");
    t.fail(loc, std::string(kName) + ": " + text.str());
  }
  std::vector<Value> results;
  for (auto [v, d] : llvm::zip(op.getResults(), dtypes))
    results.push_back(t.wrap(t.markUnsigned(v, is_unsigned(d))));
  return results;
}

InlineAsmByTarget anyTarget(const std::string &asmString,
                            const std::string &constraints) {
  return {{"any", InlineAsm{asmString, constraints}}};
}

} // namespace

Value inline_asm_elementwise(const std::string &asm_string,
                             const std::string &constraints,
                             const std::vector<Operand> &args, DType dtype,
                             bool is_pure, int pack, Loc loc) {
  return build(anyTarget(asm_string, constraints), args, {dtype}, is_pure,
               pack, loc)[0];
}

std::vector<Value>
inline_asm_elementwise(const std::string &asm_string,
                       const std::string &constraints,
                       const std::vector<Operand> &args,
                       const std::vector<DType> &dtypes, bool is_pure,
                       int pack, Loc loc) {
  return build(anyTarget(asm_string, constraints), args, dtypes, is_pure,
               pack, loc);
}

Value inline_asm_elementwise(const InlineAsmByTarget &asm_by_target,
                             const std::vector<Operand> &args, DType dtype,
                             bool is_pure, int pack, Loc loc) {
  return build(asm_by_target, args, {dtype}, is_pure, pack, loc)[0];
}

std::vector<Value>
inline_asm_elementwise(const InlineAsmByTarget &asm_by_target,
                       const std::vector<Operand> &args,
                       const std::vector<DType> &dtypes, bool is_pure,
                       int pack, Loc loc) {
  return build(asm_by_target, args, dtypes, is_pure, pack, loc);
}

} // namespace ktc
