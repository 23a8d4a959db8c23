//===- KtcSharedOps.td - shared-memory buffers, async copies -*- tablegen -*-===//
//
// Included by KtcOps.td (after Ktc_Op and the types).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_SHARED_OPS_TD
#define KTC_SHARED_OPS_TD

//===----------------------------------------------------------------------===//
// Shared-memory buffers and asynchronous copies (GPUs; ktc-pipeline-async)
//===----------------------------------------------------------------------===//

def Ktc_LocalAllocOp : Ktc_Op<"local_alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "a buffer of block-sized slots in shared memory";
  let description = [{
    Reserves the program's shared memory for a `!ktc.shared` buffer for the
    whole kernel. Each slot is stored row-major (the last dimension
    fastest), each row `pad` elements longer, and with `max_phase` > 1 the
    chunks of `vec` elements of row r are permuted by XOR with
    (r / per_phase) % max_phase: a swizzle that keeps the copies' and the
    reads' accesses free of bank conflicts. With `split` > 0 the last
    dimension is cut in blocks of `split` columns stored one after the
    other (all rows of one block, then the next), each swizzled on its own:
    the tiles NVIDIA's wgmma reads through matrix descriptors (32-, 64- or
    128-byte rows). ktc-pipeline-async chooses them.

    ```mlir
    %buf = ktc.local_alloc {vec = 8, max_phase = 4} : !ktc.shared<3x128x32xf16>
    ```
  }];
  let arguments = (ins DefaultValuedAttr<I64Attr, "0">:$pad,
                       DefaultValuedAttr<I64Attr, "1">:$vec,
                       DefaultValuedAttr<I64Attr, "1">:$per_phase,
                       DefaultValuedAttr<I64Attr, "1">:$max_phase,
                       DefaultValuedAttr<I64Attr, "0">:$split);
  let results = (outs Ktc_SharedBufferType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Ktc_AsyncCopyOp : Ktc_Op<"async_copy"> {
  let summary = "copy a block from global memory into a buffer slot, "
                "asynchronously";
  let description = [{
    Starts copying the element each pointer points to into slot `slot` of
    `buffer`, at the pointer's coordinates in the block; where `mask` is
    false nothing is read and the element is zero. The copy belongs to the
    group the next `ktc.async_commit` closes and is complete (for every
    thread of the program) after a `ktc.async_wait` that leaves fewer
    groups in flight. The pointer block's layout says which thread copies
    what. NVIDIA sm_80 and later: cp.async.

    ```mlir
    ktc.async_copy %ptrs, %buf[%slot], mask %m
        : tensor<128x32x!ktc.ptr<f16>, #l>, tensor<128x32xi1, #l>
          -> !ktc.shared<3x128x32xf16>
    ```
  }];
  let arguments = (ins Arg<Ktc_Block, "pointers", [MemRead]>:$ptr,
                       Arg<Ktc_SharedBufferType, "slots", [MemWrite]>:$buffer,
                       I32:$slot, Optional<Ktc_Block>:$mask);
  let assemblyFormat = [{
    $ptr `,` $buffer `[` $slot `]` (`,` `mask` $mask^)? attr-dict `:`
    type($ptr) (`,` type($mask)^)? `->` type($buffer)
  }];
  let hasVerifier = 1;
}

def Ktc_AsyncCommitOp : Ktc_Op<"async_commit",
                               [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "close a group of asynchronous copies";
  let description = [{
    The `ktc.async_copy` ops this thread started since the last commit form
    one group, which `ktc.async_wait` counts.

    ```mlir
    ktc.async_commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Ktc_AsyncWaitOp : Ktc_Op<"async_wait",
                             [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for asynchronous copies, then for every thread";
  let description = [{
    Waits until at most `pending` committed groups of this thread's copies
    are still in flight, then synchronises the program's threads (a
    barrier): afterwards every thread sees what all threads' completed
    copies wrote, and every thread has finished the buffer reads it issued
    before the wait, so their slots may be written again.

    ```mlir
    ktc.async_wait {pending = 2}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>]>:$pending);
  let assemblyFormat = "attr-dict";
}

def Ktc_LocalLoadOp : Ktc_Op<"local_load"> {
  let summary = "read one slot of a shared-memory buffer as a block";
  let description = [{
    The block in slot `slot` of `buffer` (written by copies a
    `ktc.async_wait` has completed), in the result's layout. A dot whose
    operand it is reads the slot itself, each instruction's fragments just
    before the instruction (no registers hold the whole block).

    ```mlir
    %a = ktc.local_load %buf[%slot] : !ktc.shared<3x128x32xf16>
                                      -> tensor<128x32xf16, #l>
    ```
  }];
  let arguments = (ins Arg<Ktc_SharedBufferType, "slots", [MemRead]>:$buffer,
                       I32:$slot);
  let results = (outs Ktc_Block:$result);
  let assemblyFormat = [{
    $buffer `[` $slot `]` attr-dict `:` type($buffer) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Ktc_DotWaitOp : Ktc_Op<"dot_wait", [MemoryEffects<[MemRead, MemWrite]>,
                                        AllTypesMatch<["acc", "result"]>]> {
  let summary = "wait for a dot the matrix units still compute";
  let description = [{
    A dot marked `ktc.dot_pending = N` (ktc-pipeline-async, for NVIDIA's
    wgmma in a pipelined loop) returns while up to N groups of its
    instructions may still be in flight, writing its result: the next
    iteration's dot accumulates into it directly. `ktc.dot_wait` waits
    until at most `pending` groups are in flight and returns `acc`, then
    complete, for any other use (after the loop).

    ```mlir
    %done = ktc.dot_wait %acc {pending = 0} : tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins Ktc_Block:$acc,
                       ConfinedAttr<I32Attr, [IntMinValue<0>]>:$pending);
  let results = (outs Ktc_Block:$result);
  let assemblyFormat = "$acc attr-dict `:` type($acc)";
}

#endif // KTC_SHARED_OPS_TD
