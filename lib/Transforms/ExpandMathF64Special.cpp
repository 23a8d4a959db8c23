//===- ExpandMathF64Special.cpp - f64 tanh and erf on every target --------===//
//
// ktc-expand-math for f64 tanh and erf (issue 19), written in exactly
// rounded f64 operations as the rest of the f64 functions
// (ExpandMathF64.cpp), so the host, NVPTX and AMDGPU compute the same bits.
// The polynomials are Chebyshev fits (mpmath's chebyfit at 50 digits, fit
// error below 2^-60 of the result, coefficients then rounded to f64); the
// measured errors against long double (test/unit/MathF64FunctionsTest.cpp)
// are in docs/numerics.md.
//
// tanh: |x| < 1: x + x^3 T(x^2) (T of degree 17); |x| in [1, 22]: 1 - 2 /
// (e^(2|x|) + 1) with the f64 exp (2 / (e + 1) < 0.24, so its error counts
// a quarter); beyond 22 tanh rounds to 1. The sign is copied back (tanh(-0)
// = -0).
// erf: |x| < 1: x + x E(x^2) (E of degree 13); |x| in [1, 6]: 1 - erfc with
// erfc(a) = e^(-a^2) G(a), a^2 carried as hi + lo (fma), G = erfc(a)
// e^(a^2) a degree-19 polynomial in a - mid on each of [1, 2), [2, 3.5)
// and [3.5, 6] (the coefficients picked by selects, one Horner chain);
// erf rounds to 1 beyond 5.93. The sign is copied back.
//
//===----------------------------------------------------------------------===//

#include "ExpandMath.h"

using namespace mlir;
using namespace mlir::ktc::expand;

namespace {

using P = arith::CmpFPredicate;

Value expandTanhF64(F64 &k, Value x) {
  static const double t[] = {
      -0.3333333333333333,    0.1333333333333333,      -0.05396825396825158,
      0.021869488536052476,   -0.008863235527571057,   0.0035921280042869007,
      -0.00145583408999978,   0.0005900255231396286,   -0.00023912009883168288,
      9.688372680438706e-05,  -3.9193877118445524e-05, 1.5745783827775153e-05,
      -6.177207412382354e-06, 2.2772059389286955e-06,  -7.373088744938371e-07,
      1.8958869796312845e-07, -3.323296150374837e-08,  2.8980377692517546e-09};
  Value ax = k.abs(x);
  Value a2 = k.mul(ax, ax);
  Value small = k.fma(k.mul(a2, ax), k.horner(a2, t), ax);
  Value e = expF64(k, k.mul(k.c(2.0), clamp(k, ax, 0.0, 22.0)));
  Value big = k.sub(k.c(1.0), k.div(k.c(2.0), k.add(e, k.c(1.0))));
  Value v = k.select(k.cmp(P::OLT, ax, k.c(1.0)), small, big);
  return keepNaN(k, x, k.copySign(v, x));
}

// G(a) = erfc(a) e^(a^2) = sum c_i (a - mid)^i on [1, 2), [2, 3.5), [3.5, 6].
constexpr int kErfcTerms = 20;
const double kErfcMid[3] = {1.5, 2.75, 4.75};
const double kErfc[3][kErfcTerms] = {
    {0.3215854164543175,      -0.16362291773256007,   0.0761510398554774,
     -0.03293090529956264,    0.013377340953066709,   -0.005145957547985023,
     0.0018861348770302729,   -0.000661930066411685,  0.0002233099443389221,
     -7.265892219254739e-05,  2.2864312423194544e-05, -6.9749916653834805e-06,
     2.066968881634488e-06,   -5.960819078215798e-07, 1.6756034844048246e-07,
     -4.5970329037492514e-08, 1.2288470192463931e-08, -3.2242266939179187e-09,
     8.979502147040172e-10,   -2.2549271605029615e-10},
    {0.1936620962790687,     -0.06323763756063484,   0.019758592987322864,
     -0.005934337896997976,  0.0017195818852891926,  -0.0004821950849810505,
     0.0001311818005309317,  -3.469860957791415e-05, 8.940156042164191e-06,
     -2.247373431338624e-06, 5.51975859423307e-07,   -1.3262544811606156e-07,
     3.120915823995016e-08,  -7.199944438245702e-09, 1.6302885466903558e-09,
     -3.624386671648688e-10, 7.861255559494564e-11,  -1.690102521144733e-11,
     4.060469459829758e-12,  -8.426711677587091e-13},
    {0.11630270721024731,    -0.02350344859816315,    0.004661326368972343,
     -0.0009080988970296908, 0.0001739283040406064,   -3.277578113462419e-05,
     6.08111455078227e-06,   -1.1115677201483395e-06, 2.002919683441791e-07,
     -3.559574699373066e-08, 6.242438035376163e-09,   -1.0807615553487736e-09,
     1.8479759770409932e-10, -3.12214957291069e-11,   5.21891018757171e-12,
     -8.616561594719681e-13, 1.3788567789968384e-13,  -2.2296939163216056e-14,
     4.418116067216368e-15,  -6.967058483586665e-16}};

Value expandErfF64(F64 &k, Value x) {
  // erf(a) = a + a E(a^2) on [0, 1) (E's constant term is 2/sqrt(pi) - 1).
  static const double e[] = {
      0.1283791670955126,      -0.37612638903183754,    0.1128379167095512,
      -0.02686617064512984,    0.0052239776254232985,   -0.000854832702193483,
      0.00012055332902888736,  -1.4925647567519332e-05, 1.6462045441468418e-06,
      -1.6364642158167616e-07, 1.4792401209404813e-08,  -1.216456005728345e-09,
      8.709045129053106e-11,   -4.230945824295338e-12};
  Value ax = k.abs(x);
  Value small = k.fma(ax, k.horner(k.mul(ax, ax), e), ax);
  Value a = clamp(k, ax, 1.0, 6.0);
  Value first = k.cmp(P::OLT, a, k.c(2.0));
  Value second = k.cmp(P::OLT, a, k.c(3.5));
  auto pick = [&](const double(&v)[3]) {
    return k.select(first, k.c(v[0]), k.select(second, k.c(v[1]), k.c(v[2])));
  };
  Value t = k.sub(a, pick(kErfcMid));
  Value g = pick({kErfc[0][kErfcTerms - 1], kErfc[1][kErfcTerms - 1],
                  kErfc[2][kErfcTerms - 1]});
  for (int i = kErfcTerms - 2; i >= 0; --i)
    g = k.fma(g, t, pick({kErfc[0][i], kErfc[1][i], kErfc[2][i]}));
  // e^(-(hi + lo)) = e^(-hi) (1 - lo).
  Value hi = k.mul(a, a);
  Value lo = k.fma(a, a, k.neg(hi));
  Value ex = expF64(k, k.neg(hi));
  ex = k.fma(k.neg(lo), ex, ex);
  Value big = k.sub(k.c(1.0), k.mul(ex, g));
  Value v = k.select(k.cmp(P::OLT, ax, k.c(1.0)), small, big);
  return keepNaN(k, x, k.copySign(v, x));
}

} // namespace

void mlir::ktc::expand::populateExpandMathF64Special(
    RewritePatternSet &patterns) {
  patterns.add<ExpandF64Pattern<math::TanhOp, expandTanhF64>,
               ExpandF64Pattern<math::ErfOp, expandErfF64>>(
      patterns.getContext());
}
