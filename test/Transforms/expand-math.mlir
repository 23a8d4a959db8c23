// ktc-expand-math: exp/exp2/log/log2 become exactly rounded f32 operations
// (the same bits on every target); the afn forms (fast_exp...) stay for the
// target's approximate instructions.
// RUN: ktc-opt --ktc-expand-math --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @exact
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK: math.fma
// CHECK: arith.divf
// CHECK: return
func.func @exact(%x: tensor<64xf32>, %h: f16) -> (tensor<64xf32>, tensor<64xf32>, f16, tensor<64xf32>) {
  %a = math.exp %x : tensor<64xf32>
  %b = math.log %x : tensor<64xf32>
  %c = math.exp2 %h : f16
  %d = math.log2 %x : tensor<64xf32>
  return %a, %b, %c, %d : tensor<64xf32>, tensor<64xf32>, f16, tensor<64xf32>
}

// -----

// CHECK-LABEL: func.func @fast
// CHECK: math.exp %{{.*}} fastmath<afn> : tensor<64xf32>
// CHECK: math.log2 %{{.*}} fastmath<afn> : tensor<64xf32>
func.func @fast(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %a = math.exp %x fastmath<afn> : tensor<64xf32>
  %b = math.log2 %x fastmath<afn> : tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

