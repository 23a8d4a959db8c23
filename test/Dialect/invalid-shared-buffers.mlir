// RUN: ktc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{!ktc.shared needs slots of a 1-D to 3-D block (rank 2 to 4), not rank 1}}
func.func @rank(%b: !ktc.shared<4xf16>) { return }

// -----

// expected-error @+1 {{!ktc.shared holds i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2, not 'i1'}}
func.func @element(%b: !ktc.shared<2x16xi1>) { return }

// -----

// expected-error @+1 {{!ktc.shared dimensions must be in [1, 2^20], not 0}}
func.func @empty(%b: !ktc.shared<0x16xf16>) { return }

// -----

func.func @vec() {
  // expected-error @+1 {{vec must be a power of two in [1, 1024], not 3}}
  %b = ktc.local_alloc {vec = 3} : !ktc.shared<2x16x32xf16>
  return
}

// -----

func.func @swizzle_too_wide() {
  // expected-error @+1 {{swizzles chunks of 8 elements over 8 phases, which needs rows of at least 64 elements, not 32}}
  %b = ktc.local_alloc {vec = 8, max_phase = 8} : !ktc.shared<2x16x32xf16>
  return
}

// -----

func.func @pad_and_swizzle() {
  // expected-error @+1 {{pads or swizzles, not both}}
  %b = ktc.local_alloc {vec = 8, max_phase = 2, pad = 8} : !ktc.shared<2x16x32xf16>
  return
}

// -----

func.func @negative_pad() {
  // expected-error @+1 {{pad must be in [0, 1024], not -8}}
  %b = ktc.local_alloc {pad = -8} : !ktc.shared<2x16x32xf16>
  return
}

// -----

func.func @copy_shape(%p: tensor<16x16x!ktc.ptr<f16>>, %s: i32) {
  %b = ktc.local_alloc : !ktc.shared<2x16x32xf16>
  // expected-error @+1 {{the pointer block must have the slot's shape '!ktc.shared<2x16x32xf16>', got 'tensor<16x16x!ktc.ptr<f16>>'}}
  ktc.async_copy %p, %b[%s] : tensor<16x16x!ktc.ptr<f16>> -> !ktc.shared<2x16x32xf16>
  return
}

// -----

func.func @copy_element(%p: tensor<16x32x!ktc.ptr<f32>>, %s: i32) {
  %b = ktc.local_alloc : !ktc.shared<2x16x32xf16>
  // expected-error @+1 {{the pointer block must have the buffer's element type 'f16', got 'f32'}}
  ktc.async_copy %p, %b[%s] : tensor<16x32x!ktc.ptr<f32>> -> !ktc.shared<2x16x32xf16>
  return
}

// -----

func.func @copy_values(%p: tensor<16x32xf16>, %s: i32) {
  %b = ktc.local_alloc : !ktc.shared<2x16x32xf16>
  // expected-error @+1 {{copies through a block of pointers, got 'tensor<16x32xf16>'}}
  ktc.async_copy %p, %b[%s] : tensor<16x32xf16> -> !ktc.shared<2x16x32xf16>
  return
}

// -----

func.func @copy_mask(%p: tensor<16x32x!ktc.ptr<f16>>, %m: tensor<16x32xi32>, %s: i32) {
  %b = ktc.local_alloc : !ktc.shared<2x16x32xf16>
  // expected-error @+1 {{mask must be an i1 block of the pointers' shape, got 'tensor<16x32xi32>'}}
  ktc.async_copy %p, %b[%s], mask %m : tensor<16x32x!ktc.ptr<f16>>, tensor<16x32xi32> -> !ktc.shared<2x16x32xf16>
  return
}

// -----

func.func @read_shape(%s: i32) {
  %b = ktc.local_alloc : !ktc.shared<2x16x32xf16>
  // expected-error @+1 {{the result must have the slot's shape '!ktc.shared<2x16x32xf16>', got 'tensor<32x16xf16>'}}
  %x = ktc.local_load %b[%s] : !ktc.shared<2x16x32xf16> -> tensor<32x16xf16>
  return
}

// -----

func.func @negative_wait() {
  // expected-error @+1 {{'ktc.async_wait' op attribute 'pending' failed to satisfy constraint}}
  ktc.async_wait {pending = -1 : i32}
  return
}
