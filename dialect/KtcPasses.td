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

def KtcConvertToHost : Pass<"convert-ktc-to-host", "::mlir::ModuleOp"> {
  let summary = "lower ktc to tensor/linalg/scf/llvm ops for the host CPU";
  let description = [{
    The first step of the host-CPU target. Each `ktc.kernel` function gets
    six trailing i32 arguments (program id x, y, z, then the grid size x, y,
    z) that replace `ktc.program_id` and `ktc.num_programs`. Pointers become
    i64 addresses and `ktc.addptr` integer arithmetic. Block operations
    become loops in waiting: `linalg.generic`/`linalg.reduce`/`linalg.fill`
    on tensors whose scalar bodies do the work (masked accesses as `scf.if`
    around `llvm.load`/`llvm.store`); blocks are never unrolled, so a
    16384-wide block compiles as fast as a 16-wide one. Elementwise
    `arith`/`math` on tensors are left to `convert-elementwise-to-linalg`,
    and the rest of the way (bufferisation, loops, LLVM) is upstream's; see
    the `ktc-host-pipeline` pass pipeline.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect", "::mlir::scf::SCFDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

#endif // KTC_PASSES_TD
