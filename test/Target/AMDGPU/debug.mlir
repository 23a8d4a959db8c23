// device_assert on gfx942: a wave holding a false element executes s_trap 2
// (llvm.trap; AMD targets get no message). device_print has no lowering for
// AMD targets: a clear error at the print's line
// (docs/builder.md#debugging).
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s
// RUN: not ktc-compile %S/../Inputs/debug-print.mlir --target=gfx942 --emit=asm 2>&1 | FileCheck %s --check-prefix=PRINT

// CHECK-LABEL: assert_only:
// CHECK: s_trap 2
// CHECK: s_endpgm

// PRINT: kernel.cpp:11:5: error: device_print is not supported on gfx942: ktc prints on the host CPU and on CUDA (sm_*) targets only (docs/builder.md#debugging)

module {
  func.func @assert_only(%x: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel, ktc.num_warps = 4 : i32} {
    %offs = ktc.arange 0, 256 : tensor<256xi32>
    %ns = ktc.splat %n : i32 -> tensor<256xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
    %p = ktc.splat %x : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
    %ptrs = ktc.addptr %p, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    %cst = arith.constant dense<0.0> : tensor<256xf32>
    %v = ktc.load %ptrs, mask %mask, other %cst : tensor<256x!ktc.ptr<f32>> loc("kernel.cpp":10:5)
    %ok = arith.cmpf oge, %v, %cst : tensor<256xf32>
    ktc.assert %ok, "x must be non-negative" : tensor<256xi1> loc("kernel.cpp":13:5)
    return
  }
}
