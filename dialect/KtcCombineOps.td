//===- KtcCombineOps.td - reductions and scans with a combine -*- tablegen -*-===//
//
// Included by KtcOps.td (after Ktc_Op and the types).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_COMBINE_OPS_TD
#define KTC_COMBINE_OPS_TD

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

#endif // KTC_COMBINE_OPS_TD
