//===- HostDot.cpp - ktc.dot on the host ----------------------------------===//
//
// Each element of a dot's result is acc = fma(a[m, k], b[k, n], acc) for k
// from 0 up: one rounding a step. f16 and bf16 operands are widened to f32
// first (their products are exact in f32, so the fma is the sum's only
// rounding); tf32 operands are rounded to 10 mantissa bits, ties away from
// zero (cvt.rna.tf32.f32). The GPUs' FMA path (blocks too small for the
// matrix cores, f32 in ieee precision) computes the same sums in the same
// order: the same bits.
//
// Fast without changing a bit. Each operand is first copied into an f32
// block of its own (a linalg.map), widened or rounded once per element, not
// once per use; a map is no linalg.generic, so elementwise fusion pulls
// neither it nor the operand's producer (its loads and masks) into the dot.
// The dot itself is scf loops over tiles of acc, kRows rows of kColumns
// (a vector each): a tile is read into vector registers, takes one fma per
// k, k ascending, with a[m, k] splat and the row b[k, n0 : n0 + kColumns],
// and is written back. Every element's chain of fmas is the one above;
// the vector lanes are independent elements, the rows share each row of b.
// f32 blocks only: math.fma on vectors is llvm.intr.fma (exact per lane).
//
// i8 operands are sign-extended to i32 and the tiles take acc + a * b in
// i32 (exact; wrapping modulo 2^32 past it, as the matrix cores' integer
// sums do), in the same loops.
//
//===----------------------------------------------------------------------===//

#include "HostShapes.h"

#include "dialect/DotOp.h"
#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>

using namespace mlir;
using namespace mlir::ktc;

namespace {

/// `x`, a block of the dot's operands, as a new block of `to` (f32, or i32
/// for i8 operands): widened (f16, bf16, i8), rounded (tf32) or copied
/// (f32), each element once.
Value operandAs(OpBuilder &b, Location loc, Value x, Type to, bool tf32) {
  Type f32 = b.getF32Type();
  auto type = cast<RankedTensorType>(x.getType());
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), to);
  auto map =
      linalg::MapOp::create(b, loc, ValueRange{x}, init,
                            [&](OpBuilder &b, Location loc, ValueRange args) {
                              Value v = args[0];
                              if (isa<IntegerType>(to))
                                v = arith::ExtSIOp::create(b, loc, to, v);
                              else if (v.getType() != f32)
                                v = arith::ExtFOp::create(b, loc, f32, v);
                              else if (tf32)
                                v = roundToTf32(b, loc, v);
                              linalg::YieldOp::create(b, loc, v);
                            });
  return map.getResult()[0];
}

/// Rows of the result and columns of each (a vector) computed at once: their
/// accumulators stay in registers over the whole k loop.
constexpr int64_t kRows = 4, kColumns = 16;

/// acc + x @ y on f32 (or i32) blocks (M x K, K x N, M x N), tile by tile
/// of acc:
/// `rows` vectors of `width` elements (the largest divisors of M and N up
/// to kRows and kColumns) are read, take fma(x[m, k] splat, y[k, n0 :
/// n0 + width], .) for k from 0 up, and are written back.
Value vectorDot(OpBuilder &b, Location loc, Value x, Value y, Value acc) {
  auto type = cast<RankedTensorType>(acc.getType());
  const int64_t M = type.getDimSize(0), N = type.getDimSize(1),
                K = cast<RankedTensorType>(x.getType()).getDimSize(1);
  const int64_t rows = std::gcd(M, kRows), width = std::gcd(N, kColumns);
  Type element = type.getElementType();
  bool integer = isa<IntegerType>(element);
  auto vector = VectorType::get({width}, element);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value zero = index(0), one = index(1);
  Value pad = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  auto read = [&](Value from, Value i, Value j) -> Value {
    return vector::TransferReadOp::create(
        b, loc, vector, from, ValueRange{i, j}, pad, ArrayRef<bool>{true});
  };
  auto overRows = scf::ForOp::create(
      b, loc, zero, index(M), index(rows), ValueRange{acc},
      [&](OpBuilder &, Location, Value m0, ValueRange c) {
        auto overColumns = scf::ForOp::create(
            b, loc, zero, index(N), index(width), c,
            [&](OpBuilder &, Location, Value n0, ValueRange c) {
              SmallVector<Value> ms, tile;
              for (int64_t r = 0; r < rows; ++r) {
                ms.push_back(arith::AddIOp::create(b, loc, m0, index(r)));
                tile.push_back(read(c[0], ms.back(), n0));
              }
              auto overK = scf::ForOp::create(
                  b, loc, zero, index(K), one, tile,
                  [&](OpBuilder &, Location, Value k, ValueRange tile) {
                    Value row = read(y, k, n0);
                    SmallVector<Value> next;
                    for (int64_t r = 0; r < rows; ++r) {
                      Value s = tensor::ExtractOp::create(b, loc, x,
                                                          ValueRange{ms[r], k});
                      Value splat =
                          vector::BroadcastOp::create(b, loc, vector, s);
                      next.push_back(
                          integer
                              ? Value(arith::AddIOp::create(
                                    b, loc,
                                    arith::MulIOp::create(b, loc, splat, row),
                                    tile[r]))
                              : Value(math::FmaOp::create(b, loc, splat, row,
                                                          tile[r])));
                    }
                    scf::YieldOp::create(b, loc, next);
                  });
              Value out = c[0];
              for (int64_t r = 0; r < rows; ++r)
                out = vector::TransferWriteOp::create(
                          b, loc, overK.getResult(r), out,
                          ValueRange{ms[r], n0}, ArrayRef<bool>{true})
                          .getResult();
              scf::YieldOp::create(b, loc, out);
            });
        scf::YieldOp::create(b, loc, overColumns.getResults());
      });
  return overRows.getResult(0);
}

struct DotLowering : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool tf32 = op.getInputPrecision() == InputPrecision::TF32;
    Type to = op.getType().getElementType(); // f32, or i32 for i8
    Value a = operandAs(rewriter, loc, adaptor.getA(), to, tf32);
    Value b = operandAs(rewriter, loc, adaptor.getB(), to, tf32);
    rewriter.replaceOp(op, vectorDot(rewriter, loc, a, b, adaptor.getAcc()));
    return success();
  }
};

} // namespace

void mlir::ktc::populateHostDotPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, patterns.getContext());
}
