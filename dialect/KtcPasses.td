//===- KtcPasses.td - ktc passes -----------------------------*- tablegen -*-===//

#ifndef KTC_PASSES_TD
#define KTC_PASSES_TD

include "mlir/Pass/PassBase.td"

def KtcCombine : Pass<"ktc-combine"> {
  let summary = "fold pointer arithmetic and masked selects (Triton's combine)";
  let description = [{
    Rewrites that are not canonicalisations, because they change where
    integer arithmetic happens, but that every ktc kernel wants before
    layout assignment:

    - `addptr(addptr(p, a), b)` -> `addptr(p, a + b)` when `a` and `b` have
      the same type, so that one offset feeds each memory access;
    - `select(m, load(p, mask m), o)` -> `load(p, mask m, other o)`;
    - `addptr(splat(p), splat(i))` -> `splat(addptr(p, i))`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // KTC_PASSES_TD
