// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @axis_out_of_range(%x: tensor<256xf32>) {
  // expected-error @+1 {{'ktc.scan' op axis 1 is out of range for a rank-1 block}}
  %0 = ktc.scan %x axis = 1 : tensor<256xf32> -> tensor<256xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    ktc.scan_return %s : f32
  }
  return
}

// -----

func.func @negative_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.scan' op axis -1 is out of range for a rank-2 block}}
  %0 = ktc.scan %x axis = -1 : tensor<4x8xf32> -> tensor<4x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    ktc.scan_return %s : f32
  }
  return
}

// -----

func.func @wrong_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'ktc.scan' op result 0 must have its operand's type 'tensor<4x8xf32>', got 'tensor<4x8xi32>'}}
  %0 = ktc.scan %x axis = 1 : tensor<4x8xf32> -> tensor<4x8xi32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    ktc.scan_return %s : f32
  }
  return
}

// -----

func.func @shapes_differ(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) {
  // expected-error @+1 {{'ktc.scan' op operands must have one shape, got 'tensor<4x8xf32>' and 'tensor<8x4xf32>'}}
  %0:2 = ktc.scan %x, %y axis = 1 : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x8xf32>, tensor<8x4xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    ktc.scan_return %a, %b : f32, f32
  }
  return
}

// -----

func.func @pointers(%p: tensor<8x!ktc.ptr<f32>>) {
  // expected-error @+1 {{'ktc.scan' op cannot scan a block of pointers}}
  %0 = ktc.scan %p axis = 0 : tensor<8x!ktc.ptr<f32>> -> tensor<8x!ktc.ptr<f32>> {
  ^bb0(%a: !ktc.ptr<f32>, %b: !ktc.ptr<f32>):
    ktc.scan_return %a : !ktc.ptr<f32>
  }
  return
}

// -----

func.func @arity(%x: tensor<8xf32>) {
  // expected-error @+1 {{'ktc.scan' op combine region must take 2 scalars (two per operand), got 3}}
  %0 = ktc.scan %x axis = 0 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32):
    ktc.scan_return %a : f32
  }
  return
}

// -----

func.func @argument_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{'ktc.scan' op combine region argument 1 must be 'f32', got 'i32'}}
  %0 = ktc.scan %x axis = 0 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: i32):
    ktc.scan_return %a : f32
  }
  return
}

// -----

func.func @return_count(%x: tensor<8xf32>) {
  %0 = ktc.scan %x axis = 0 : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'ktc.scan_return' op must return 1 scalars (one per operand), got 2}}
    ktc.scan_return %a, %b : f32, f32
  }
  return
}

// -----

func.func @return_type(%x: tensor<8xi32>) {
  %0 = ktc.scan %x axis = 0 : tensor<8xi32> -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    %w = arith.extsi %a : i32 to i64
    // expected-error @+1 {{'ktc.scan_return' op result 0 must be 'i32', got 'i64'}}
    ktc.scan_return %w : i64
  }
  return
}

// -----

func.func @no_terminator(%x: tensor<8xi32>) {
  %0 = ktc.scan %x axis = 0 : tensor<8xi32> -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{block with no terminator}}
    %s = arith.addi %a, %b : i32
  }
  return
}

// -----

func.func @captures(%x: tensor<8xi32>, %k: i32) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = ktc.scan %x axis = 0 : tensor<8xi32> -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{using value defined outside the region}}
    %s = arith.addi %a, %k : i32
    ktc.scan_return %s : i32
  }
  return
}

// -----

func.func @outside_scan(%x: i32) {
  // expected-error @+1 {{'ktc.scan_return' op expects parent op 'ktc.scan'}}
  ktc.scan_return %x : i32
}
