// RUN: ktc-opt %s -split-input-file --convert-ktc-to-host | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-host-pipeline | FileCheck %s --check-prefix=LLVM

// A block's assembly is one loop over its elements, `pack` at a time
// (scf.for, never a linalg op that could be fused or dropped): the host
// entry, four i8 packed into an i32 (element k in bits 8k..8k+7), the
// results unpacked into a buffer read back as the result.
// CHECK-LABEL: func.func @bytes
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<64xi8>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK-COUNT-4: tensor.extract
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.shli
// CHECK: arith.ori
// CHECK: llvm.inline_asm asm_dialect = att "andl $$0x1f1f1f1f, $0", "=r,0" %{{.*}} : (i32) -> i32
// CHECK: arith.shrui
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK-COUNT-4: memref.store %{{.*}}, %[[OUT]]
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NOT: ktc.
// LLVM-LABEL: llvm.func @bytes
// LLVM: llvm.inline_asm asm_dialect = att "andl $$0x1f1f1f1f, $0", "=r,0"
// LLVM-NOT: scf.
func.func @bytes(%x: !ktc.ptr<i8>) attributes {ktc.kernel} {
  %offs = ktc.arange 0, 64 : tensor<64xi32>
  %xb = ktc.splat %x : !ktc.ptr<i8> -> tensor<64x!ktc.ptr<i8>>
  %xp = ktc.addptr %xb, %offs : tensor<64x!ktc.ptr<i8>>, tensor<64xi32>
  %v = ktc.load %xp : tensor<64x!ktc.ptr<i8>>
  %w = ktc.inline_asm_elementwise %v pack 4 pure asm {
      host = ["andl $$0x1f1f1f1f, $0", "=r,0"],
      nvptx = ["and.b32 $0, $1, 0x1F1F1F1F;", "=r,r"]} : (tensor<64xi8>) -> tensor<64xi8>
  ktc.store %xp, %w : tensor<64x!ktc.ptr<i8>>
  return
}

// -----

// Two results of a 2-D block (a loop over its 32 elements, the results
// expanded back), with effects (no `pure`): has_side_effects. The "any"
// entry serves the host.
// CHECK-LABEL: func.func @pair(
func.func @pair(%p: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 8 : tensor<8xi32>
  %row = ktc.expand_dims %r axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %o = ktc.broadcast %row : tensor<1x8xi32> -> tensor<4x8xi32>
  %pb = ktc.splat %p : !ktc.ptr<i32> -> tensor<4x8x!ktc.ptr<i32>>
  %pp = ktc.addptr %pb, %o : tensor<4x8x!ktc.ptr<i32>>, tensor<4x8xi32>
  %a = ktc.load %pp : tensor<4x8x!ktc.ptr<i32>>
  %0:2 = ktc.inline_asm_elementwise %a, %o pack 1 asm {any = ["movl $2, $0", "=&r,=&r,r,r"]} : (tensor<4x8xi32>, tensor<4x8xi32>) -> (tensor<4x8xi32>, tensor<4x8xi32>)
  ktc.store %pp, %0#0 : tensor<4x8x!ktc.ptr<i32>>
  ktc.store %pp, %0#1 : tensor<4x8x!ktc.ptr<i32>>
  return
}
