//===- InlineAsmEmit.h - one group of ktc.inline_asm_elementwise -*- C++ -*-===//
//
// The scalar core shared by the GPU lowering (InlineAsmToLLVM.cpp) and the
// host's (lib/Target/CPU/HostInlineAsm.cpp): the elements of one group
// packed into the assembly's registers, one llvm.inline_asm, and its
// registers unpacked into elements. Header-only so that the host target
// needs no GPU library.
//
// Packing (KtcInlineAsmOps.td): elements narrower than 32 bits share a
// register, min(32 / width, pack) of them, element k in bits
// [k * width, (k + 1) * width) of an integer register of their total
// width (four i8 in an i32, two in an i16; floats by their bits); wider
// elements take a register of their own type. Registers are integers,
// not vectors, so that every backend's "r"/"v" constraint takes them.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_INLINEASMEMIT_H
#define KTC_LIB_CONVERSION_INLINEASMEMIT_H

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::ktc {

/// The register type holding `n` elements of `element`: the element's
/// own type for n = 1 (but the bits, i16, of a lone f16/bf16 where
/// `halfAsBits`: the host keeps no 16-bit float in a register), else an
/// integer of their total width.
inline Type asmRegisterType(Type element, int64_t n, bool halfAsBits) {
  if (n == 1 && !(halfAsBits && (element.isF16() || element.isBF16())))
    return element;
  return IntegerType::get(element.getContext(),
                          n * element.getIntOrFloatBitWidth());
}

/// `elements` (of one type) packed into a register of type `reg`.
inline Value packAsmRegister(OpBuilder &b, Location loc,
                             ArrayRef<Value> elements, Type reg) {
  Type element = elements.front().getType();
  if (reg == element)
    return elements.front();
  unsigned width = element.getIntOrFloatBitWidth();
  Type bits = b.getIntegerType(width);
  Value packed;
  for (auto [k, e] : llvm::enumerate(elements)) {
    Value v = e.getType() == bits ? e : arith::BitcastOp::create(b, loc, bits, e);
    if (reg != bits)
      v = arith::ExtUIOp::create(b, loc, reg, v);
    if (k != 0)
      v = arith::ShLIOp::create(
          b, loc, v,
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(reg, k * width)));
    packed = packed ? arith::OrIOp::create(b, loc, packed, v).getResult() : v;
  }
  return packed;
}

/// The `n` elements of `element` a register holds.
inline SmallVector<Value> unpackAsmRegister(OpBuilder &b, Location loc,
                                            Value reg, Type element,
                                            int64_t n) {
  if (reg.getType() == element)
    return {reg};
  unsigned width = element.getIntOrFloatBitWidth();
  Type bits = b.getIntegerType(width);
  SmallVector<Value> elements;
  for (int64_t k = 0; k < n; ++k) {
    Value v = reg;
    if (k != 0)
      v = arith::ShRUIOp::create(
          b, loc, v,
          arith::ConstantOp::create(
              b, loc, b.getIntegerAttr(reg.getType(), k * width)));
    if (v.getType() != bits)
      v = arith::TruncIOp::create(b, loc, bits, v);
    if (element != bits)
      v = arith::BitcastOp::create(b, loc, element, v);
    elements.push_back(v);
  }
  return elements;
}

/// One run of `op`'s assembly `entry` ([assembly, constraints]) on one
/// group: group[a][k] is element k (k < pack) of argument a, a scalar of
/// its element type. Returns results[r][k] likewise. `halfAsBits`: see
/// asmRegisterType.
inline SmallVector<SmallVector<Value>>
emitInlineAsmGroup(OpBuilder &b, Location loc, InlineAsmElementwiseOp op,
                   ArrayAttr entry, ArrayRef<SmallVector<Value>> group,
                   bool halfAsBits = false) {
  int64_t pack = op.getPack();
  SmallVector<Value> registers;
  for (ArrayRef<Value> elements : group) {
    Type element = elements.front().getType();
    int64_t n = InlineAsmElementwiseOp::elementsPerRegister(element, pack);
    Type reg = asmRegisterType(element, n, halfAsBits);
    for (int64_t j = 0; j < pack; j += n)
      registers.push_back(packAsmRegister(b, loc, elements.slice(j, n), reg));
  }
  SmallVector<Type> registerTypes;
  SmallVector<std::pair<Type, int64_t>> resultShapes; // element, per register
  for (Type t : op.getResultTypes()) {
    Type element = getElementTypeOrSelf(t);
    int64_t n = InlineAsmElementwiseOp::elementsPerRegister(element, pack);
    resultShapes.push_back({element, n});
    registerTypes.append(pack / n, asmRegisterType(element, n, halfAsBits));
  }
  // One register: its type; several: a struct of them (LLVM's rule).
  Type resultType =
      registerTypes.size() == 1
          ? registerTypes.front()
          : LLVM::LLVMStructType::getLiteral(b.getContext(), registerTypes);
  Value out =
      LLVM::InlineAsmOp::create(
          b, loc, TypeRange{resultType}, registers,
          cast<StringAttr>(entry[0]).getValue(),
          cast<StringAttr>(entry[1]).getValue(),
          /*has_side_effects=*/!op.getPure(), /*is_align_stack=*/false,
          LLVM::TailCallKind::None,
          LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
          ArrayAttr())
          .getResult(0);
  SmallVector<SmallVector<Value>> results;
  int64_t index = 0;
  for (auto [element, n] : resultShapes) {
    SmallVector<Value> &elements = results.emplace_back();
    for (int64_t j = 0; j < pack; j += n) {
      Value reg = registerTypes.size() == 1
                      ? out
                      : LLVM::ExtractValueOp::create(b, loc, out, index);
      ++index;
      elements.append(unpackAsmRegister(b, loc, reg, element, n));
    }
  }
  return results;
}

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_INLINEASMEMIT_H
