// RUN: ktc-opt %s --convert-ktc-to-host | FileCheck %s

// ktc.reduce_with on the host: a linalg.reduce whose body is the combine
// region (partial first, element second); a copy of the first slice along
// the axis is the init (a tensor of its own: the slice itself would be
// written in place, a strided memref.copy) and the rest is reduced into it
// (a combine has no identity).
// CHECK-LABEL: func.func @k
// CHECK: %[[S0:.*]] = tensor.extract_slice %arg0[0, 0] [4, 1] [1, 1] : tensor<4x8xf32> to tensor<4xf32>
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[I0:.*]] = linalg.copy ins(%[[S0]] : tensor<4xf32>) outs(%[[E0]] : tensor<4xf32>)
// CHECK: %[[X:.*]] = tensor.extract_slice %arg0[0, 1] [4, 7] [1, 1] : tensor<4x8xf32> to tensor<4x7xf32>
// CHECK: %[[S1:.*]] = tensor.extract_slice %arg1[0, 0] [4, 1] [1, 1] : tensor<4x8xi32> to tensor<4xi32>
// CHECK: %[[I1:.*]] = linalg.copy ins(%[[S1]]
// CHECK: %[[K:.*]] = tensor.extract_slice %arg1[0, 1] [4, 7] [1, 1] : tensor<4x8xi32> to tensor<4x7xi32>
// CHECK: linalg.reduce ins(%[[X]], %[[K]] : tensor<4x7xf32>, tensor<4x7xi32>) outs(%[[I0]], %[[I1]] : tensor<4xf32>, tensor<4xi32>) dimensions = [1]
// CHECK-NEXT: (%[[IN:.*]]: f32, %[[INK:.*]]: i32, %[[ACC:.*]]: f32, %[[ACCK:.*]]: i32) {
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: arith.select %[[GT]], %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: arith.select %[[GT]], %[[ACCK]], %[[INK]] : i32
// A 1-D block: a 0-d init, the scalar extracted.
// CHECK: tensor.extract_slice %arg2[0] [1] [1] : tensor<16xi32> to tensor<i32>
// CHECK: tensor.extract_slice %arg2[1] [15] [1] : tensor<16xi32> to tensor<15xi32>
// CHECK: linalg.reduce { arith.xori }
// CHECK: tensor.extract %{{.*}}[] : tensor<i32>
// A block of one element along the axis: the slice itself, no reduce.
// CHECK: tensor.extract_slice %arg3[0, 0] [1, 4] [1, 1] : tensor<1x4xi32> to tensor<4xi32>
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: %[[ONE:.*]] = linalg.copy
// CHECK-NOT: linalg.reduce
// CHECK: return %{{.*}}, %{{.*}}, %[[ONE]]
func.func @k(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %y: tensor<16xi32>, %z: tensor<1x4xi32>) -> (tensor<4xi32>, i32, tensor<4xi32>) {
  %v, %k = ktc.reduce_with %x, %i axis = 1 : tensor<4x8xf32>, tensor<4x8xi32> -> tensor<4xf32>, tensor<4xi32> {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %rv = arith.select %gt, %a, %b : f32
    %rk = arith.select %gt, %ai, %bi : i32
    ktc.reduce_return %rv, %rk : f32, i32
  }
  %s = ktc.reduce_with %y axis = 0 : tensor<16xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    %t = arith.xori %a, %b : i32
    ktc.reduce_return %t : i32
  }
  %o = ktc.reduce_with %z axis = 0 : tensor<1x4xi32> -> tensor<4xi32> {
  ^bb0(%a: i32, %b: i32):
    %t = arith.xori %a, %b : i32
    ktc.reduce_return %t : i32
  }
  return %k, %s, %o : tensor<4xi32>, i32, tensor<4xi32>
}
