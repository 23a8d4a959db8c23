// RUN: ktc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{!ktc.ptr must point to i32, i64, f16, bf16 or f32, not 'f64'}}
func.func @pointee_f64(%p: !ktc.ptr<f64>) {
  return
}

// -----

// expected-error @+1 {{!ktc.ptr must point to i32, i64, f16, bf16 or f32, not '!ktc.ptr<f32>'}}
func.func @pointer_to_pointer(%p: !ktc.ptr<!ktc.ptr<f32>>) {
  return
}

// -----

// expected-error @+1 {{!ktc.ptr must point to i32, i64, f16, bf16 or f32, not 'tensor<4xf32>'}}
func.func @pointer_to_tensor(%p: !ktc.ptr<tensor<4xf32>>) {
  return
}

// -----

// expected-error @+1 {{unknown  type `vec` in dialect `ktc`}}
func.func @unknown_type(%p: !ktc.vec<f32>) {
  return
}
