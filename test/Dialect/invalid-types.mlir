// RUN: ktc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{!ktc.ptr must point to i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2, not 'i1'}}
func.func @pointee_i1(%p: !ktc.ptr<i1>) {
  return
}

// -----

// expected-error @+1 {{!ktc.ptr must point to i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2, not '!ktc.ptr<f32>'}}
func.func @pointer_to_pointer(%p: !ktc.ptr<!ktc.ptr<f32>>) {
  return
}

// -----

// expected-error @+1 {{!ktc.ptr must point to i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2, not 'tensor<4xf32>'}}
func.func @pointer_to_tensor(%p: !ktc.ptr<tensor<4xf32>>) {
  return
}

// -----

// expected-error @+1 {{unknown  type `vec` in dialect `ktc`}}
func.func @unknown_type(%p: !ktc.vec<f32>) {
  return
}
