//===- KtcDebugOps.td - device_print and device_assert -----*- tablegen -*-===//
//
// Included at the end of KtcOps.td (after Ktc_Op and the types). The
// builder emits these only when a kernel is traced with Options::debug (or
// KTC_DEBUG=1); without it they are not in the IR at all.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DEBUG_OPS_TD
#define KTC_DEBUG_OPS_TD

//===----------------------------------------------------------------------===//
// Debugging (issue 19 item 7: device_print, device_assert)
//===----------------------------------------------------------------------===//

def Ktc_PrintOp : Ktc_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "prints scalars and the elements of blocks (device_print)";
  let description = [{
    Prints each operand, one line per element (one line for a scalar),
    with the program's id and the element's index, as Triton's
    `device_print` does:

        pid (X, Y, Z) idx (I[, J...]) PREFIX: VALUE
        pid (X, Y, Z) PREFIX: VALUE                     (a scalar)

    With more than one operand, `PREFIX` is followed by ` (operand K)`.
    Integers print as signed decimals, floats with `%f` (f16/bf16 widened
    exactly). The host prints through the process's `printf`, CUDA through
    `vprintf`; other GPU targets reject it (docs/builder.md#debugging).

    ```mlir
    ktc.print "x", %x : tensor<16xf32>
    ```
  }];
  let arguments = (ins StrAttr:$prefix, Variadic<Ktc_Value>:$args);
  let assemblyFormat = "$prefix (`,` $args^ `:` type($args))? attr-dict";
}

def Ktc_AssertOp : Ktc_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "a runtime check of every element (device_assert)";
  let description = [{
    Checks that every element of the boolean scalar or block `condition`
    is true; where one is not, reports `message` at the op's location and
    fails: on the host the launch throws a ktc::Error naming the first
    failing program and element (the programs run to their end); on CUDA
    the thread calls `__assertfail`, which prints the message with the
    failing block and thread and traps (the CUDA context is lost); on
    AMDGPU the wave executes `s_trap` (no message).

    ```mlir
    ktc.assert %ok, "x must be positive" : tensor<16xi1>
    ```
  }];
  let arguments = (ins Ktc_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

#endif // KTC_DEBUG_OPS_TD
