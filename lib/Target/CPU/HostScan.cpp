//===- HostScan.cpp - ktc.scan on the host ---------------------------------===//
//
// A scan runs line by line along its axis, in the one association order
// every target uses (KtcOps.td, ktc.scan): in scan order (the axis reversed
// for `reverse`), for each level s = 1, 2, 4, ... below the line's length n
// and each aligned pair of groups of s elements, every element of the later
// group takes the earlier group's total on its left, p = combine(T_lo, p),
// and the pair's total becomes combine(T_lo, T_hi). The GPUs compute the
// same combines with the same operands (lib/Conversion/ScanOpToLLVM.cpp),
// spread over registers, lanes and waves, so floats give the same bits.
//
// Loops: one scf.for per dimension other than the axis, then per level one
// over the pairs of groups and one over the later group's elements; the
// prefixes and the group totals are tensors carried through them (each
// total kept at its group's first element), which bufferise in place.
// (n/2) log2(n) + n combines a line, against n - 1 for a sequential scan:
// the price of agreeing with the GPUs' tree.
//
//===----------------------------------------------------------------------===//

#include "HostScan.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

struct ScanLowering : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
    unsigned rank = type.getRank(), axis = op.getAxis();
    int64_t n = type.getDimSize(axis);
    bool reverse = op.getReverse();
    size_t count = adaptor.getSrcs().size();
    OpBuilder &b = rewriter;
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    // Carried: the prefixes, then the group totals (both start as x).
    SmallVector<Value> init(adaptor.getSrcs());
    init.append(adaptor.getSrcs().begin(), adaptor.getSrcs().end());

    // The line at `outer` (coordinates of the other dimensions).
    auto scanLine = [&](SmallVector<Value> coords,
                        ValueRange state) -> SmallVector<Value> {
      SmallVector<Value> carried(state);
      // Position k in scan order -> the element's coordinates.
      auto at = [&](Value k) {
        SmallVector<Value> c = coords;
        c[axis] = reverse ? arith::SubIOp::create(b, loc, index(n - 1), k)
                                .getResult()
                          : k;
        return c;
      };
      for (int64_t s = 1; s < n; s *= 2) {
        bool last = 2 * s == n;
        auto pairs = scf::ForOp::create(
            b, loc, index(0), index(n / (2 * s)), index(1), carried,
            [&](OpBuilder &, Location, Value g, ValueRange cs) {
              Value lo = arith::MulIOp::create(b, loc, g, index(2 * s));
              Value hi = arith::AddIOp::create(b, loc, lo, index(s));
              SmallVector<Value> tlo, thi;
              for (size_t i = 0; i < count; ++i) {
                tlo.push_back(
                    tensor::ExtractOp::create(b, loc, cs[count + i], at(lo)));
                thi.push_back(
                    tensor::ExtractOp::create(b, loc, cs[count + i], at(hi)));
              }
              auto elements = scf::ForOp::create(
                  b, loc, index(0), index(s), index(1),
                  cs.take_front(count),
                  [&](OpBuilder &, Location, Value j, ValueRange ps) {
                    SmallVector<Value> e = at(arith::AddIOp::create(b, loc, hi, j));
                    SmallVector<Value> p;
                    for (size_t i = 0; i < count; ++i)
                      p.push_back(tensor::ExtractOp::create(b, loc, ps[i], e));
                    SmallVector<Value> r = op.combine(b, tlo, p);
                    SmallVector<Value> out;
                    for (size_t i = 0; i < count; ++i)
                      out.push_back(
                          tensor::InsertOp::create(b, loc, r[i], ps[i], e));
                    scf::YieldOp::create(b, loc, out);
                  });
              SmallVector<Value> next(elements.getResults());
              if (last) {
                next.append(cs.begin() + count, cs.end());
              } else {
                SmallVector<Value> total = op.combine(b, tlo, thi);
                for (size_t i = 0; i < count; ++i)
                  next.push_back(tensor::InsertOp::create(
                      b, loc, total[i], cs[count + i], at(lo)));
              }
              scf::YieldOp::create(b, loc, next);
            });
        carried.assign(pairs.getResults().begin(), pairs.getResults().end());
      }
      return carried;
    };

    // One loop per dimension other than the axis.
    std::function<SmallVector<Value>(unsigned, SmallVector<Value>, ValueRange)>
        over = [&](unsigned dim, SmallVector<Value> coords,
                   ValueRange state) -> SmallVector<Value> {
      if (dim == rank)
        return scanLine(coords, state);
      if (dim == axis) {
        coords.push_back(Value());
        return over(dim + 1, coords, state);
      }
      auto loop = scf::ForOp::create(
          b, loc, index(0), index(type.getDimSize(dim)), index(1), state,
          [&](OpBuilder &, Location, Value i, ValueRange cs) {
            SmallVector<Value> c = coords;
            c.push_back(i);
            scf::YieldOp::create(b, loc, over(dim + 1, c, cs));
          });
      return SmallVector<Value>(loop.getResults());
    };
    SmallVector<Value> results = over(0, {}, init);
    rewriter.replaceOp(op, ArrayRef<Value>(results).take_front(count));
    return success();
  }
};

} // namespace

void mlir::ktc::populateHostScanPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<ScanLowering>(converter, patterns.getContext());
}
