// multiple_of lets an unaligned start's copy move 16 bytes at a time
// (ld.global.v4 / st.global.v4; without the hint, 4-byte accesses), and
// Triton's cache hints are PTX's qualifiers: the cache operator
// (ld.global.cg, st.global.cs) or the L1 eviction priority
// (.L1::evict_first / .L1::evict_last), through inline asm. ptxas takes
// them (sm_80 and sm_90).
// RUN: ktc-compile %S/../Inputs/hints.mlir --target=sm_90 --emit=asm | FileCheck %s

// CHECK-LABEL: .entry hinted(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// CHECK-LABEL: .entry plain(
// CHECK-NOT: .v4
// CHECK: ld.global.b32
// CHECK-NOT: .v4
// CHECK: st.global.b32
// CHECK-NOT: .v4
// CHECK-LABEL: .entry cached(
// CHECK-DAG: ld.global.cg.v4.b32
// CHECK-DAG: st.global.L1::evict_first.b32
// CHECK-DAG: ld.global.L1::evict_last.v4.b32
// CHECK-DAG: st.global.cs.v4.b32
// CHECK: ret;
