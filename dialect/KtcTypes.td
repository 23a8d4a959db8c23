//===- KtcTypes.td - ktc types and attributes ----------------*- tablegen -*-===//

#ifndef KTC_TYPES_TD
#define KTC_TYPES_TD

include "KtcBase.td"

class Ktc_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Ktc_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Ktc_PtrType : Ktc_Type<"Ptr", "ptr"> {
  let summary = "pointer to a scalar in global memory";
  let description = [{
    A pointer into global memory to one element of type `T`, one of i8,
    i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2 (fp8 moves as
    i8 bits on every target). Pointer arithmetic (`ktc.addptr`) counts in
    elements of `T`. A block of pointers is a block tensor of this type.

    ```mlir
    !ktc.ptr<f32>
    tensor<1024x!ktc.ptr<f16>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
}

def Ktc_SharedBufferType : Ktc_Type<"SharedBuffer", "shared"> {
  let summary = "a ring of block-sized slots in shared memory (GPUs)";
  let description = [{
    `!ktc.shared<S x d0 x ... x T>`: S slots, each a block of shape
    d0 x ... of element type `T` (any type a `!ktc.ptr` points to), in the
    program's shared memory (LDS). Made by `ktc.local_alloc`, filled by
    `ktc.async_copy`, read by `ktc.local_load`; the GPU pass
    ktc-pipeline-async builds them for the operands of a dot in a pipelined
    loop. Not a block: it has no layout and is never loaded whole.

    ```mlir
    !ktc.shared<3x128x32xf16>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of slots (the first dimension).
    int64_t getNumSlots() const { return getShape().front(); }
    /// The shape of one slot.
    ::llvm::ArrayRef<int64_t> getSlotShape() const {
      return getShape().drop_front();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

def Ktc_BlockedEncodingAttr : AttrDef<Ktc_Dialect, "BlockedEncoding"> {
  let mnemonic = "blocked";
  let summary = "how a block is spread over the threads of a workgroup";
  let description = [{
    Triton's "blocked" layout, carried as the encoding of a block tensor.
    Along each dimension, each thread holds `sizePerThread` contiguous
    elements, a wave (warp) spans `threadsPerWarp` threads and the workgroup
    `warpsPerCTA` waves; `order` lists the dimensions from fastest to
    slowest. A block larger than that tile wraps around (each thread holds
    several tiles); a smaller one is replicated (threads hold copies).

    The product of `threadsPerWarp` is the target's wave size (32 on NVIDIA
    and RDNA, 64 on CDNA); the product of `warpsPerCTA` is `num_warps`.

    ```mlir
    tensor<1024xf32, #ktc.blocked<{sizePerThread = [4], threadsPerWarp = [64],
                                   warpsPerCTA = [4], order = [0]}>>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getSizePerThread().size(); }
    /// Threads per wave and waves per workgroup (products over dims).
    unsigned getWaveSize() const;
    unsigned getNumWarps() const;
    /// Elements of `shape` that one thread holds.
    int64_t getElementsPerThread(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def Ktc_SliceEncodingAttr : AttrDef<Ktc_Dialect, "SliceEncoding"> {
  let mnemonic = "slice";
  let summary = "a parent layout with one dimension removed";
  let description = [{
    The layout of a block that lost dimension `dim` of a block laid out by
    `parent` (a reduction along `dim`), or that will gain it back
    (`expand_dims` along `dim`): each thread holds the elements whose
    coordinates, with `dim` inserted at 0, it holds in the parent. Threads
    that spread `dim` in the parent hold the same elements (replicas), so a
    reduction's result and the source of an `expand_dims` need no data
    movement when their layouts are each other's slice and parent.

    ```mlir
    tensor<64xf32, #ktc.slice<{dim = 1, parent = #ktc.blocked<{
        sizePerThread = [1, 4], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1],
        order = [1, 0]}>}>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const;
  }];
}

def Ktc_MmaEncodingAttr : AttrDef<Ktc_Dialect, "MmaEncoding"> {
  let mnemonic = "mma";
  let summary = "the result layout of a matrix instruction";
  let description = [{
    The layout of a `ktc.dot` result computed by the matrix instruction
    `instr` (dialect/MmaLayouts.cpp lists them: `mma16816_f16`,
    `mfma32x32x8_f16`, `wmma16x16x16_f16`, ...): each wave holds the
    instruction's result tiles as the ISA places them, `warpsPerCTA`
    waves tile the block along M and N, and each thread repeats the
    instruction over the tiles left (waves past the block replicate).

    ```mlir
    tensor<128x128xf32, #ktc.mma<{instr = "mfma32x32x8_f16", warpsPerCTA = [2, 2]}>>
    ```
  }];
  let parameters = (ins StringRefParameter<>:$instr,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA);
  let assemblyFormat = [{
    `<` `{` `instr` `=` $instr `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `}` `>`
  }];
  let genVerifyDecl = 1;
}

def Ktc_DotOperandEncodingAttr : AttrDef<Ktc_Dialect, "DotOperandEncoding"> {
  let mnemonic = "dot_operand";
  let summary = "the layout of a dot's operand";
  let description = [{
    The layout operand `opIdx` (0: A, 1: B) of a `ktc.dot` whose result is
    laid out by `parent` needs. For a `#ktc.mma` parent it is the
    instruction's operand layout (repeated over K and the tiles); for a
    `#ktc.blocked` parent (the FMA path) each thread holds the rows of A
    (columns of B) of its results, and all of K.

    ```mlir
    tensor<128x64xf16, #ktc.dot_operand<{opIdx = 0, parent = #ktc.mma<{instr = "mfma32x32x8_f16", warpsPerCTA = [2, 2]}>}>>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent);
  let assemblyFormat = [{
    `<` `{` `opIdx` `=` $opIdx `,` `parent` `=` $parent `}` `>`
  }];
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Ktc_ReduceKindEnum : I32EnumAttr<"ReduceKind", "reduction kind", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">]> {
  let cppNamespace = "::mlir::ktc";
  let genSpecializedAttr = 0;
}

def Ktc_ReduceKindAttr : EnumAttr<Ktc_Dialect, Ktc_ReduceKindEnum, "reduce_kind"> {
  let assemblyFormat = "$value";
}

def Ktc_InputPrecisionEnum : I32EnumAttr<"InputPrecision",
    "how a dot multiplies f32 operands", [
    I32EnumAttrCase<"IEEE", 0, "ieee">,
    I32EnumAttrCase<"TF32", 1, "tf32">]> {
  let cppNamespace = "::mlir::ktc";
  let genSpecializedAttr = 0;
}

def Ktc_InputPrecisionAttr : EnumAttr<Ktc_Dialect, Ktc_InputPrecisionEnum,
                                      "input_precision"> {
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
// Atomics (issue 19)
//===----------------------------------------------------------------------===//

def Ktc_AtomicKindEnum : I32EnumAttr<"AtomicKind",
    "the read-modify-write of an atomic", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Xchg", 3, "xchg">,
    I32EnumAttrCase<"And", 4, "and">,
    I32EnumAttrCase<"Or", 5, "or">,
    I32EnumAttrCase<"Xor", 6, "xor">,
    I32EnumAttrCase<"UMax", 7, "umax">,
    I32EnumAttrCase<"UMin", 8, "umin">]> {
  let cppNamespace = "::mlir::ktc";
  let genSpecializedAttr = 0;
}

def Ktc_AtomicKindAttr : EnumAttr<Ktc_Dialect, Ktc_AtomicKindEnum,
                                  "atomic_kind"> {
  let assemblyFormat = "$value";
}

def Ktc_MemSemEnum : I32EnumAttr<"MemSem",
    "the memory ordering of an atomic", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">,
    I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">,
    I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let cppNamespace = "::mlir::ktc";
  let genSpecializedAttr = 0;
}

def Ktc_MemSemAttr : EnumAttr<Ktc_Dialect, Ktc_MemSemEnum, "mem_sem"> {
  let assemblyFormat = "$value";
}

def Ktc_MemScopeEnum : I32EnumAttr<"MemScope",
    "the threads an atomic's ordering is with", [
    I32EnumAttrCase<"Gpu", 0, "gpu">,
    I32EnumAttrCase<"Cta", 1, "cta">,
    I32EnumAttrCase<"Sys", 2, "sys">]> {
  let cppNamespace = "::mlir::ktc";
  let genSpecializedAttr = 0;
}

def Ktc_MemScopeAttr : EnumAttr<Ktc_Dialect, Ktc_MemScopeEnum, "mem_scope"> {
  let assemblyFormat = "$value";
}

#endif // KTC_TYPES_TD
