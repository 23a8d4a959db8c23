//===- KtcInlineAsmOps.td - inline assembly per element ----*- tablegen -*-===//
//
// Included at the end of KtcOps.td (after Ktc_Op and the types). The
// verifier is dialect/InlineAsmOp.cpp; the lowerings are
// lib/Conversion/InlineAsmToLLVM.cpp (GPUs) and
// lib/Target/CPU/HostInlineAsm.cpp (the host).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_INLINE_ASM_OPS_TD
#define KTC_INLINE_ASM_OPS_TD

//===----------------------------------------------------------------------===//
// Inline assembly (issue 19: Triton's tl.inline_asm_elementwise)
//===----------------------------------------------------------------------===//

def Ktc_InlineAsmElementwiseOp : Ktc_Op<"inline_asm_elementwise",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "the user's assembly, run on groups of elements";
  let description = [{
    Triton's `inline_asm_elementwise`. The operands (scalars, or blocks of
    one shape, of integers of 8 to 64 bits or floats f16, bf16, f32, f64)
    are split into groups of `pack` elements; the assembly runs once per
    group, reading that group's elements of every operand and writing that
    group's elements of every result. Which elements form a group is the
    target's choice: the assembly must treat each element on its own.

    `asm_by_target` (after the keyword `asm`) holds one entry per target:
    `host` (x86-64, AT&T syntax), `nvptx` (PTX), `amdgpu` (AMDGPU
    assembly), and `any`, used for a target that has no entry of its own. Each entry is
    `[assembly, constraints]`, both in LLVM's inline-assembly syntax
    (`$0`, `$1`, ... name the operands; `=r,r,r` for one output and two
    inputs). A target with neither its own entry nor `any` is an error when
    the kernel is compiled for it.

    Registers. An element narrower than 32 bits shares a 32-bit register
    with the next ones of its group: `min(32 / width, pack)` elements per
    register, element k in bits `[k * width, (k + 1) * width)` (an i8
    group of 4 is one i32; of 2, one i16). Wider elements take a register
    each, of their own type. The constraints name, in order, the result
    registers (result 0's, then result 1's, ...) and then the operand
    registers (operand 0's, ...); clobbers (`~{memory}`) may follow.

    With `pure` the assembly has no effect besides its results: it may be
    removed when they are unused, or merged with an identical one. Without
    it, it is kept, and ordered with memory accesses.

    ```mlir
    %r = ktc.inline_asm_elementwise %x pack 4 pure
        asm {nvptx = ["prmt.b32 $0, $1, 0, 0x0123;", "=r,r"]}
        : (tensor<256xi8>) -> tensor<256xi8>
    ```
  }];
  let arguments = (ins Variadic<Ktc_Value>:$args,
                       DictionaryAttr:$asm_by_target, Ktc_I32Attr:$pack,
                       UnitAttr:$pure);
  let results = (outs Variadic<Ktc_Value>:$results);
  let assemblyFormat = [{
    $args `pack` $pack (`pure` $pure^)? `asm` $asm_by_target attr-dict `:`
    functional-type($args, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The keys of `asm_by_target`: the targets ("any" for every other one).
    static constexpr ::llvm::StringLiteral kAnyTarget = "any";
    static ::llvm::ArrayRef<::llvm::StringLiteral> targetKeys();
    /// The [assembly, constraints] entry for `target` ("host", "nvptx",
    /// "amdgpu"): its own, else "any"; null when it has neither.
    ::mlir::ArrayAttr entryFor(::llvm::StringRef target);
    /// How many elements of `element` one register holds in a group of
    /// `pack` (see the description).
    static int64_t elementsPerRegister(::mlir::Type element, int64_t pack);
  }];
}

#endif // KTC_INLINE_ASM_OPS_TD
