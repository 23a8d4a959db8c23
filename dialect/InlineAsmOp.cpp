//===- InlineAsmOp.cpp - the verifier of ktc.inline_asm_elementwise --------===//
//
// The op's rules (KtcInlineAsmOps.td): operands and results of one shape
// and of types a register holds, `pack` a power of two dividing the
// number of elements, one [assembly, constraints] entry per target key,
// and constraints that LLVM parses and that name as many outputs and
// inputs as the groups' registers. The builder (lib/Builder/InlineAsm.cpp)
// makes the same checks at the user's line; these catch hand-written IR.
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/IR/InlineAsm.h"

using namespace mlir;
using namespace mlir::ktc;

ArrayRef<StringLiteral> InlineAsmElementwiseOp::targetKeys() {
  static constexpr StringLiteral keys[] = {"any", "host", "nvptx", "amdgpu"};
  return keys;
}

ArrayAttr InlineAsmElementwiseOp::entryFor(StringRef target) {
  if (auto own = getAsmByTarget().getAs<ArrayAttr>(target))
    return own;
  return getAsmByTarget().getAs<ArrayAttr>(kAnyTarget);
}

int64_t InlineAsmElementwiseOp::elementsPerRegister(Type element,
                                                    int64_t pack) {
  unsigned width = element.getIntOrFloatBitWidth();
  return width < 32 ? std::min<int64_t>(32 / width, pack) : 1;
}

void InlineAsmElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  // Anything: the assembly is kept, and stays ordered with the kernel's
  // memory accesses.
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

/// An integer of 8 to 64 bits or f16, bf16, f32, f64: what a register of
/// every target holds.
static bool isRegisterType(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth());
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
}

LogicalResult InlineAsmElementwiseOp::verify() {
  if (getResults().empty())
    return emitOpError("needs at least one result");
  // One shape for every operand and result.
  Type first = getResults().front().getType();
  ArrayRef<int64_t> shape = getShapeOrScalar(first);
  for (Value v : llvm::concat<Value>(getArgs(), getResults())) {
    if (getShapeOrScalar(v.getType()) != shape ||
        isa<RankedTensorType>(v.getType()) != isa<RankedTensorType>(first))
      return emitOpError("operands and results must have one shape, got ")
             << v.getType() << " and " << first;
    Type element = getElementTypeOrSelf(v.getType());
    if (!isRegisterType(element))
      return emitOpError("takes integers of 8 to 64 bits and f16, bf16, "
                         "f32 or f64, got ")
             << v.getType();
  }
  int64_t elements = 1;
  for (int64_t d : shape)
    elements *= d;
  int64_t pack = getPack();
  if (pack < 1 || !llvm::isPowerOf2_64(pack))
    return emitOpError("pack must be a power of two, got ") << pack;
  if (elements % pack != 0)
    return emitOpError("pack ") << pack << " does not divide the "
                                << elements << " elements of " << first;

  // The registers the constraints must name.
  auto registers = [&](TypeRange types) {
    int64_t n = 0;
    for (Type t : types)
      n += pack / elementsPerRegister(getElementTypeOrSelf(t), pack);
    return n;
  };
  int64_t outputs = registers(getResults().getTypes());
  int64_t inputs = registers(getArgs().getTypes());

  if (getAsmByTarget().empty())
    return emitOpError("needs assembly for at least one target");
  for (NamedAttribute entry : getAsmByTarget()) {
    StringRef key = entry.getName().getValue();
    if (!llvm::is_contained(targetKeys(), key))
      return emitOpError("has assembly for '")
             << key << "'; the targets are any, host, nvptx and amdgpu";
    auto pair = dyn_cast<ArrayAttr>(entry.getValue());
    if (!pair || pair.size() != 2 || !isa<StringAttr>(pair[0]) ||
        !isa<StringAttr>(pair[1]))
      return emitOpError("entry '")
             << key << "' must be [assembly, constraints] (two strings)";
    StringRef constraints = cast<StringAttr>(pair[1]).getValue();
    llvm::InlineAsm::ConstraintInfoVector parsed =
        llvm::InlineAsm::ParseConstraints(constraints);
    if (parsed.empty() && !constraints.empty())
      return emitOpError("constraints '")
             << constraints << "' for " << key
             << " are not valid LLVM inline-assembly constraints";
    int64_t outs = 0, ins = 0;
    for (const llvm::InlineAsm::ConstraintInfo &c : parsed) {
      if (c.isIndirect || c.Type == llvm::InlineAsm::isLabel)
        return emitOpError("constraints '")
               << constraints << "' for " << key
               << ": memory operands and labels are not supported";
      outs += c.Type == llvm::InlineAsm::isOutput;
      ins += c.Type == llvm::InlineAsm::isInput;
    }
    if (outs != outputs || ins != inputs)
      return emitOpError("constraints '")
             << constraints << "' for " << key << " name " << outs
             << " outputs and " << ins << " inputs; with pack " << pack
             << " the assembly has " << outputs << " output and " << inputs
             << " input registers";
  }
  return success();
}
