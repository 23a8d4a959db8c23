// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=32" --cse --convert-ktc-to-llvm="target=sm_90 num-warps=4" | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=64" --cse --convert-ktc-to-llvm="target=gfx942 num-warps=4" | FileCheck %s --check-prefix=GFX942

// The shared memory a kernel declares for a tile changing layout (here: read
// along rows, stored along columns): the whole tile in its own element type
// (4 bytes an element for f32, 2 for f16, 8 for i64), laid out so that
// both access patterns spread over the banks (counted per target, among
// row paddings and XOR swizzles of the rows' chunks: scalar accesses here,
// nothing being known of these pointers' alignment). Up to 48 KiB it is a static array on every target; past
// that, on NVIDIA, an external (dynamic) one (Target/NVPTX/
// dynamic-shared.mlir). AMD's LDS is always static.

// 64 rows of 128 f32, swizzled: 32768 bytes on both.
// CHECK-NOT: llvm.module_asm
// CHECK: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
// CHECK-LABEL: func.func @f32_32k
// The swizzle: a row's chunk index XORed with the row's phase.
// CHECK: arith.xori
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// GFX942: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
// GFX942-LABEL: func.func @f32_32k
func.func @f32_32k(%x: !ktc.ptr<f32>, %o: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %c = ktc.arange 0, 128 : tensor<128xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %kc = arith.constant dense<128> : tensor<64x1xi32>
  %kr = arith.constant dense<64> : tensor<1x128xi32>
  %rs = arith.muli %r2, %kc : tensor<64x1xi32>
  %cs = arith.muli %c2, %kr : tensor<1x128xi32>
  %a = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x128xi32>
  %b = ktc.broadcast %c2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %in = arith.addi %a, %b : tensor<64x128xi32>
  %a2 = ktc.broadcast %r2 : tensor<64x1xi32> -> tensor<64x128xi32>
  %b2 = ktc.broadcast %cs : tensor<1x128xi32> -> tensor<64x128xi32>
  %out = arith.addi %a2, %b2 : tensor<64x128xi32>
  %px = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x128x!ktc.ptr<f32>>
  %qx = ktc.addptr %px, %in : tensor<64x128x!ktc.ptr<f32>>, tensor<64x128xi32>
  %v = ktc.load %qx : tensor<64x128x!ktc.ptr<f32>>
  %po = ktc.splat %o : !ktc.ptr<f32> -> tensor<64x128x!ktc.ptr<f32>>
  %qo = ktc.addptr %po, %out : tensor<64x128x!ktc.ptr<f32>>, tensor<64x128xi32>
  ktc.store %qo, %v : tensor<64x128x!ktc.ptr<f32>>
  return
}

// -----

// 64 rows of 128 f16: padded by 2 (16640 bytes) on both (a cycle serves
// at most 32 lanes, one a bank: 2-byte accesses cost what words do).
// CHECK-NOT: llvm.module_asm
// CHECK: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16640 x i8>
// CHECK-LABEL: func.func @f16_16k
// GFX942: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16640 x i8>
// GFX942-LABEL: func.func @f16_16k
func.func @f16_16k(%x: !ktc.ptr<f16>, %o: !ktc.ptr<f16>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %c = ktc.arange 0, 128 : tensor<128xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %kc = arith.constant dense<128> : tensor<64x1xi32>
  %kr = arith.constant dense<64> : tensor<1x128xi32>
  %rs = arith.muli %r2, %kc : tensor<64x1xi32>
  %cs = arith.muli %c2, %kr : tensor<1x128xi32>
  %a = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x128xi32>
  %b = ktc.broadcast %c2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %in = arith.addi %a, %b : tensor<64x128xi32>
  %a2 = ktc.broadcast %r2 : tensor<64x1xi32> -> tensor<64x128xi32>
  %b2 = ktc.broadcast %cs : tensor<1x128xi32> -> tensor<64x128xi32>
  %out = arith.addi %a2, %b2 : tensor<64x128xi32>
  %px = ktc.splat %x : !ktc.ptr<f16> -> tensor<64x128x!ktc.ptr<f16>>
  %qx = ktc.addptr %px, %in : tensor<64x128x!ktc.ptr<f16>>, tensor<64x128xi32>
  %v = ktc.load %qx : tensor<64x128x!ktc.ptr<f16>>
  %po = ktc.splat %o : !ktc.ptr<f16> -> tensor<64x128x!ktc.ptr<f16>>
  %qo = ktc.addptr %po, %out : tensor<64x128x!ktc.ptr<f16>>, tensor<64x128xi32>
  ktc.store %qo, %v : tensor<64x128x!ktc.ptr<f16>>
  return
}

// -----

// 32 rows of 128 i64, swizzled: 32768 bytes.
// CHECK-NOT: llvm.module_asm
// CHECK: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
// CHECK-LABEL: func.func @i64_32k
// GFX942: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
// GFX942-LABEL: func.func @i64_32k
func.func @i64_32k(%x: !ktc.ptr<i64>, %o: !ktc.ptr<i64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 32 : tensor<32xi32>
  %c = ktc.arange 0, 128 : tensor<128xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %kc = arith.constant dense<128> : tensor<32x1xi32>
  %kr = arith.constant dense<32> : tensor<1x128xi32>
  %rs = arith.muli %r2, %kc : tensor<32x1xi32>
  %cs = arith.muli %c2, %kr : tensor<1x128xi32>
  %a = ktc.broadcast %rs : tensor<32x1xi32> -> tensor<32x128xi32>
  %b = ktc.broadcast %c2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %in = arith.addi %a, %b : tensor<32x128xi32>
  %a2 = ktc.broadcast %r2 : tensor<32x1xi32> -> tensor<32x128xi32>
  %b2 = ktc.broadcast %cs : tensor<1x128xi32> -> tensor<32x128xi32>
  %out = arith.addi %a2, %b2 : tensor<32x128xi32>
  %px = ktc.splat %x : !ktc.ptr<i64> -> tensor<32x128x!ktc.ptr<i64>>
  %qx = ktc.addptr %px, %in : tensor<32x128x!ktc.ptr<i64>>, tensor<32x128xi32>
  %v = ktc.load %qx : tensor<32x128x!ktc.ptr<i64>>
  %po = ktc.splat %o : !ktc.ptr<i64> -> tensor<32x128x!ktc.ptr<i64>>
  %qo = ktc.addptr %po, %out : tensor<32x128x!ktc.ptr<i64>>, tensor<32x128xi32>
  ktc.store %qo, %v : tensor<32x128x!ktc.ptr<i64>>
  return
}
