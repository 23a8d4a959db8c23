//===- KtcOps.td - ktc operations ----------------------------*- tablegen -*-===//

#ifndef KTC_OPS_TD
#define KTC_OPS_TD

include "KtcTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

class Ktc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ktc_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

class Ktc_GridOp<string mnemonic> : Ktc_Op<mnemonic, [Pure]> {
  let arguments = (ins Ktc_I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "int32_t":$axis), [{
      build($_builder, $_state, $_builder.getI32Type(), axis);
    }]>
  ];
}

def Ktc_ProgramIdOp : Ktc_GridOp<"program_id"> {
  let summary = "index of this program instance along a grid axis";
  let description = [{
    The index, along grid axis `axis` (0, 1 or 2), of the program instance
    that executes the kernel: Triton's `tl.program_id(axis)`.

    ```mlir
    %pid = ktc.program_id 0 : i32
    ```
  }];
}

def Ktc_NumProgramsOp : Ktc_GridOp<"num_programs"> {
  let summary = "number of program instances along a grid axis";
  let description = [{
    The size of the launch grid along axis `axis` (0, 1 or 2): Triton's
    `tl.num_programs(axis)`. Persistent kernels stride by it.

    ```mlir
    %step = ktc.num_programs 0 : i32
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Block construction and shape manipulation
//===----------------------------------------------------------------------===//

def Ktc_ArangeOp : Ktc_Op<"arange", [Pure]> {
  let summary = "the i32 sequence start, start+1, ..., end-1";
  let description = [{
    A 1-D block of i32 holding `start, start + 1, ..., end - 1`. The length
    `end - start` must be a power of two and equal the result's size.

    ```mlir
    %offs = ktc.arange 0, 1024 : tensor<1024xi32>
    ```
  }];
  let arguments = (ins Ktc_I32Attr:$start, Ktc_I32Attr:$end);
  // Any ranked i32 tensor here, so that the verifier, not the type
  // constraint, explains a bad length.
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$start `,` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "int32_t":$start, "int32_t":$end)>
  ];
}

def Ktc_SplatOp : Ktc_Op<"splat", [Pure]> {
  let summary = "a block whose every element is one scalar";
  let description = [{
    Broadcasts a scalar to every element of a block tensor whose element type
    is the scalar's type. A splat of a constant folds to a constant.

    ```mlir
    %b = ktc.splat %n : i32 -> tensor<1024xi32>
    %p = ktc.splat %base : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
    ```
  }];
  let arguments = (ins Ktc_Scalar:$src);
  let results = (outs Ktc_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ktc_ExpandDimsOp : Ktc_Op<"expand_dims", [Pure]> {
  let summary = "insert a unit dimension into a block";
  let description = [{
    Inserts a dimension of size 1 at position `axis` (0 <= axis <= rank) of a
    1-D or 2-D block, giving a block of one more dimension: `x[:, None]` in
    Triton is `axis = 1`.

    ```mlir
    %col = ktc.expand_dims %offs axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
    ```
  }];
  let arguments = (ins Ktc_Block:$src, Ktc_I32Attr:$axis);
  let results = (outs Ktc_Block:$result);
  let assemblyFormat = [{
    $src `axis` `=` $axis attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$src, "int32_t":$axis)>
  ];
}

def Ktc_BroadcastOp : Ktc_Op<"broadcast", [Pure]> {
  let summary = "stretch the unit dimensions of a block";
  let description = [{
    Repeats a block along its dimensions of size 1 to reach the result
    shape. Source and result have the same rank and element type; every
    source dimension is either 1 or equal to the result's.

    ```mlir
    %m = ktc.broadcast %col : tensor<128x1xi32> -> tensor<128x64xi32>
    ```
  }];
  let arguments = (ins Ktc_Block:$src);
  let results = (outs Ktc_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Ktc_TransOp : Ktc_Op<"trans", [Pure]> {
  let summary = "permute the dimensions of a block";
  let description = [{
    Reorders the dimensions of a block: dimension `i` of the result is
    dimension `perm[i]` of the source (Triton's `tl.permute(x, perm)`;
    `tl.trans` of a 2-D block is `perm = [1, 0]`). `perm` is a permutation
    of `0 .. rank - 1`; the element type is kept. The identity permutation
    folds away, nested permutations compose, and a permuted splat is a
    splat.

    ```mlir
    %t = ktc.trans %x perm = [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
    %u = ktc.trans %y perm = [2, 0, 1] : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
    ```
  }];
  let arguments = (ins Ktc_Block:$src, DenseI32ArrayAttr:$perm);
  let results = (outs Ktc_Block:$result);
  let assemblyFormat = [{
    $src `perm` `=` $perm attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int32_t>":$perm)>
  ];
}

def Ktc_ReshapeOp : Ktc_Op<"reshape", [Pure]> {
  let summary = "view a block with another shape of the same size";
  let description = [{
    The elements of the source in row-major order, read back in row-major
    order into the result's shape: Triton's `tl.reshape(x, shape)` (without
    `can_reorder`). Source and result have the same element type and the
    same number of elements (every dimension a power of two, as in every
    block). A reshape to the same shape folds away, nested reshapes become
    one, and a reshaped splat is a splat.

    ```mlir
    %flat = ktc.reshape %tile : tensor<16x32xf32> -> tensor<512xf32>
    %cube = ktc.reshape %flat : tensor<512xf32> -> tensor<8x8x8xf32>
    ```
  }];
  let arguments = (ins Ktc_Block:$src);
  let results = (outs Ktc_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Ktc_ConvertLayoutOp : Ktc_Op<"convert_layout", [Pure,
    AllShapesMatch<["src", "result"]>,
    AllElementTypesMatch<["src", "result"]>]> {
  let summary = "move a block to another layout";
  let description = [{
    The same block, spread over the threads as the result type's layout
    says. Inserted by `ktc-assign-layouts` where a producer and a consumer
    want different layouts; free when the two layouts differ only in which
    registers hold which elements, through shared memory otherwise.

    ```mlir
    %t = ktc.convert_layout %x : tensor<64x64xf32, #row> -> tensor<64x64xf32, #col>
    ```
  }];
  let arguments = (ins Ktc_Block:$src);
  let results = (outs Ktc_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Ktc_AddPtrOp : Ktc_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by element offsets";
  let description = [{
    `ptr + offset`, counted in elements of the pointee type (the offset is
    sign-extended). Either both operands are scalars or both are blocks of
    the same shape. Adding zero folds away.

    ```mlir
    %q  = ktc.addptr %p, %i : !ktc.ptr<f32>, i32
    %ps = ktc.addptr %pb, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
    ```
  }];
  let arguments = (ins Ktc_PtrLike:$ptr, Ktc_IntLike:$offset);
  let results = (outs Ktc_PtrLike:$result);
  let assemblyFormat = [{
    $ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ktc_LoadOp : Ktc_Op<"load", [AttrSizedOperandSegments]> {
  let summary = "masked load from global memory";
  let description = [{
    Loads the element each pointer points to. The result has the pointer
    operand's shape and its pointee type. Where the optional `mask` (i1, same
    shape) is false nothing is read and the element is `other` (same type as
    the result), or undefined when `other` is absent; `other` needs a mask.

    Syntax: `ktc.load %ptr [, mask %m [, other %o]] : <pointer type>`; the
    types of the mask, `other` and the result follow from the pointer type.

    ```mlir
    %x = ktc.load %ps, mask %m, other %ninf : tensor<256x!ktc.ptr<f32>>
    %s = ktc.load %p : !ktc.ptr<i32>
    ```
  }];
  let arguments = (ins
    Arg<Ktc_PtrLike, "pointers", [MemRead]>:$ptr,
    Optional<Ktc_BoolLike>:$mask,
    Optional<Ktc_Value>:$other);
  let results = (outs Ktc_Value:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, CArg<"::mlir::Value", "{}">:$mask,
                   CArg<"::mlir::Value", "{}">:$other)>
  ];
}

def Ktc_StoreOp : Ktc_Op<"store"> {
  let summary = "masked store to global memory";
  let description = [{
    Stores each element of `value` where its pointer points. `value` has the
    pointer operand's shape and its pointee type. Where the optional `mask`
    (i1, same shape) is false nothing is written.

    Syntax: `ktc.store %ptr, %value [, mask %m] : <pointer type>`.

    ```mlir
    ktc.store %ps, %y, mask %m : tensor<1024x!ktc.ptr<f32>>
    ```
  }];
  let arguments = (ins
    Arg<Ktc_PtrLike, "pointers", [MemWrite]>:$ptr,
    Ktc_Value:$value,
    Optional<Ktc_BoolLike>:$mask);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Ktc_ReduceOp : Ktc_Op<"reduce", [Pure]> {
  let summary = "sum, max or min of a block along one axis";
  let description = [{
    Reduces a block along `axis`: the result is the block with that
    dimension removed, or a scalar when the input is 1-D. Integer and float
    blocks are accepted (not i1 for `sum`, not pointers). For floats `max`
    and `min` ignore NaN operands unless every operand is NaN (like
    `arith.maxnumf`), and `sum` may be computed in any association order.

    ```mlir
    %m = ktc.reduce max %x axis = 0 : tensor<256xf32> -> f32
    %r = ktc.reduce sum %t axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
    ```
  }];
  let arguments = (ins Ktc_ReduceKindAttr:$kind, Ktc_Block:$src,
                       Ktc_I32Attr:$axis);
  let results = (outs Ktc_Value:$result);
  let assemblyFormat = [{
    custom<ReduceKind>($kind) $src `axis` `=` $axis attr-dict `:` type($src)
    `->` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ktc::ReduceKind":$kind, "::mlir::Value":$src,
                   "int32_t":$axis)>
  ];
}

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
    reads' accesses free of bank conflicts. ktc-pipeline-async chooses them.

    ```mlir
    %buf = ktc.local_alloc {vec = 8, max_phase = 4} : !ktc.shared<3x128x32xf16>
    ```
  }];
  let arguments = (ins DefaultValuedAttr<I64Attr, "0">:$pad,
                       DefaultValuedAttr<I64Attr, "1">:$vec,
                       DefaultValuedAttr<I64Attr, "1">:$per_phase,
                       DefaultValuedAttr<I64Attr, "1">:$max_phase);
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

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def Ktc_DotOp : Ktc_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix product of two blocks, added to an accumulator";
  let description = [{
    `acc + a x b` for blocks `a` (M x K) and `b` (K x N) and an accumulator
    `acc` (M x N): Triton's `tl.dot(a, b, acc)`. `a` and `b` have the same
    element type, f16, bf16 or f32; the accumulator and the result are f32.
    Each product is exact (f16 and bf16 products always are in f32) and
    the sums are f32 additions in an order the target chooses. f32
    operands are multiplied in f32 (`ieee`, the default) unless
    `input_precision = tf32` lets the target round them to tf32 (10
    mantissa bits, to nearest with ties away from zero) first, as tensor
    cores do.

    ```mlir
    %c = ktc.dot %a, %b, %acc : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf32>
    %d = ktc.dot %x, %y, %acc input_precision = tf32 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
    ```
  }];
  let arguments = (ins Ktc_Block:$a, Ktc_Block:$b, Ktc_Block:$acc,
      DefaultValuedAttr<Ktc_InputPrecisionAttr,
                        "::mlir::ktc::InputPrecision::IEEE">:$input_precision);
  let results = (outs Ktc_Block:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`input_precision` `=` $input_precision^)? attr-dict
    `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions with a combine region (issue 19: argmax/argmin, custom
// combines, xor_sum)
//===----------------------------------------------------------------------===//

def Ktc_ReduceWithOp : Ktc_Op<"reduce_with", [Pure, IsolatedFromAbove,
    SingleBlock]> {
  let summary = "reduction of one or more blocks with a combine region";
  let description = [{
    Reduces N blocks of one shape together along `axis` with the combine
    function in the region: Triton's `tl.reduce` with a user's combine. The
    region takes 2N scalars, `(a_0, ..., a_{N-1}, b_0, ..., b_{N-1})`, two
    partial results of the element types, and returns their combination
    with `ktc.reduce_return`. Each result is its block with the axis
    removed, or a scalar when the blocks are 1-D. The combine is assumed
    associative and commutative: targets apply it in any order (a loop on
    the host, trees within and across threads on GPUs), so it only gives
    the same bits everywhere when it is exactly so (max, min, xor, argmax's
    value-and-index pairs; not a float sum). The region sees only its
    arguments (no values from outside) and computes on scalars.

    ```mlir
    %v, %i = ktc.reduce_with %x, %idx axis = 0 : tensor<256xf32>, tensor<256xi32> -> f32, i32 {
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %v = arith.select %gt, %a, %b : f32
      %i = arith.select %gt, %ai, %bi : i32
      ktc.reduce_return %v, %i : f32, i32
    }
    ```
  }];
  let arguments = (ins Variadic<Ktc_Block>:$srcs, Ktc_I32Attr:$axis);
  let results = (outs Variadic<Ktc_Value>:$results);
  let regions = (region SizedRegion<1>:$combine);
  let assemblyFormat = [{
    $srcs `axis` `=` $axis attr-dict `:` type($srcs) `->` type($results)
    $combine
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The type of reducing a block of type `src` along `axis`.
    static ::mlir::Type reducedType(::mlir::RankedTensorType src,
                                    int64_t axis);
    /// The combine region's single block.
    ::mlir::Block &getCombineBlock() { return getCombine().front(); }
  }];
}

def Ktc_ReduceReturnOp : Ktc_Op<"reduce_return", [Pure, Terminator,
    HasParent<"ReduceWithOp">]> {
  let summary = "the combination a ktc.reduce_with region returns";
  let description = [{
    Ends the combine region of `ktc.reduce_with` with one scalar per
    reduced block, of that block's element type.
  }];
  let arguments = (ins Variadic<Ktc_Scalar>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
}

//===----------------------------------------------------------------------===//
// Scans (cumsum, cumprod, associative_scan)
//===----------------------------------------------------------------------===//

def Ktc_ScanOp : Ktc_Op<"scan", [Pure, IsolatedFromAbove]> {
  let summary = "inclusive scan of blocks along one axis with a combine region";
  let description = [{
    The inclusive scan of one or more blocks of one shape along `axis`:
    Triton's `tl.associative_scan` (and `tl.cumsum`, `tl.cumprod`). Element
    `i` of each result combines the elements `0 .. i` of the operands along
    the axis (`i .. n-1` with `reverse`, as if the axis were reversed, so
    that the combine's first arguments are always the earlier ones in scan
    order). The combine region takes the scalars of an earlier group, then
    those of a later one (one argument per operand, each of its element
    type, twice) and returns one scalar per operand with
    `ktc.scan_return`; it must be associative. The results have the
    operands' types.

    Every target associates the same way, whatever the layout: bit `k`
    (from 0 up) of an element's index adds, on its left, the total of the
    aligned group of `2^k` elements just before its own group, each total
    being its halves combined left to right. So floats give the same bits
    on the host and on every GPU.

    ```mlir
    %c = ktc.scan %x axis = 0 : tensor<256xf32> -> tensor<256xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      ktc.scan_return %s : f32
    }
    %v, %i = ktc.scan %y, %j axis = 1 reverse
        : tensor<8x64xf32>, tensor<8x64xi32> -> tensor<8x64xf32>, tensor<8x64xi32> {
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      ...
      ktc.scan_return %m, %mi : f32, i32
    }
    ```
  }];
  let arguments = (ins Variadic<Ktc_Block>:$srcs, Ktc_I32Attr:$axis,
                       UnitAttr:$reverse);
  let results = (outs Variadic<Ktc_Block>:$results);
  let regions = (region SizedRegion<1>:$combine);
  let assemblyFormat = [{
    $srcs `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:` type($srcs)
    `->` type($results) $combine
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ValueRange":$srcs, "int32_t":$axis,
                   "bool":$reverse)>
  ];
  let extraClassDeclaration = [{
    /// The combine region's block.
    ::mlir::Block &getCombineBlock() { return getCombine().front(); }
    /// The combine region's ops copied at `b`'s insertion point on
    /// `earlier` and `later` (one scalar per operand each): its results.
    ::llvm::SmallVector<::mlir::Value>
    combine(::mlir::OpBuilder &b, ::mlir::ValueRange earlier,
            ::mlir::ValueRange later);
  }];
}

def Ktc_ScanReturnOp : Ktc_Op<"scan_return", [Pure, Terminator,
    HasParent<"ScanOp">]> {
  let summary = "the combined scalars of a ktc.scan's combine region";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

//===----------------------------------------------------------------------===//
// Atomics (issue 19)
//===----------------------------------------------------------------------===//

def Ktc_AtomicRMWOp : Ktc_Op<"atomic_rmw"> {
  let summary = "atomic read-modify-write of global memory";
  let description = [{
    For each element: atomically reads the value `old` the pointer points
    to, writes `old <kind> val`, and returns `old`. `val` has the pointer
    operand's shape and its pointee type. Where the optional `mask` (i1,
    same shape) is false nothing is read or written and the result is
    undefined. Each element is one atomic access, done exactly once.

    Kinds: `add` (i32, i64, f32), `max` and `min` (i32, i64 signed; f32 in
    the order of the bits, Triton's: -NaN < -inf < ... < -0 < +0 < ... <
    +inf < +NaN), `xchg` (i32, i64, f32: writes `val`), `and`, `or`, `xor`
    (i32, i64).

    `sem` orders the access with the thread's other memory accesses
    (`relaxed`, `acquire`, `release`, `acq_rel`; default `acq_rel`), among
    the threads of `scope` (`gpu`, the default; `cta`, the program's;
    `sys`, the GPU's and the host's).

    Syntax: `ktc.atomic_rmw <kind> %ptr, %val [, mask %m] [sem = <sem>]
    [scope = <scope>] : <pointer type>`; defaults are not printed.

    ```mlir
    %old = ktc.atomic_rmw add %ps, %ones, mask %m : tensor<256x!ktc.ptr<i32>>
    %o = ktc.atomic_rmw max %p, %x sem = relaxed scope = cta : !ktc.ptr<f32>
    ```
  }];
  let arguments = (ins
    Ktc_AtomicKindAttr:$kind,
    Arg<Ktc_PtrLike, "pointers", [MemRead, MemWrite]>:$ptr,
    Ktc_Value:$val,
    Optional<Ktc_BoolLike>:$mask,
    DefaultValuedAttr<Ktc_MemSemAttr, "::mlir::ktc::MemSem::AcqRel">:$sem,
    DefaultValuedAttr<Ktc_MemScopeAttr, "::mlir::ktc::MemScope::Gpu">:$scope);
  let results = (outs Ktc_Value:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Ktc_AtomicCASOp : Ktc_Op<"atomic_cas"> {
  let summary = "atomic compare-and-swap of global memory";
  let description = [{
    For each element: atomically reads `old` where the pointer points and,
    if its bits equal those of `cmp`, writes `val`; returns `old`. `cmp`
    and `val` have the pointer operand's shape and its pointee type (i32,
    i64 or f32; f32 compares bits). Where the optional `mask` is false
    nothing is read or written and the result is undefined. `sem` and
    `scope` as for `ktc.atomic_rmw` (a failed compare orders as `acquire`
    for `acquire` and `acq_rel`, else `relaxed`).

    Syntax: `ktc.atomic_cas %ptr, %cmp, %val [, mask %m] [sem = <sem>]
    [scope = <scope>] : <pointer type>`.

    ```mlir
    %old = ktc.atomic_cas %lock, %zero, %one : !ktc.ptr<i32>
    ```
  }];
  let arguments = (ins
    Arg<Ktc_PtrLike, "pointers", [MemRead, MemWrite]>:$ptr,
    Ktc_Value:$cmp,
    Ktc_Value:$val,
    Optional<Ktc_BoolLike>:$mask,
    DefaultValuedAttr<Ktc_MemSemAttr, "::mlir::ktc::MemSem::AcqRel">:$sem,
    DefaultValuedAttr<Ktc_MemScopeAttr, "::mlir::ktc::MemScope::Gpu">:$scope);
  let results = (outs Ktc_Value:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // KTC_OPS_TD
