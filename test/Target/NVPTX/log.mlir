// fast_log and fast_log2 (afn) on sm_90: lg2.approx.f32 (LLVM has no NVPTX
// lowering of llvm.log2), log as log2(x) * ln(2); scalars too. On gfx942,
// v_log_f32. Plain log/log2 are ktc-expand-math's (expand-math.mlir): no
// approximate instruction.
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s --check-prefix=AMD
// CHECK-LABEL: .entry logs(
// CHECK: lg2.approx.f32 [[L:%r[0-9]+]], %r{{[0-9]+}};
// CHECK-NEXT: mul.rn.f32 [[LN:%r[0-9]+]], [[L]], 0f3F317218;
// CHECK-NEXT: lg2.approx.f32 %r{{[0-9]+}}, [[LN]];
// CHECK: lg2.approx.f32
// CHECK-NEXT: mul.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0f3F317218;
// CHECK: ret;
// AMD-LABEL: logs:
// AMD-COUNT-2: v_log_f32
func.func @logs(%p: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %nb = ktc.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %ps = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %x = ktc.load %ps, mask %m : tensor<128x!ktc.ptr<f32>>
  %a = math.log %x fastmath<afn> : tensor<128xf32>
  %b = math.log2 %a fastmath<afn> : tensor<128xf32>
  ktc.store %ps, %b, mask %m : tensor<128x!ktc.ptr<f32>>
  %s = ktc.load %p : !ktc.ptr<f32>
  %l = math.log %s fastmath<afn> : f32
  ktc.store %p, %l : !ktc.ptr<f32>
  return
}
