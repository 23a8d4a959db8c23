// multiple_of on gfx942: the hinted copy is global_load_dwordx4 /
// global_store_dwordx4, the plain one dword accesses. The cache hints that
// ask the caches not to keep the data (.cg, .cs, evict_first) set `nt`
// (LLVM's !nontemporal); evict_last is the default.
// RUN: ktc-compile %S/../Inputs/hints.mlir --target=gfx942 --emit=asm | FileCheck %s

// CHECK-LABEL: hinted:
// CHECK: global_load_dwordx4
// CHECK: global_store_dwordx4
// CHECK: s_endpgm
// CHECK-LABEL: plain:
// CHECK-NOT: dwordx4
// CHECK: global_load_dword {{.*}}off
// CHECK-NOT: dwordx4
// CHECK: global_store_dword {{.*}}off
// CHECK-NOT: dwordx4
// CHECK: s_endpgm
// CHECK-LABEL: cached:
// CHECK-DAG: global_load_dwordx4 {{.*}} nt
// CHECK-DAG: global_store_dword {{.*}} nt
// CHECK-DAG: global_store_dwordx2 {{.*}} nt
// CHECK-DAG: global_load_dwordx2 {{v\[[0-9]+:[0-9]+\]}}, {{v[0-9]+}}, {{s\[[0-9]+:[0-9]+\]}}{{$}}
// CHECK: s_endpgm
