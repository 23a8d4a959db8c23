//===- ExpandMathF64Trig.cpp - f64 sin and cos on every target ------------===//
//
// ktc-expand-math for f64 sin and cos (issue 19): no GPU target has an f64
// sine, so they are written, as the f32 ones (ExpandMathFunctions.cpp), in
// exactly rounded f64 operations (add, mul, fma, roundeven, floor, bit
// moves): the host, NVPTX and AMDGPU compute the same bits. Errors measured
// against long double (test/unit/MathF64FunctionsTest.cpp) are in
// docs/numerics.md.
//
// Reduction (Cody and Waite, carried as a double-double): j = roundeven(x
// 2/pi), pi/2 = P1 + P2 + P3 (P1 the double nearest, to 2^-160 in all);
// x - j P1 is exact (one fma: j P1 is a multiple of 2^-52, x of 2^-53 once
// j != 0, the difference below 1), j P2 is split exactly with an fma and
// subtracted by two-sum, j P3 goes into the low part. That keeps r = rh +
// rl to about 2^-100 absolute while j < 2^50; the closest doubles come to
// a multiple of pi/2 is about 2^-61, so r keeps its full relative
// precision. The measured bound holds for |x| < 2^50 (about 1.1e15);
// beyond, where Payne and Hanek's reduction would be needed, the result is
// some value in [-1, 1] (the quadrant from j mod 4, r clamped).
//
// Kernels on |r| <= pi/4 (fdlibm's k_sin.c/k_cos.c structure, the low part
// of r entering to first order): sin(r) = r + r^3 S(r^2), cos(r) = 1 -
// r^2/2 + r^4 C(r^2), S and C Chebyshev fits (degree 6 in r^2, mpmath's
// chebyfit at 50 digits on [0, (pi/4 + 0.001)^2], fit error below 2^-60 of
// the result, coefficients then rounded to f64).
//
//===----------------------------------------------------------------------===//

#include "ExpandMath.h"

#include <limits>

using namespace mlir;
using namespace mlir::ktc::expand;

namespace {

using P = arith::CmpFPredicate;

/// sin(rh + rl) for |rh| <= pi/4, |rl| <= ulp(rh).
Value sinKernel(F64 &k, Value r, Value rl) {
  static const double s[] = {-0.16666666666666666,    0.008333333333333331,
                             -0.00019841269841265003, 2.7557319219291695e-06,
                             -2.5052106215978872e-08, 1.6058529011960858e-10,
                             -7.586543634101903e-13};
  Value z = k.mul(r, r);
  Value v = k.mul(z, r);
  Value p = k.horner(z, llvm::ArrayRef(s).drop_front());
  // r - ((z (rl/2 - v p) - rl) - v s0)
  Value inner = k.fma(z, k.fma(k.neg(v), p, k.mul(k.c(0.5), rl)), k.neg(rl));
  return k.sub(r, k.fma(k.neg(v), k.c(s[0]), inner));
}

/// cos(rh + rl) for |rh| <= pi/4, |rl| <= ulp(rh).
Value cosKernel(F64 &k, Value r, Value rl) {
  static const double c[] = {0.041666666666666664,  -0.0013888888888888887,
                             2.480158730158461e-05, -2.7557319221376434e-07,
                             2.08767557819242e-09,  -1.1470459438155826e-11,
                             4.7457865678652127e-14};
  Value z = k.mul(r, r);
  Value hz = k.mul(k.c(0.5), z);
  Value w = k.sub(k.c(1.0), hz);
  // w + (((1 - w) - hz) + (z^2 C(z) - r rl))
  Value tail = k.fma(k.mul(z, z), k.horner(z, c), k.neg(k.mul(r, rl)));
  return k.add(w, k.add(k.sub(k.sub(k.c(1.0), w), hz), tail));
}

/// sin(x) (cosine = false) or cos(x).
Value sinCosF64(F64 &k, Value x, bool cosine) {
  const double p1 = 0x1.921fb54442d18p+0, p2 = 0x1.1a62633145c07p-54,
               p3 = -0x1.f1976b7ed8fbcp-110, twoOverPi = 0x1.45f306dc9c883p-1;
  const double inf = std::numeric_limits<double>::infinity();
  Value finite = k.cmp(P::OLT, k.abs(x), k.c(inf));
  Value j = k.roundEven(k.mul(x, k.c(twoOverPi)));
  j = k.select(finite, j, k.c(0.0));
  Value nj = k.neg(j);
  Value r1 = k.fma(nj, k.c(p1), x); // exact
  Value th = k.mul(j, k.c(p2));
  Value tl = k.fma(j, k.c(p2), k.neg(th)); // j p2 = th + tl
  // rh + err = r1 - th (two-sum)
  Value rh = k.sub(r1, th);
  Value bb = k.sub(rh, r1);
  Value err = k.add(k.sub(r1, k.sub(rh, bb)), k.sub(k.neg(th), bb));
  Value rl = k.fma(nj, k.c(p3), k.sub(err, tl));
  Value r = k.add(rh, rl);
  rl = k.sub(rl, k.sub(r, rh));
  // Beyond the range r may be anything: a value in [-1, 1] comes out.
  Value inRange = k.cmp(P::OLE, k.abs(r), k.c(1.0));
  rl = k.select(inRange, rl, k.c(0.0));
  r = clamp(k, r, -1.0, 1.0);
  // The quadrant j mod 4, exactly, for any finite j.
  Value q = k.sub(j, k.mul(k.c(4.0), k.floor(k.mul(j, k.c(0.25)))));
  Value qi = k.toInt(q);
  if (cosine)
    qi = k.iadd(qi, k.ci(1));
  auto nonZero = [&](Value v) {
    return arith::CmpIOp::create(k.b, k.loc, arith::CmpIPredicate::ne, v,
                                 k.ci(0));
  };
  Value v = k.select(nonZero(k.band(qi, 1)), cosKernel(k, r, rl),
                     sinKernel(k, r, rl));
  v = k.select(nonZero(k.band(qi, 2)), k.neg(v), v);
  if (!cosine) // sin(+-0) = +-0
    v = k.select(k.cmp(P::OEQ, x, k.c(0.0)), x, v);
  // NaN for NaN and +-inf.
  return keepNaN(k, x, k.select(finite, v, k.sub(x, x)));
}

Value expandSinF64(F64 &k, Value x) { return sinCosF64(k, x, false); }
Value expandCosF64(F64 &k, Value x) { return sinCosF64(k, x, true); }

} // namespace

void mlir::ktc::expand::populateExpandMathF64Trig(RewritePatternSet &patterns) {
  patterns.add<ExpandF64Pattern<math::SinOp, expandSinF64>,
               ExpandF64Pattern<math::CosOp, expandCosF64>>(
      patterns.getContext());
}
