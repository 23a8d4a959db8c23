// return_if inside a for_range followed by a block reduction
// (Inputs/early-exit-loop.mlir). The loop's exit test is a uniform branch
// (s_cbranch_vccnz on a value loaded from one address, not an EXEC mask),
// and the program's one s_endpgm is at the end: the flag's branch skips the
// reduction and its s_barrier for every wave of the program or for none.
// RUN: ktc-compile %S/../Inputs/early-exit-loop.mlir --target=gfx942 --emit=asm | FileCheck %s

// CHECK-LABEL: leave_for:
// CHECK-NOT: s_endpgm
// CHECK: global_load_dword v[[V:[0-9]+]],
// CHECK: v_cmp_gt_i32_e32 vcc, s{{[0-9]+}}, v[[V]]
// CHECK-NEXT: s_cbranch_vccnz
// CHECK: global_store_dword
// CHECK-NOT: s_endpgm
// CHECK: s_barrier
// CHECK-NOT: s_endpgm
// CHECK: global_store_dword
// CHECK: global_store_dword
// CHECK-NEXT: .LBB0_{{[0-9]+}}:
// CHECK-NEXT: s_endpgm
// CHECK-NOT: s_endpgm
