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

    `cache_modifier` (".ca", ".cg", ".cv") and `eviction_policy`
    ("evict_first", "evict_last") are Triton's cache hints, one or the
    other: PTX's cache operator or L1 eviction priority, AMDGPU's `nt` for
    the streaming ones, nothing on the host.
  }];
  let arguments = (ins
    Arg<Ktc_PtrLike, "pointers", [MemRead]>:$ptr,
    Optional<Ktc_BoolLike>:$mask,
    Optional<Ktc_Value>:$other,
    OptionalAttr<StrAttr>:$cache_modifier,
    OptionalAttr<StrAttr>:$eviction_policy);
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

    `cache_modifier` (".wb", ".cg", ".cs", ".wt") and `eviction_policy`
    ("evict_first", "evict_last"): as for `ktc.load`.
  }];
  let arguments = (ins
    Arg<Ktc_PtrLike, "pointers", [MemWrite]>:$ptr,
    Ktc_Value:$value,
    Optional<Ktc_BoolLike>:$mask,
    OptionalAttr<StrAttr>:$cache_modifier,
    OptionalAttr<StrAttr>:$eviction_policy);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$value,
                   CArg<"::mlir::Value", "{}">:$mask), [{
      build($_builder, $_state, ptr, value, mask, ::mlir::StringAttr(),
            ::mlir::StringAttr());
    }]>
  ];
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

include "KtcSharedOps.td"

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def Ktc_DotOp : Ktc_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix product of two blocks, added to an accumulator";
  let description = [{
    `acc + a x b` for blocks `a` (M x K) and `b` (K x N) and an accumulator
    `acc` (M x N): Triton's `tl.dot(a, b, acc)`. `a` and `b` have the same
    element type, f16, bf16 or f32; the accumulator and the result are f32
    (i8 operands: an i32 accumulator, products and sums exact modulo 2^32).
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

include "KtcCombineOps.td"

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
    +inf < +NaN), `umax` and `umin` (i32, i64 read as unsigned), `xchg`
    (i32, i64, f32: writes `val`), `and`, `or`, `xor` (i32, i64).

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

//===----------------------------------------------------------------------===//
// Debugging (issue 19 item 7): KtcDebugOps.td
//===----------------------------------------------------------------------===//

include "KtcDebugOps.td"

//===----------------------------------------------------------------------===//
// Inline assembly (issue 19): KtcInlineAsmOps.td
//===----------------------------------------------------------------------===//

include "KtcInlineAsmOps.td"

#endif // KTC_OPS_TD
