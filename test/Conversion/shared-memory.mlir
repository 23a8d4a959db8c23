// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=32" --convert-ktc-to-llvm="target=sm_90 num-warps=4" | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=64" --convert-ktc-to-llvm="target=gfx942 num-warps=4" | FileCheck %s --check-prefix=GFX942

// The shared memory a kernel declares: a 2-D reduction keeps its block in
// the type it computes in (4 bytes an element for f32, f16 and i32; 8 for
// i64), an expand_dims or broadcast its source block. Up to 48 KiB it is a
// static array on every target; past that, on NVIDIA, an external (dynamic)
// one, with the size in a module-level comment for the launch
// (lib/Conversion/SharedMemory.h). AMD's LDS is always static.

// 64x128 f32: 32768 bytes (8 an element before: 65536, refused).
// CHECK-NOT: llvm.module_asm
// CHECK: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
// CHECK-LABEL: func.func @f32_32k
// GFX942: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
func.func @f32_32k(%x: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %c = ktc.arange 0, 128 : tensor<128xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %stride = arith.constant dense<128> : tensor<64x1xi32>
  %rs = arith.muli %r2, %stride : tensor<64x1xi32>
  %rb = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x128xi32>
  %cb = ktc.broadcast %c2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %offs = arith.addi %rb, %cb : tensor<64x128xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x128x!ktc.ptr<f32>>
  %p = ktc.addptr %xb, %offs : tensor<64x128x!ktc.ptr<f32>>, tensor<64x128xi32>
  %tile = ktc.load %p : tensor<64x128x!ktc.ptr<f32>>
  %s = ktc.reduce sum %tile axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<64x!ktc.ptr<f32>>
  %o = ktc.addptr %ob, %r : tensor<64x!ktc.ptr<f32>>, tensor<64xi32>
  ktc.store %o, %s : tensor<64x!ktc.ptr<f32>>
  return
}

// -----

// f16 reduces in f32: 4 bytes an element, 32768.
// CHECK: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
// CHECK-LABEL: func.func @f16_32k
// GFX942: !llvm.array<32768 x i8>
func.func @f16_32k(%x: !ktc.ptr<f16>, %out: !ktc.ptr<f16>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %c = ktc.arange 0, 128 : tensor<128xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %stride = arith.constant dense<128> : tensor<64x1xi32>
  %rs = arith.muli %r2, %stride : tensor<64x1xi32>
  %rb = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x128xi32>
  %cb = ktc.broadcast %c2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %offs = arith.addi %rb, %cb : tensor<64x128xi32>
  %xb = ktc.splat %x : !ktc.ptr<f16> -> tensor<64x128x!ktc.ptr<f16>>
  %p = ktc.addptr %xb, %offs : tensor<64x128x!ktc.ptr<f16>>, tensor<64x128xi32>
  %tile = ktc.load %p : tensor<64x128x!ktc.ptr<f16>>
  %s = ktc.reduce sum %tile axis = 1 : tensor<64x128xf16> -> tensor<64xf16>
  %ob = ktc.splat %out : !ktc.ptr<f16> -> tensor<64x!ktc.ptr<f16>>
  %o = ktc.addptr %ob, %r : tensor<64x!ktc.ptr<f16>>, tensor<64xi32>
  ktc.store %o, %s : tensor<64x!ktc.ptr<f16>>
  return
}

// -----

// i64 reduces in i64: 8 bytes an element, 32768 for 32x128.
// CHECK: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
// CHECK-LABEL: func.func @i64_32k
// GFX942: !llvm.array<32768 x i8>
func.func @i64_32k(%x: !ktc.ptr<i64>, %out: !ktc.ptr<i64>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 32 : tensor<32xi32>
  %c = ktc.arange 0, 128 : tensor<128xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %stride = arith.constant dense<128> : tensor<32x1xi32>
  %rs = arith.muli %r2, %stride : tensor<32x1xi32>
  %rb = ktc.broadcast %rs : tensor<32x1xi32> -> tensor<32x128xi32>
  %cb = ktc.broadcast %c2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %offs = arith.addi %rb, %cb : tensor<32x128xi32>
  %xb = ktc.splat %x : !ktc.ptr<i64> -> tensor<32x128x!ktc.ptr<i64>>
  %p = ktc.addptr %xb, %offs : tensor<32x128x!ktc.ptr<i64>>, tensor<32x128xi32>
  %tile = ktc.load %p : tensor<32x128x!ktc.ptr<i64>>
  %s = ktc.reduce sum %tile axis = 1 : tensor<32x128xi64> -> tensor<32xi64>
  %ob = ktc.splat %out : !ktc.ptr<i64> -> tensor<32x!ktc.ptr<i64>>
  %o = ktc.addptr %ob, %r : tensor<32x!ktc.ptr<i64>>, tensor<32xi32>
  ktc.store %o, %s : tensor<32x!ktc.ptr<i64>>
  return
}

// -----

// 64x256 f32: 65536 bytes. sm_90: dynamic, the size for the launch in the
// module. gfx942: static, exactly its 64 KiB of LDS.
// CHECK: module attributes {llvm.module_asm = ["// ktc.dynamic_shared_bytes 65536"]}
// CHECK: llvm.mlir.global external @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: func.func @f32_64k
// GFX942-NOT: llvm.module_asm
// GFX942: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<65536 x i8>
func.func @f32_64k(%x: !ktc.ptr<f32>, %out: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 64 : tensor<64xi32>
  %c = ktc.arange 0, 256 : tensor<256xi32>
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = ktc.expand_dims %c axis = 0 : tensor<256xi32> -> tensor<1x256xi32>
  %stride = arith.constant dense<256> : tensor<64x1xi32>
  %rs = arith.muli %r2, %stride : tensor<64x1xi32>
  %rb = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x256xi32>
  %cb = ktc.broadcast %c2 : tensor<1x256xi32> -> tensor<64x256xi32>
  %offs = arith.addi %rb, %cb : tensor<64x256xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x256x!ktc.ptr<f32>>
  %p = ktc.addptr %xb, %offs : tensor<64x256x!ktc.ptr<f32>>, tensor<64x256xi32>
  %tile = ktc.load %p : tensor<64x256x!ktc.ptr<f32>>
  %s = ktc.reduce max %tile axis = 1 : tensor<64x256xf32> -> tensor<64xf32>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<64x!ktc.ptr<f32>>
  %o = ktc.addptr %ob, %r : tensor<64x!ktc.ptr<f32>>, tensor<64xi32>
  ktc.store %o, %s : tensor<64x!ktc.ptr<f32>>
  return
}
