// RUN: ktc-opt %s -split-input-file -verify-diagnostics

// Type mismatches can only be written in the generic form.

func.func @rmw_value_type(%p: tensor<128x!ktc.ptr<i32>>, %v: tensor<128xi64>) {
  // expected-error @+1 {{'ktc.atomic_rmw' op value must have type 'tensor<128xi32>' (the pointee type in the pointer shape), got 'tensor<128xi64>'}}
  %0 = "ktc.atomic_rmw"(%p, %v) <{kind = #ktc<atomic_kind add>}> : (tensor<128x!ktc.ptr<i32>>, tensor<128xi64>) -> tensor<128xi64>
  return
}

// -----

func.func @rmw_value_shape(%p: tensor<128x!ktc.ptr<i32>>, %v: i32) {
  // expected-error @+1 {{'ktc.atomic_rmw' op value must have type 'tensor<128xi32>'}}
  %0 = "ktc.atomic_rmw"(%p, %v) <{kind = #ktc<atomic_kind add>}> : (tensor<128x!ktc.ptr<i32>>, i32) -> i32
  return
}

// -----

func.func @rmw_result_type(%p: tensor<128x!ktc.ptr<i32>>, %v: tensor<128xi32>) {
  // expected-error @+1 {{'ktc.atomic_rmw' op result type must be 'tensor<128xi32>', got 'tensor<128xf32>'}}
  %0 = "ktc.atomic_rmw"(%p, %v) <{kind = #ktc<atomic_kind add>}> : (tensor<128x!ktc.ptr<i32>>, tensor<128xi32>) -> tensor<128xf32>
  return
}

// -----

func.func @rmw_mask_shape(%p: tensor<128x!ktc.ptr<i32>>, %v: tensor<128xi32>, %m: tensor<64xi1>) {
  // expected-error @+1 {{'ktc.atomic_rmw' op mask shape (64) must match the pointer shape (128)}}
  %0 = "ktc.atomic_rmw"(%p, %v, %m) <{kind = #ktc<atomic_kind add>}> : (tensor<128x!ktc.ptr<i32>>, tensor<128xi32>, tensor<64xi1>) -> tensor<128xi32>
  return
}

// -----

func.func @rmw_scalar_mask(%p: !ktc.ptr<i32>, %v: i32, %m: tensor<1xi1>) {
  // expected-error @+1 {{'ktc.atomic_rmw' op mask shape (1) must match the pointer shape (scalar)}}
  %0 = "ktc.atomic_rmw"(%p, %v, %m) <{kind = #ktc<atomic_kind add>}> : (!ktc.ptr<i32>, i32, tensor<1xi1>) -> i32
  return
}

// -----

func.func @rmw_and_float(%p: tensor<16x!ktc.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'ktc.atomic_rmw' op atomic and does not take 'f32' elements (add, max, min, xchg: i32, i64, f32; and, or, xor, umax, umin: i32, i64)}}
  %0 = ktc.atomic_rmw and %p, %v : tensor<16x!ktc.ptr<f32>>
  return
}

// -----

func.func @rmw_umax_float(%p: !ktc.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'ktc.atomic_rmw' op atomic umax does not take 'f32' elements}}
  %0 = ktc.atomic_rmw umax %p, %v : !ktc.ptr<f32>
  return
}

// -----

func.func @rmw_add_half(%p: tensor<16x!ktc.ptr<f16>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{'ktc.atomic_rmw' op atomic add does not take 'f16' elements}}
  %0 = ktc.atomic_rmw add %p, %v : tensor<16x!ktc.ptr<f16>>
  return
}

// -----

func.func @rmw_max_bf16(%p: !ktc.ptr<bf16>, %v: bf16) {
  // expected-error @+1 {{'ktc.atomic_rmw' op atomic max does not take 'bf16' elements}}
  %0 = ktc.atomic_rmw max %p, %v : !ktc.ptr<bf16>
  return
}

// -----

func.func @rmw_bad_kind(%p: !ktc.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected atomic kind add, max, min, umax, umin, xchg, and, or or xor, got 'mul'}}
  %0 = ktc.atomic_rmw mul %p, %v : !ktc.ptr<i32>
  return
}

// -----

func.func @rmw_bad_sem(%p: !ktc.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected sem relaxed, acquire, release or acq_rel, got 'seq_cst'}}
  %0 = ktc.atomic_rmw add %p, %v sem = seq_cst : !ktc.ptr<i32>
  return
}

// -----

func.func @rmw_bad_scope(%p: !ktc.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected scope gpu, cta or sys, got 'warp'}}
  %0 = ktc.atomic_rmw add %p, %v scope = warp : !ktc.ptr<i32>
  return
}

// -----

func.func @rmw_not_pointer(%p: i32, %v: i32) {
  // expected-error @+1 {{expected !ktc.ptr or a block of !ktc.ptr, got 'i32'}}
  %0 = ktc.atomic_rmw add %p, %v : i32
  return
}

// -----

func.func @cas_compare_type(%p: !ktc.ptr<i32>, %c: i64, %v: i32) {
  // expected-error @+1 {{'ktc.atomic_cas' op compare value must have type 'i32' (the pointee type in the pointer shape), got 'i64'}}
  %0 = "ktc.atomic_cas"(%p, %c, %v) : (!ktc.ptr<i32>, i64, i32) -> i32
  return
}

// -----

func.func @cas_mask_shape(%p: tensor<8x!ktc.ptr<i32>>, %c: tensor<8xi32>, %m: tensor<4xi1>) {
  // expected-error @+1 {{'ktc.atomic_cas' op mask shape (4) must match the pointer shape (8)}}
  %0 = "ktc.atomic_cas"(%p, %c, %c, %m) : (tensor<8x!ktc.ptr<i32>>, tensor<8xi32>, tensor<8xi32>, tensor<4xi1>) -> tensor<8xi32>
  return
}

// -----

func.func @cas_half(%p: !ktc.ptr<f16>, %c: f16) {
  // expected-error @+1 {{'ktc.atomic_cas' op atomic cas does not take 'f16' elements (i32, i64, f32)}}
  %0 = ktc.atomic_cas %p, %c, %c : !ktc.ptr<f16>
  return
}
