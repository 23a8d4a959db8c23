//===- HostReductions.cpp - ktc.reduce_with on the host -------------------===//
//
// A reduction with a combine region becomes a linalg.reduce whose body is
// the region, cloned: the partial is args (init) and each element the
// input. A combine has no identity, so a copy of the first slice along the
// axis is the init and the rest is reduced into it, in order (acc = combine(acc,
// x) for x at 1, 2, ..., n - 1). For combines that are associative and
// commutative exactly (max, min, xor, argmax's pairs) that is the GPUs'
// result bit for bit.
//
//===----------------------------------------------------------------------===//

#include "HostShapes.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

struct ReduceWithLowering : OpConversionPattern<ReduceWithOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceWithOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    ValueRange srcs = adaptor.getSrcs();
    size_t n = srcs.size();
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(srcs.front().getType()).getShape();
    int64_t length = shape[axis];
    SmallVector<int64_t> reduced(shape);
    reduced.erase(reduced.begin() + axis);
    SmallVector<OpFoldResult> offsets(shape.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(shape.size(),
                                             rewriter.getIndexAttr(1));
    for (int64_t d : shape)
      sizes.push_back(rewriter.getIndexAttr(d));
    SmallVector<Value> inits, rests;
    for (Value src : srcs) {
      Type element = cast<RankedTensorType>(src.getType()).getElementType();
      sizes[axis] = rewriter.getIndexAttr(1);
      offsets[axis] = rewriter.getIndexAttr(0);
      // Copied into a tensor of its own: as the reduce's destination the
      // slice would be written in place, a strided memref.copy of the
      // source (a libc call the JIT does not provide).
      Value first = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get(reduced, element), src, offsets,
          sizes, strides);
      Value own = tensor::EmptyOp::create(rewriter, loc, reduced, element);
      inits.push_back(linalg::CopyOp::create(rewriter, loc, ValueRange{first},
                                             ValueRange{own})
                          .getResult(0));
      sizes[axis] = rewriter.getIndexAttr(length - 1);
      offsets[axis] = rewriter.getIndexAttr(1);
      if (length > 1)
        rests.push_back(tensor::ExtractSliceOp::create(rewriter, loc, src,
                                                       offsets, sizes, strides));
    }
    SmallVector<Value> results(inits);
    if (length > 1) {
      Block &combine = op.getCombineBlock();
      auto reduce = linalg::ReduceOp::create(
          rewriter, loc, rests, inits, ArrayRef<int64_t>{axis},
          [&](OpBuilder &b, Location loc, ValueRange args) {
            // args: the inputs' elements, then the partials.
            IRMapping map;
            for (size_t i = 0; i < n; ++i) {
              map.map(combine.getArgument(i), args[n + i]);
              map.map(combine.getArgument(n + i), args[i]);
            }
            for (Operation &inner : combine.without_terminator())
              b.clone(inner, map);
            SmallVector<Value> yielded;
            for (Value v : combine.getTerminator()->getOperands())
              yielded.push_back(map.lookup(v));
            linalg::YieldOp::create(b, loc, yielded);
          });
      results.assign(reduce.getResults().begin(), reduce.getResults().end());
    }
    if (reduced.empty())
      for (Value &r : results)
        r = tensor::ExtractOp::create(rewriter, loc, r, ValueRange{});
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::ktc::populateHostReducePatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ReduceWithLowering>(converter, patterns.getContext());
}
