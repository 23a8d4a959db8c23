// RUN: ktc-opt %s --convert-ktc-to-host | FileCheck %s
// RUN: ktc-opt %s --ktc-host-pipeline | FileCheck %s --check-prefix=LLVM

// A kernel compiled for a checked launch (ktc.check_bounds) takes the
// launch's BoundsHook address after its own arguments (before the grid's),
// and calls hook->check(hook, address, bytes, site, argument) before each
// access; the access is made only where it returns non-zero. The site is a
// constant "load\nFILE\nLINE\nCOLUMN"; the argument is the pointer's origin.
// CHECK: llvm.mlir.global internal constant @__ktc_access_site_checked_0("load\0Akernel.cpp\0A11\0A9\00")
// CHECK: llvm.mlir.global internal constant @__ktc_access_site_checked_1("store\0Akernel.cpp\0A12\0A5\00")
// CHECK-LABEL: func.func @checked
// CHECK-SAME: (%[[X:.*]]: i64, %[[N:.*]]: i32, %[[HOOKARG:.*]]: i64, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32)
// CHECK-NOT: ktc.check_bounds
// CHECK: %[[HOOK:.*]] = llvm.inttoptr %[[HOOKARG]] : i64 to !llvm.ptr
// CHECK: %[[FN:.*]] = llvm.load %[[HOOK]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @__ktc_access_site_checked_0 : !llvm.ptr
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[ARG:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[OK:.*]] = llvm.call %[[FN]](%[[HOOK]], %{{.*}}, %[[BYTES]], %[[SITE]], %[[ARG]]) : !llvm.ptr, (!llvm.ptr, i64, i64, !llvm.ptr, i64) -> i32
// CHECK: %[[IN:.*]] = llvm.icmp "ne" %[[OK]]
// CHECK: scf.if %[[IN]] -> (f32)
// CHECK: llvm.load
// CHECK: addressof @__ktc_access_site_checked_1
// CHECK: scf.if
// CHECK: llvm.store
// LLVM: llvm.func @checked(
// LLVM: llvm.call %{{.*}}(%{{.*}}) : !llvm.ptr, (!llvm.ptr, i64, i64, !llvm.ptr, i64) -> i32
func.func @checked(%x: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel, ktc.check_bounds} {
  %q = ktc.addptr %x, %n : !ktc.ptr<f32>, i32 loc("kernel.cpp":10:3)
  %v = ktc.load %q : !ktc.ptr<f32> loc("kernel.cpp":11:9)
  ktc.store %x, %v : !ktc.ptr<f32> loc("kernel.cpp":12:5)
  return
}
