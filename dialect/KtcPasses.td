//===- KtcPasses.td - ktc passes -----------------------------*- tablegen -*-===//
//
// Every ktc pass, grouped by the folder that implements it. One file (one
// generated header, one registration call, one generated reference,
// docs/passes-reference.md) reads better at this size than three.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_PASSES_TD
#define KTC_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// lib/Transforms: analyses, layouts and rewrites on the ktc dialect
//===----------------------------------------------------------------------===//

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

def KtcTestAxisInfo : Pass<"ktc-test-axis-info", "::mlir::func::FuncOp"> {
  let summary = "print the axis analysis of every value (for tests)";
  let description = [{
    Emits a remark on every op with a block or integer result:
    `contiguity = C, divisibility = D, constancy = K` (divisibility in bytes
    for pointers, in units otherwise).
  }];
}

def KtcTestPrintLayouts
    : Pass<"ktc-test-print-layouts", "::mlir::ModuleOp"> {
  let summary = "print the layout of every block argument as its linear map "
                "and thread table (for tests and docs)";
  let description = [{
    For each argument of each function, in order (a module pass, so that
    functions are not printed from parallel threads), whose type is a block
    with a layout,
    prints to stdout its linear map (the coordinate of each register, lane
    and warp bit) and its table: one row per warp and lane, one column per
    register, each cell the coordinate of the element held there; rows that
    repeat an earlier one (replicated threads) say which.
  }];
}

def KtcTestNarrowOffsets
    : Pass<"ktc-test-narrow-offsets", "::mlir::func::FuncOp"> {
  let summary = "report the arguments reached through i32 offsets only "
                "(for tests)";
  let description = [{
    Emits a remark on the function for every pointer argument that some
    load or store reaches through `ktc.addptr` ops with i32 offsets and none
    with i64 ones (the runtime refuses buffers of more than 2^31 - 1
    elements for them).
  }];
}

def KtcPipelineLoads : Pass<"ktc-pipeline-loads", "::mlir::ModuleOp"> {
  let summary = "issue a loop's loads num_stages - 1 iterations ahead";
  let description = [{
    Software pipelining for kernels with `ktc.num_stages` = S >= 2 (the
    launch option `num_stages`). In every `scf.for` of such a kernel, each
    `ktc.load` directly in the body whose pointer, mask and `other` depend
    only on the induction variable and on values from outside the loop (a
    slice of pure ops) is issued S - 1 iterations ahead: a prologue loads
    the first S - 1 iterations, the loop carries them, and each iteration
    starts with the load for `iv + (S-1)·step`, masked off when that
    iteration does not exist. The carried block replaces the original load.

    Loads move above the stores of earlier iterations (as in Triton's
    pipeliner): a loop that reads what an earlier iteration of it wrote
    must keep num_stages = 1.

    On NVIDIA targets (`target=sm_*`), a load whose only users are dots
    (their A or B) and whose accesses are narrower than 4 bytes (element by
    element: too narrow for cp.async, ktc-pipeline-async left it) is issued
    only `elementwise-distance` iterations ahead (default 1; 0 leaves it
    where it is, as Triton's pipeliner does): each such element holds a
    register a stage, and S - 1 stages spill (3001x517x2049 f16, 64x128x32,
    4 warps, num_stages = 4: 255 registers and 374 bytes of spills, 553
    SASS instructions a K iteration, 0.1857 ms on an H200). Left in place:
    227 registers, 0.0864 ms; one ahead: 253 registers, no spill, 0.0756 ms
    (Triton's best config 0.1082, cuBLAS 0.0753; docs/bench/h200/matmul.md,
    session 16). On AMD targets, with twice the registers, they are
    pipelined S - 1 ahead (gfx942, the same kernel: 186 registers, no
    scratch).

    ```mlir
    // num_stages = 2
    %x0 = ktc.load %p0, mask %m0, other %ninf : tensor<1024x!ktc.ptr<f32>>
    scf.for %row = %pid to %n step %np iter_args(%x = %x0) -> (tensor<1024xf32>) : i32 {
      %next = ktc.load %pn, mask %mn, other %ninf : tensor<1024x!ktc.ptr<f32>>
      ... uses of %x ...
      scf.yield %next : tensor<1024xf32>
    }
    ```
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", "0",
           "pipeline depth for every kernel; 0 reads each kernel's "
           "ktc.num_stages (absent: 1, nothing to do)">,
    Option<"arch", "target", "std::string", "\"\"",
           "the GPU target (sm_<N> or gfx<N>), empty for the host: on "
           "sm_* element-wise dot operands are pipelined at most "
           "elementwise-distance iterations ahead">,
    Option<"elementwiseDistance", "elementwise-distance", "unsigned", "1",
           "on sm_*: how many iterations ahead element-wise dot operands "
           "are loaded (at most num_stages - 1; 0 leaves them in place)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def KtcPipelineAsync : Pass<"ktc-pipeline-async", "::mlir::ModuleOp"> {
  let summary = "stage a pipelined loop's dot operands in shared memory "
                "with asynchronous copies";
  let description = [{
    For kernels with `ktc.num_stages` = S >= 2 on a target with
    asynchronous global -> shared copies (NVIDIA sm_80+: cp.async), after
    ktc-assign-layouts. In every `scf.for`, each `ktc.load` directly in the
    body whose only users are `ktc.dot` operands, whose pointer and mask
    depend only on the induction variable and on values from outside the
    loop, whose `other` is absent or zero, and whose copies can move at
    least 4 bytes at a time, gets a buffer of S slots
    (`ktc.local_alloc`, laid out for the copies' writes and the dot's
    reads). A prologue copies the first S - 1 iterations' blocks; each
    iteration waits for its own (`ktc.async_wait`, a barrier), starts the
    copy for iteration i + S - 1 into the slot iteration i - 1 read, and
    the dot reads its slot (`ktc.local_load`) fragment by fragment. A
    prefetched iteration that does not exist is masked off (zeros, no
    read). The buffers of a loop fit the target's shared memory with the
    kernel's other needs, or the loop keeps its loads (for
    ktc-pipeline-loads).

    A copy whose address is affine in the induction variable (built from
    it and invariants by add, sub, multiplication by an invariant, splat,
    expand_dims, broadcast and addptr) has its pointers carried by the
    loop: iteration S - 1's, advanced by coefficient x step each
    iteration, however the kernel spells the address (Triton's tutorial
    advances `a_ptrs`; ktc's example recomputes `a + (row + k)`), instead
    of each address recomputed and widened from the induction variable.
    With wgmma left in flight (`ktc.dot_pending`), the buffers have a slot
    more and the slot refilled is the one read two iterations back. After
    the loop, its dots' `ktc.dot_wait`s, then `ktc.async_wait {pending =
    0}`, whose barrier ends the slots' lives: the ops after it (an
    epilogue's conversion) reuse them for scratch, and scratch they need
    does not count against the slots here (BufferLifetimes in
    lib/Conversion/SharedBuffers.h).

    ```mlir
    // num_stages = 3
    %buf = ktc.local_alloc {vec = 8, max_phase = 4} : !ktc.shared<3x128x32xf16>
    ktc.async_copy %p0, %buf[%c0], mask %m0 : ... ; ktc.async_commit
    ktc.async_copy %p1, %buf[%c1], mask %m1 : ... ; ktc.async_commit
    scf.for %k = ... iter_args(..., %slot = %c0) {
      ktc.async_wait {pending = 1}
      ktc.async_copy %pn, %buf[%next], mask %mn : ... ; ktc.async_commit
      %a = ktc.local_load %buf[%slot] : ... -> tensor<128x32xf16, #l>
      %d = ktc.dot %a, %b, %acc : ...
    }
    ktc.async_wait {pending = 0}
    ```
  }];
  let options = [
    Option<"arch", "target", "std::string", "\"sm_90\"",
           "the GPU target (nothing to do where it has no async copies)">,
    Option<"numStages", "num-stages", "unsigned", "0",
           "pipeline depth for every kernel; 0 reads each kernel's "
           "ktc.num_stages (absent: 1, nothing to do)">,
    Option<"copiesAfterDots", "copies-after-dots", "bool", "false",
           "with wgmma left in flight: start the copies after the dots and "
           "a second barrier, into S slots, as Triton orders them on "
           "Hopper (default: before the dots, into S + 1 slots)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def KtcAssignLayouts : Pass<"ktc-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "give every block a layout, converting where uses disagree";
  let description = [{
    Blocks that must share a layout (operands and results of elementwise
    ops, a load's pointers, mask and result, a store's pointers, mask and
    value, a broadcast's source and result, loop-carried values) form
    classes; cheap blocks (aranges, splats, constants and elementwise trees
    of them) used in several places are first copied per use. The classes
    of the highest rank get a `#ktc.blocked` layout: runs of the widest
    access the axis analysis proves (16 bytes at most) along the dimension
    their accesses are most contiguous in, lanes along it first, waves
    along the slowest dimensions first. A class reduced from, or expanded
    into, a class of higher rank gets that class's `#ktc.slice`, so that
    reductions, `expand_dims` and broadcasts move no data. A store whose
    value is read along another dimension than the store writes (a
    transpose) gets a `ktc.convert_layout` of its value to the pointers'
    layout, and so does any other use whose layouts disagree. On NVIDIA
    (`arch` sm_*), a store of a dot's result whose pointers allow vectors
    of 4 or more along the rows converts it to a layout of such runs over
    the dot's own warp tiles (2 rows a thread, 8 x 4 lanes): 16-byte
    stores instead of 4-byte ones (4096^3 f16 128x256x64 on an H200:
    0.2321-0.2349 -> 0.2074-0.2216 ms, session 16).

    A `ktc.dot` whose shape and operand types `arch` has a matrix
    instruction for (dialect/MmaLayouts.cpp) gets a `#ktc.mma` result (and
    its accumulator's class with it); otherwise its result keeps the
    class's blocked layout (the FMA path). Its operands are converted to
    the `#ktc.dot_operand` layouts of that result.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4",
           "waves (warps) per workgroup">,
    Option<"waveSize", "wave-size", "unsigned", "32",
           "threads per wave: 32 (NVIDIA, RDNA) or 64 (CDNA)">,
    Option<"arch", "arch", "std::string", "\"\"",
           "the target (sm_90, gfx942, ...) whose matrix instructions dots "
           "use; none (FMA) when empty">
  ];
}

def KtcRemoveLayoutConversions
    : Pass<"ktc-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "remove or cheapen the layout conversions it can";
  let description = [{
    After `ktc-assign-layouts`, for every `ktc.convert_layout`:

    - conversions of conversions become one (or none), a conversion to the
      layout the block has already disappears (the canonical folds);
    - the block's producers are redone in the wanted layout where that
      costs less than the conversion (Triton's backward rematerialisation):
      splats, aranges and constants for free; elementwise ops, `addptr`,
      `broadcast` (its source in the same layout) and `expand_dims` (its
      source in the slice) by converting their own operands instead, which
      pays where those are cheaper to move: a broadcast's smaller source, a
      narrower element type (an `extf` of f16), a conversion that folds
      with an earlier one, or a block whose layout has the same linear map
      (free, dialect/Relayout.h). A conversion between two layouts with the
      same map whose producers are all cheap disappears;
    - a 1-D reduction of a conversion reduces the block itself (a scalar
      has no layout), and a reduction of rank 2 or more reduces before
      converting (the reduced block is smaller). Like any change of layout
      this changes the order partials combine in: float sums may round
      differently (docs/numerics.md), maxima and integer sums do not.

    Costs: nothing for a register permutation, the bytes moved for warp
    shuffles, four times that through shared memory, plus one per element
    of an op copied (an op with other users stays). Pass statistics
    (`--mlir-pass-statistics`) count the layout changes through shared
    memory before and after (`ktc.convert_layout`, `expand_dims`,
    `broadcast`, `trans`, `reshape` whose data leaves the warp).

    ```mlir
    // before: a splat-and-add tree converted
    %y = ktc.convert_layout %x : tensor<64xi32, #a> -> tensor<64xi32, #b>
    // after: the tree built in #b
    ```
  }];
  let options = [
    Option<"report", "report", "bool", "false",
           "emit a remark on the module counting the layout changes through "
           "shared memory and the conversions, before and after">
  ];
}

def KtcExpandMath : Pass<"ktc-expand-math", "::mlir::ModuleOp"> {
  let summary = "exp, exp2, log, log2, tanh, erf, sin, cos, pow as f32 "
                "arithmetic every target rounds alike";
  let description = [{
    Replaces `math.exp`, `math.exp2`, `math.log` and `math.log2` on f32
    (and on f16/bf16, through f32) with a few IEEE-specified operations:
    add, multiply, fma, correctly rounded division and integer bit moves.
    Every target rounds those alike, so the host CPU, NVPTX and AMDGPU give
    the same bits: within 2 ulp of the exact result (measured: exp 1.08,
    exp2 0.98, log 1.50, log2 1.03), exact for exp2 and log2 at powers of
    two, subnormal arguments and results as IEEE, NaN/inf/0 as C's
    functions. Ops carrying the `afn` fast-math flag (`ktc::fast_exp` and
    friends) are left to the target's approximate instructions. Runs before
    layouts are assigned (GPU) and before the host lowering.

    `math.tanh`, `math.erf`, `math.sin`, `math.cos` and `math.powf` are
    expanded the same way (ExpandMathFunctions.cpp): measured within 1.6
    ulp (tanh 1.57, erf 0.98, sin 1.47, cos 1.48 for |x| <= 105615, pow
    1.06), C's special cases; sin and cos reduce by Cody-Waite with a
    three-part pi/2 (docs/numerics.md says what happens beyond 105615).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

//===----------------------------------------------------------------------===//
// lib/Conversion: ktc to the LLVM dialect for GPUs
//===----------------------------------------------------------------------===//

def KtcConvertToLLVM : Pass<"convert-ktc-to-llvm", "::mlir::ModuleOp"> {
  let summary = "lower laid-out ktc kernels towards the LLVM dialect for a GPU";
  let description = [{
    Stage one of the GPU lowering. Needs every block to carry a layout
    (`ktc-assign-layouts`). Each block becomes the scalars one thread holds
    (a 1:N conversion); ktc ops become scalar arith/math/scf ops plus
    LLVM/NVVM/ROCDL ops, asking the target (`sm_*` or `gfx*`) for ids,
    shuffles, barriers and exp2. Loads and stores are vectorised as far as
    the axis analysis allows; reductions go thread, wave, then workgroup
    through shared memory. Upstream conversions finish the way
    (`ktc-gpu-pipeline`). Blocks of rank 1 and 2 are supported; 2-D blocks
    move between layouts (and are reduced across waves) through shared
    memory, within the target's per-workgroup limit.
  }];
  let options = [
    Option<"arch", "target", "std::string", "\"sm_90\"",
           "the GPU: sm_80, sm_90, ... or gfx90a, gfx942, gfx1100, ...">,
    Option<"numWarps", "num-warps", "unsigned", "4",
           "waves (warps) per workgroup">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::ROCDL::ROCDLDialect"
  ];
}

def KtcCanonicalizeLowered
    : Pass<"ktc-canonicalize-lowered", "::mlir::ModuleOp"> {
  let summary = "the canonicalizer, loops' carried values simplified last";
  let description = [{
    MLIR's canonicalization patterns and folds, for the scalars
    `convert-ktc-to-llvm` leaves, in rounds: first every pattern but those
    of the loops (`scf.for`, `scf.while`) until nothing changes, then the
    loops' patterns (unused, duplicate or forwarded carried values), then
    the others again should the loops have changed. The result is the
    canonicalizer's; the time is not: the greedy driver revisits a loop
    after every change in its body, and the loops' region-branch patterns
    look at every pair of carried values (a K loop of a BLOCK_K = 128
    matmul carries over a thousand scalars and holds some 20k ops).
  }];
  let options = [
    Option<"maxRounds", "max-rounds", "unsigned", "4",
           "rounds of (others, loops) at most">
  ];
}

def KtcMarkKernels : Pass<"ktc-mark-kernels", "::mlir::ModuleOp"> {
  let summary = "give lowered kernels their target's kernel attributes";
  let description = [{
    The last step of the GPU lowering: every `llvm.func` carrying
    `ktc_kernel_threads = N` (left by `convert-ktc-to-llvm`) becomes a kernel
    of the target (`nvvm.kernel` and `nvvm.reqntid`, or `rocdl.kernel` and
    the flat work-group size N,N).
  }];
  let options = [
    Option<"arch", "target", "std::string", "\"sm_90\"",
           "the GPU: sm_* or gfx*">
  ];
}

//===----------------------------------------------------------------------===//
// lib/Target/CPU: ktc to the LLVM dialect for the host
//===----------------------------------------------------------------------===//

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
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::LLVM::LLVMDialect",
    // atomics' old values (HostAtomics.cpp)
    "::mlir::memref::MemRefDialect",
    "::mlir::bufferization::BufferizationDialect"
  ];
}

def KtcHostExpandHalfFloats
    : Pass<"ktc-host-expand-half-floats", "::mlir::ModuleOp"> {
  let summary = "f16/bf16 on the host: math in f32, conversions as integer code";
  let description = [{
    Makes f16 and bf16 give the same bits on every host CPU, whatever its
    features and C runtime. `arith`/`math` ops on 16-bit floats compute in
    f32 (operands extended exactly, each result rounded once), and every
    f32 <-> f16/bf16 `arith.truncf`/`arith.extf` becomes integer code:
    round to nearest even, subnormals kept, NaN stays NaN (quiet, sign and
    top payload bits kept), overflow to infinity. Without it LLVM calls
    `__truncsfbf2` (absent from GCC 12's libgcc) on hosts without
    AVX512-BF16 and uses `vcvtneps2bf16` (which flushes subnormals) on
    hosts with it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def KtcHostHalfFloatsAsI16
    : Pass<"ktc-host-half-floats-as-i16", "::mlir::ModuleOp"> {
  let summary = "retype the LLVM dialect's f16/bf16 values as i16 (host)";
  let description = [{
    Runs once the host pipeline is in the LLVM dialect, after
    `ktc-host-expand-half-floats` has left 16-bit floats only moved, never
    computed on. Every f16/bf16 value, block argument (phi), constant,
    element type and global becomes i16, so that no LLVM backend can move
    one through f32: x86 turns a `select` or `phi` of `bfloat` into
    `vcvtneps2bf16` (flushing subnormals, quieting signalling NaNs) on hosts
    with AVX512-BF16 and into calls of `__truncsfbf2` (absent from GCC 12's
    libgcc) on hosts without. A kernel keeps its signature: its 16-bit float
    arguments are bitcast where the body starts. An op that still computes
    on a 16-bit float is an error (a bug of the steps before).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // KTC_PASSES_TD
