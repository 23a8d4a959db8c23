// ktc-host-expand-half-floats: 16-bit float math in f32, and conversions as
// integer code (no fptrunc/fpext to half or bfloat reaches LLVM).
// RUN: ktc-opt --ktc-host-expand-half-floats --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @trunc_bf16
// CHECK-NOT: arith.truncf
// CHECK-DAG: arith.constant 32767 : i32
// CHECK-DAG: arith.constant 2139095040 : i32
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.cmpi ugt
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @trunc_bf16(%x: f32) -> bf16 {
  %0 = arith.truncf %x : f32 to bf16
  return %0 : bf16
}

// -----

// f16 keeps its subnormals: |x| + 0.5 rounds them in the FPU.
// CHECK-LABEL: func.func @trunc_f16
// CHECK-NOT: arith.truncf
// CHECK-DAG: arith.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK-DAG: arith.constant dense<1199566848> : tensor<4xi32>
// CHECK: arith.addf
// CHECK: arith.bitcast %{{.*}} : tensor<4xi16> to tensor<4xf16>
func.func @trunc_f16(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = arith.truncf %x : tensor<4xf32> to tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// CHECK-LABEL: func.func @ext
// CHECK-NOT: arith.extf
// CHECK: arith.shli
// CHECK: arith.uitofp
func.func @ext(%b: bf16, %h: f16) -> (f32, f32) {
  %0 = arith.extf %b : bf16 to f32
  %1 = arith.extf %h : f16 to f32
  return %0, %1 : f32, f32
}

// -----

// Arithmetic, comparisons and math on 16-bit floats compute in f32.
// CHECK-LABEL: func.func @math
// CHECK-NOT: {{(addf|mulf|cmpf|math.exp).*(bf16|f16)$}}
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK: math.exp %{{.*}} : f32
// CHECK: return
func.func @math(%a: bf16, %b: bf16, %h: f16) -> (bf16, i1, f16) {
  %0 = arith.addf %a, %b : bf16
  %1 = arith.cmpf olt, %a, %b : bf16
  %2 = math.exp %h : f16
  return %0, %1, %2 : bf16, i1, f16
}

// -----

// Selects and constants move bits: left alone.
// CHECK-LABEL: func.func @moves
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : bf16
func.func @moves(%c: i1, %a: bf16) -> bf16 {
  %k = arith.constant 1.5 : bf16
  %0 = arith.select %c, %a, %k : bf16
  return %0 : bf16
}
