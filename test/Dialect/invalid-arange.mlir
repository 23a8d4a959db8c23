// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @not_power_of_two() {
  // expected-error @+1 {{'ktc.arange' op length end - start = 100 must be a power of two}}
  %0 = ktc.arange 0, 100 : tensor<128xi32>
  return
}

// -----

func.func @empty_range() {
  // expected-error @+1 {{'ktc.arange' op end (16) must be greater than start (16)}}
  %0 = ktc.arange 16, 16 : tensor<1xi32>
  return
}

// -----

func.func @reversed_range() {
  // expected-error @+1 {{'ktc.arange' op end (0) must be greater than start (8)}}
  %0 = ktc.arange 8, 0 : tensor<8xi32>
  return
}

// -----

func.func @wrong_length() {
  // expected-error @+1 {{'ktc.arange' op result must be tensor<64xi32> for the range [0, 64), got 'tensor<128xi32>'}}
  %0 = ktc.arange 0, 64 : tensor<128xi32>
  return
}

// -----

func.func @wrong_element_type() {
  // expected-error @+1 {{'ktc.arange' op result #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<64xi64>'}}
  %0 = ktc.arange 0, 64 : tensor<64xi64>
  return
}

// -----

func.func @two_dimensional() {
  // expected-error @+1 {{'ktc.arange' op result must be tensor<16xi32> for the range [0, 16), got 'tensor<4x4xi32>'}}
  %0 = ktc.arange 0, 16 : tensor<4x4xi32>
  return
}
