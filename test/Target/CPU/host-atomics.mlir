// RUN: ktc-opt %s -split-input-file --convert-ktc-to-host | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-host-pipeline | FileCheck %s --check-prefix=LLVM

// A block's atomics are a loop nest over its elements (scf.for, never a
// linalg op that could be fused or dropped), each a real atomic on its
// address at system scope, the old values stored into a buffer read back
// as the result (a loop carrying a tensor, bufferised, would carry a buffer
// through the atomics).
// CHECK-LABEL: func.func @block_add
// CHECK: %[[OLD:.*]] = memref.alloc() : memref<64xi32>
// CHECK: scf.for
// CHECK: tensor.extract
// CHECK: scf.if
// CHECK: llvm.inttoptr
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} acq_rel
// CHECK: memref.store %{{.*}}, %[[OLD]]
// CHECK: bufferization.to_tensor %[[OLD]] restrict writable
// CHECK-NOT: ktc.
// LLVM-LABEL: llvm.func @block_add
// LLVM: llvm.atomicrmw add %{{.*}}, %{{.*}} acq_rel
// LLVM-NOT: scf.
func.func @block_add(%p: !ktc.ptr<i32>, %out: !ktc.ptr<i32>, %n: i32) attributes {ktc.kernel} {
  %offs = ktc.arange 0, 64 : tensor<64xi32>
  %nb = ktc.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %offs, %nb : tensor<64xi32>
  %pb = ktc.splat %p : !ktc.ptr<i32> -> tensor<64x!ktc.ptr<i32>>
  %ps = ktc.addptr %pb, %offs : tensor<64x!ktc.ptr<i32>>, tensor<64xi32>
  %old = ktc.atomic_rmw add %ps, %offs, mask %m : tensor<64x!ktc.ptr<i32>>
  %ob = ktc.splat %out : !ktc.ptr<i32> -> tensor<64x!ktc.ptr<i32>>
  %os = ktc.addptr %ob, %offs : tensor<64x!ktc.ptr<i32>>, tensor<64xi32>
  ktc.store %os, %old, mask %m : tensor<64x!ktc.ptr<i32>>
  return
}

// -----

// Unused results still do their atomics; float max picks an unsigned min
// or a signed max of the bits by the sign; cas on f32 compares bits.
// CHECK-LABEL: func.func @scalars
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} monotonic
// CHECK: arith.cmpi slt
// CHECK: scf.if
// CHECK: llvm.atomicrmw umin
// CHECK: else
// CHECK: llvm.atomicrmw max
// CHECK: llvm.bitcast %{{.*}} : f32 to i32
// CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} release monotonic
// LLVM-LABEL: llvm.func @scalars
// LLVM: llvm.atomicrmw fadd
// LLVM: llvm.atomicrmw umin
// LLVM: llvm.atomicrmw max
// LLVM: llvm.cmpxchg
func.func @scalars(%p: !ktc.ptr<f32>, %x: f32) attributes {ktc.kernel} {
  %0 = ktc.atomic_rmw add %p, %x sem = relaxed : !ktc.ptr<f32>
  %1 = ktc.atomic_rmw max %p, %x : !ktc.ptr<f32>
  %2 = ktc.atomic_cas %p, %x, %1 sem = release : !ktc.ptr<f32>
  return
}
