// return_if inside a for_range followed by a block reduction
// (Inputs/early-exit-loop.mlir). No thread leaves on its own: there is no
// exit, one ret at the end, and the loop's flag is a branch over the
// reduction's barrier to that ret, taken by every thread of the program or
// by none (the flag is a scalar they all compute from the same load).
// RUN: ktc-compile %S/../Inputs/early-exit-loop.mlir --target=sm_90 --emit=asm | FileCheck %s --implicit-check-not='exit;'
// RUN: ktc-compile %S/../Inputs/early-exit-loop.mlir --target=sm_90 --emit=asm -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK-LABEL: .entry leave_for(
// CHECK-NOT: ret;
// CHECK: ld.global.b32 %[[V:r[0-9]+]],
// CHECK-NEXT: setp.lt.s32 %[[LT:p[0-9]+]], %[[V]], %r{{[0-9]+}};
// CHECK: @%[[LT]] bra
// CHECK: st.global.b32
// CHECK-NOT: ret;
// CHECK: mov.u32 %r{{[0-9]+}}, %tid.x;
// CHECK-NOT: ret;
// CHECK: bar.sync 0;
// CHECK-NOT: ret;
// CHECK: st.global.b32
// CHECK: st.global.b32
// CHECK-NEXT: $L__BB0_{{[0-9]+}}:
// CHECK-NEXT: ret;
// CHECK-NOT: ret;
