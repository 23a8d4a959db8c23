// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @other_before_mask(%p: tensor<8x!ktc.ptr<f32>>, %m: tensor<8xi1>, %o: tensor<8xf32>) {
  // expected-error @+1 {{expected 'mask' then 'other', got 'mask'}}
  %0 = ktc.load %p, other %o, mask %m : tensor<8x!ktc.ptr<f32>>
  return
}

// -----

func.func @unknown_keyword(%p: tensor<8x!ktc.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{expected 'mask' then 'other', got 'cache'}}
  %0 = ktc.load %p, cache %m : tensor<8x!ktc.ptr<f32>>
  return
}

// -----

func.func @store_through_non_pointer(%p: tensor<8xf32>, %v: tensor<8xf32>) {
  // expected-error @+1 {{expected !ktc.ptr or a block of !ktc.ptr, got 'tensor<8xf32>'}}
  ktc.store %p, %v : tensor<8xf32>
  return
}
