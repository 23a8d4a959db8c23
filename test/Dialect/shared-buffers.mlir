// RUN: ktc-opt %s | ktc-opt | FileCheck %s
// RUN: ktc-opt %s --mlir-print-op-generic | ktc-opt | FileCheck %s

// A buffer of 2 slots, filled by an asynchronous copy (masked), committed,
// waited for and read back as a block.
// CHECK-LABEL: func.func @buffers
// CHECK: %[[BUF:.*]] = ktc.local_alloc {max_phase = 4 : i64, vec = 8 : i64} : <2x16x32xf16>
// CHECK: %[[PADDED:.*]] = ktc.local_alloc {pad = 8 : i64} : <3x64xf32>
// CHECK: ktc.async_copy %{{.*}}, %[[BUF]][%{{.*}}], mask %{{.*}} : tensor<16x32x!ktc.ptr<f16>>, tensor<16x32xi1> -> <2x16x32xf16>
// CHECK: ktc.async_copy %{{.*}}, %[[PADDED]][%{{.*}}] : tensor<64x!ktc.ptr<f32>> -> <3x64xf32>
// CHECK: ktc.async_commit
// CHECK: ktc.async_wait {pending = 0 : i32}
// CHECK: ktc.local_load %[[BUF]][%{{.*}}] : <2x16x32xf16> -> tensor<16x32xf16>
func.func @buffers(%p: tensor<16x32x!ktc.ptr<f16>>, %m: tensor<16x32xi1>,
                   %q: tensor<64x!ktc.ptr<f32>>, %slot: i32) -> tensor<16x32xf16> {
  %buf = ktc.local_alloc {vec = 8, max_phase = 4} : !ktc.shared<2x16x32xf16>
  %padded = ktc.local_alloc {pad = 8} : !ktc.shared<3x64xf32>
  ktc.async_copy %p, %buf[%slot], mask %m : tensor<16x32x!ktc.ptr<f16>>, tensor<16x32xi1> -> !ktc.shared<2x16x32xf16>
  ktc.async_copy %q, %padded[%slot] : tensor<64x!ktc.ptr<f32>> -> !ktc.shared<3x64xf32>
  ktc.async_commit
  ktc.async_wait {pending = 0 : i32}
  %x = ktc.local_load %buf[%slot] : !ktc.shared<2x16x32xf16> -> tensor<16x32xf16>
  return %x : tensor<16x32xf16>
}
