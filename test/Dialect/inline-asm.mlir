// RUN: ktc-opt %s | ktc-opt | FileCheck %s
// RUN: ktc-opt %s -mlir-print-op-generic | ktc-opt | FileCheck %s
// RUN: ktc-opt %s -canonicalize | FileCheck %s --check-prefix=CANON

// One result, four i8 a register, an entry per target.
// CHECK-LABEL: func.func @packed_i8
// CHECK: ktc.inline_asm_elementwise %{{.*}} pack 4 pure asm {amdgpu = ["v_perm_b32 $0, $1, $1, 0x00010203", "=v,v"], host = ["bswapl $0", "=r,0"], nvptx = ["prmt.b32 $0, $1, 0, 0x0123;", "=r,r"]} : (tensor<256xi8>) -> tensor<256xi8>
func.func @packed_i8(%x: tensor<256xi8>) -> tensor<256xi8> {
  %0 = ktc.inline_asm_elementwise %x pack 4 pure asm {
      host = ["bswapl $0", "=r,0"],
      nvptx = ["prmt.b32 $0, $1, 0, 0x0123;", "=r,r"],
      amdgpu = ["v_perm_b32 $0, $1, $1, 0x00010203", "=v,v"]}
      : (tensor<256xi8>) -> tensor<256xi8>
  return %0 : tensor<256xi8>
}

// Two results and two operands; scalars; no operands.
// CHECK-LABEL: func.func @two_results
// CHECK: %{{.*}}:2 = ktc.inline_asm_elementwise %{{.*}}, %{{.*}} pack 1 asm {any = ["", "=r,=r,r,r"]} : (tensor<4x8xi32>, tensor<4x8xi32>) -> (tensor<4x8xi32>, tensor<4x8xf32>)
func.func @two_results(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> (tensor<4x8xi32>, tensor<4x8xf32>) {
  %0:2 = ktc.inline_asm_elementwise %a, %b pack 1 asm {any = ["", "=r,=r,r,r"]} : (tensor<4x8xi32>, tensor<4x8xi32>) -> (tensor<4x8xi32>, tensor<4x8xf32>)
  return %0#0, %0#1 : tensor<4x8xi32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @scalars
// CHECK: ktc.inline_asm_elementwise %{{.*}} pack 1 pure asm {host = ["addss $1, $0", "=x,x,0"]} : (f32, f32) -> f32
// CHECK: ktc.inline_asm_elementwise pack 1 asm {nvptx = ["mov.u32 $0, %clock;", "=r"]} : () -> i32
func.func @scalars(%x: f32) -> (f32, i32) {
  %0 = ktc.inline_asm_elementwise %x, %x pack 1 pure asm {host = ["addss $1, $0", "=x,x,0"]} : (f32, f32) -> f32
  %1 = ktc.inline_asm_elementwise pack 1 asm {nvptx = ["mov.u32 $0, %clock;", "=r"]} : () -> i32
  return %0, %1 : f32, i32
}

// A pure one whose result is unused goes; one with effects stays.
// CANON-LABEL: func.func @unused
// CANON-NEXT: ktc.inline_asm_elementwise %{{.*}} pack 2 asm
// CANON-NEXT: return
func.func @unused(%x: tensor<16xf16>) {
  %0 = ktc.inline_asm_elementwise %x pack 2 pure asm {any = ["mov.b32 $0, $1;", "=r,r"]} : (tensor<16xf16>) -> tensor<16xf16>
  %1 = ktc.inline_asm_elementwise %x pack 2 asm {any = ["mov.b32 $0, $1;", "=r,r"]} : (tensor<16xf16>) -> tensor<16xf16>
  return
}
