//===- HostInlineAsm.cpp - ktc.inline_asm_elementwise on the host --------===//
//
// Part of convert-ktc-to-host. The host's assembly is the op's "host"
// entry (x86-64, AT&T syntax), else its "any" one; with neither the kernel
// cannot be compiled for the host, an error at the op's (the user's) line.
// A block is one loop over its elements in row-major order, `pack` at a
// time (scf.for, not linalg: an assembly with effects must neither be
// fused, duplicated nor dropped), each group one llvm.inline_asm with its
// elements packed into registers by the GPUs' own core
// (lib/Conversion/InlineAsmEmit.h); a lone f16 or bf16 goes as its bits
// (i16), as the host keeps no 16-bit float in a register
// (ExpandHalfFloats.cpp). Results go to buffers of their own, read back as
// tensors after the loop, as the host's atomics do.
//
//===----------------------------------------------------------------------===//

#include "HostShapes.h"

#include "lib/Conversion/InlineAsmEmit.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// The reassociation merging all `rank` dimensions into one.
SmallVector<ReassociationIndices> allInOne(int64_t rank) {
  ReassociationIndices all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(d);
  return {all};
}

struct HostInlineAsmLowering : OpConversionPattern<InlineAsmElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(InlineAsmElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ArrayAttr entry = op.entryFor("host");
    if (!entry) {
      SmallVector<StringRef> have;
      for (NamedAttribute e : op.getAsmByTarget())
        have.push_back(e.getName().getValue());
      return op.emitError("inline_asm_elementwise has no assembly for the "
                          "host; it has ")
             << llvm::join(have, ", ")
             << ": add a \"host\" (x86-64) or \"any\" entry";
    }
    int64_t pack = op.getPack();
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!type) { // scalars: one run (pack is 1)
      SmallVector<SmallVector<Value>> group;
      for (Value v : adaptor.getArgs())
        group.push_back({v});
      SmallVector<Value> results;
      for (auto &r : emitInlineAsmGroup(rewriter, loc, op, entry, group,
                                             /*halfAsBits=*/true))
        results.push_back(r.front());
      rewriter.replaceOp(op, results);
      return success();
    }
    int64_t rank = type.getRank(), n = type.getNumElements();
    SmallVector<Value> flat;
    for (Value v : adaptor.getArgs())
      flat.push_back(rank > 1 ? tensor::CollapseShapeOp::create(
                                    rewriter, loc, v, allInOne(rank))
                                    .getResult()
                              : v);
    SmallVector<Value> buffers;
    for (Type t : op.getResultTypes())
      buffers.push_back(memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get({n}, cast<RankedTensorType>(t).getElementType())));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value end = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, pack);
    scf::ForOp::create(
        rewriter, loc, zero, end, step, ValueRange{},
        [&](OpBuilder &b, Location loc, Value first, ValueRange) {
          SmallVector<Value> indices;
          for (int64_t k = 0; k < pack; ++k)
            indices.push_back(
                k == 0 ? first
                       : arith::AddIOp::create(
                             b, loc, first,
                             arith::ConstantIndexOp::create(b, loc, k))
                             .getResult());
          SmallVector<SmallVector<Value>> group;
          for (Value v : flat) {
            SmallVector<Value> &elements = group.emplace_back();
            for (Value i : indices)
              elements.push_back(tensor::ExtractOp::create(b, loc, v, i));
          }
          for (auto [buffer, elements] :
               llvm::zip(buffers, emitInlineAsmGroup(b, loc, op, entry, group,
                                                     /*halfAsBits=*/true)))
            for (auto [e, i] : llvm::zip(elements, indices))
              memref::StoreOp::create(b, loc, e, buffer, i);
          scf::YieldOp::create(b, loc);
        });
    SmallVector<Value> results;
    for (auto [buffer, t] : llvm::zip(buffers, op.getResultTypes())) {
      auto flatType =
          RankedTensorType::get({n}, cast<RankedTensorType>(t).getElementType());
      Value r = bufferization::ToTensorOp::create(rewriter, loc, flatType,
                                                  buffer, /*restrict=*/true,
                                                  /*writable=*/true);
      if (rank > 1)
        r = tensor::ExpandShapeOp::create(
            rewriter, loc,
            RankedTensorType::get(type.getShape(),
                                  cast<RankedTensorType>(t).getElementType()),
            r, allInOne(rank));
      results.push_back(r);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::ktc::populateHostInlineAsmPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<HostInlineAsmLowering>(converter, patterns.getContext());
}
