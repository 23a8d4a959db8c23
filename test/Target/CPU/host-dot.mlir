// ktc.dot on the host: each operand widened (or tf32-rounded) once, by a
// linalg.map that elementwise fusion leaves alone (its loads stay out of the
// dot too); then tiles of 4 rows x 16 columns of acc (fewer where the block
// is narrower) in vector registers, fma'd with a[m, k] splat and b[k, n0 :
// n0 + 16] for k from 0 up: each element's chain of fmas in the documented
// order, as llvm.intr.fma (never fmuladd, which may round twice).
// RUN: ktc-opt %s --convert-ktc-to-host --canonicalize | FileCheck %s
// RUN: ktc-opt %S/../Inputs/dot.mlir --convert-ktc-to-host --canonicalize --convert-elementwise-to-linalg --linalg-fuse-elementwise-ops --canonicalize | FileCheck %s --check-prefix=FUSED
// RUN: ktc-opt %S/../Inputs/dot.mlir --ktc-host-pipeline | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @dot_f16
// CHECK: linalg.map { arith.extf } ins(%arg0 : tensor<8x4xf16>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: linalg.map { arith.extf } ins(%arg1 : tensor<4x32xf16>) outs(%{{.*}} : tensor<4x32xf32>)
// CHECK: scf.for %[[M:.*]] = %c0 to %c8 step %c4 iter_args
// CHECK: scf.for %[[N:.*]] = %c0 to %c32 step %c16 iter_args(%[[C:.*]] = %{{.*}}) -> (tensor<8x32xf32>)
// CHECK-COUNT-4: vector.transfer_read %[[C]][%{{.*}}, %[[N]]]{{.*}} : tensor<8x32xf32>, vector<16xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c4 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-NOT: arith.extf
// CHECK: %[[ROW:.*]] = vector.transfer_read %{{.*}}[%[[K]], %[[N]]]{{.*}} : tensor<4x32xf32>, vector<16xf32>
// CHECK-COUNT-4: math.fma %{{.*}}, %[[ROW]], %{{.*}} : vector<16xf32>
// CHECK: scf.yield
// CHECK-COUNT-4: vector.transfer_write
func.func @dot_f16(%a: tensor<8x4xf16>, %b: tensor<4x32xf16>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %d = ktc.dot %a, %b, %c : tensor<8x4xf16>, tensor<4x32xf16> -> tensor<8x32xf32>
  return %d : tensor<8x32xf32>
}

// A 2 x 8 block: one tile of 2 rows x 8 columns; tf32 rounding in the map.
// CHECK-LABEL: func.func @dot_tf32
// CHECK: linalg.map ins(%arg0 : tensor<2x4xf32>)
// CHECK: arith.andi %{{.*}}, %c-8192_i32
// CHECK: linalg.map ins(%arg1 : tensor<4x8xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>)
// CHECK-NOT: arith.andi
// CHECK-COUNT-2: math.fma %{{.*}} : vector<8xf32>
func.func @dot_tf32(%a: tensor<2x4xf32>, %b: tensor<4x8xf32>, %c: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %d = ktc.dot %a, %b, %c input_precision = tf32 : tensor<2x4xf32>, tensor<4x8xf32> -> tensor<2x8xf32>
  return %d : tensor<2x8xf32>
}

// FUSED-LABEL: func.func @dot_f16
// FUSED: llvm.load
// FUSED: llvm.load
// FUSED: linalg.map { arith.extf }
// FUSED: linalg.map { arith.extf }
// FUSED: -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// FUSED-NOT: llvm.load
// FUSED: math.fma
// FUSED: scf.yield

// LLVM-NOT: fmuladd
// LLVM-LABEL: llvm.func @dot_f16
// LLVM: llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// LLVM-LABEL: llvm.func @dot_bf16
// LLVM: llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// LLVM-LABEL: llvm.func @dot_f32
// LLVM: llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// LLVM-LABEL: llvm.func @dot_tf32
// LLVM: llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// LLVM-NOT: fmuladd
