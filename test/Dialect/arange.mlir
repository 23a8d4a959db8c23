// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @ranges
// CHECK-NEXT: ktc.arange 0, 1 : tensor<1xi32>
// CHECK-NEXT: ktc.arange 0, 1024 : tensor<1024xi32>
// CHECK-NEXT: ktc.arange 16, 32 : tensor<16xi32>
// CHECK-NEXT: ktc.arange -8, 8 : tensor<16xi32>
// CHECK-NEXT: ktc.arange 0, 16384 : tensor<16384xi32>
func.func @ranges() {
  %0 = ktc.arange 0, 1 : tensor<1xi32>
  %1 = ktc.arange 0, 1024 : tensor<1024xi32>
  %2 = ktc.arange 16, 32 : tensor<16xi32>
  %3 = ktc.arange -8, 8 : tensor<16xi32>
  %4 = ktc.arange 0, 16384 : tensor<16384xi32>
  return
}
