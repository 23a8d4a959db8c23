// RUN: ktc-opt %s -split-input-file --convert-ktc-to-host | FileCheck %s

// Kernels get the grid as six trailing i32 arguments; pointers become i64
// addresses; addptr scales the offset by the element size.
// CHECK-LABEL: func.func @grid_and_pointers
// CHECK-SAME: (%[[P:.*]]: i64, %[[I:.*]]: i32, %[[PX:[a-z0-9]+]]: i32, %[[PY:[a-z0-9]+]]: i32, %[[PZ:[a-z0-9]+]]: i32, %[[NX:[a-z0-9]+]]: i32, %[[NY:[a-z0-9]+]]: i32, %[[NZ:[a-z0-9]+]]: i32)
// CHECK-NOT: {{^ *(%[^ ]+ = )?ktc\.}}
// CHECK: %[[E:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK: %[[B:.*]] = arith.muli %[[E]], %{{.*}} : i64
// CHECK: %[[A:.*]] = arith.addi %[[P]], %[[B]] : i64
// CHECK: %[[S:.*]] = arith.addi %[[PY]], %[[NZ]] : i32
// CHECK: llvm.inttoptr %[[A]] : i64 to !llvm.ptr
// CHECK: llvm.store %[[S]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr
func.func @grid_and_pointers(%p: !ktc.ptr<i32>, %i: i32) attributes {ktc.kernel} {
  %q = ktc.addptr %p, %i : !ktc.ptr<i32>, i32
  %y = ktc.program_id 1 : i32
  %nz = ktc.num_programs 2 : i32
  %s = arith.addi %y, %nz : i32
  ktc.store %q, %s : !ktc.ptr<i32>
  return
}

// -----

// A masked block load is a linalg.generic whose body loads under scf.if and
// yields `other` elsewhere; arange is a generic over linalg.index.
// CHECK-LABEL: func.func @masked_load
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<64xi64>, tensor<64xi1>, tensor<64xf16>)
// CHECK: ^bb0(%[[ADDR:.*]]: i64, %[[M:.*]]: i1, %[[O:.*]]: f16, %{{.*}}: f16):
// CHECK: scf.if %[[M]] -> (f16)
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK: } else {
// CHECK: scf.yield %[[O]] : f16
func.func @masked_load(%p: !ktc.ptr<f16>, %n: i32, %o: f16) -> tensor<64xf16> {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %ps = ktc.splat %p : !ktc.ptr<f16> -> tensor<64x!ktc.ptr<f16>>
  %q = ktc.addptr %ps, %r : tensor<64x!ktc.ptr<f16>>, tensor<64xi32>
  %nb = ktc.splat %n : i32 -> tensor<64xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<64xi32>
  %ob = ktc.splat %o : f16 -> tensor<64xf16>
  %x = ktc.load %q, mask %m, other %ob : tensor<64x!ktc.ptr<f16>>
  return %x : tensor<64xf16>
}

// -----

// A block store is a loop nest over the elements.
// CHECK-LABEL: func.func @store_2d
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK: tensor.extract %{{.*}}[%[[I]], %[[J]]] : tensor<4x8xi64>
// CHECK: tensor.extract %{{.*}}[%[[I]], %[[J]]] : tensor<4x8xf32>
// CHECK: llvm.store
func.func @store_2d(%p: tensor<4x8x!ktc.ptr<f32>>, %v: tensor<4x8xf32>) {
  ktc.store %p, %v : tensor<4x8x!ktc.ptr<f32>>
  return
}

// -----

// Reductions are linalg.reduce from the combiner's identity (NaN for
// maxnum/minnum, -0 for a float sum); a 1-D block reduces to a 0-d tensor,
// then a scalar. expand_dims is expand_shape, broadcast a generic with a
// constant index.
// CHECK: #[[BMAP:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @reductions
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: linalg.fill ins(%[[NAN]] : f32) outs(%{{.*}} : tensor<f32>)
// CHECK: linalg.reduce ins(%{{.*}} : tensor<16xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0]
// CHECK: arith.maxnumf
// CHECK: tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 16]
// CHECK: linalg.generic {indexing_maps = [#[[BMAP]], {{.*}}ins(%{{.*}} : tensor<1x16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK: %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[NEGZERO]] : f32) outs(%{{.*}} : tensor<8xf32>)
// CHECK: linalg.reduce ins(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}} : tensor<8xf32>) dimensions = [1]
// CHECK: arith.addf
func.func @reductions(%x: tensor<16xf32>) -> (f32, tensor<8xf32>) {
  %m = ktc.reduce max %x axis = 0 : tensor<16xf32> -> f32
  %e = ktc.expand_dims %x axis = 0 : tensor<16xf32> -> tensor<1x16xf32>
  %b = ktc.broadcast %e : tensor<1x16xf32> -> tensor<8x16xf32>
  %s = ktc.reduce sum %b axis = 1 : tensor<8x16xf32> -> tensor<8xf32>
  return %m, %s : f32, tensor<8xf32>
}

// -----

// Pointers flowing through scf.for and arith.select are retyped with them.
// CHECK-LABEL: func.func @carried_pointers
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<8xi64>)
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xi64>
func.func @carried_pointers(%p: tensor<8x!ktc.ptr<f32>>, %n: i32, %c: i1) -> tensor<8x!ktc.ptr<f32>> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (tensor<8x!ktc.ptr<f32>>) : i32 {
    %s = ktc.splat %i : i32 -> tensor<8xi32>
    %q2 = ktc.addptr %q, %s : tensor<8x!ktc.ptr<f32>>, tensor<8xi32>
    %q3 = arith.select %c, %q2, %q : i1, tensor<8x!ktc.ptr<f32>>
    scf.yield %q3 : tensor<8x!ktc.ptr<f32>>
  }
  return %r : tensor<8x!ktc.ptr<f32>>
}
