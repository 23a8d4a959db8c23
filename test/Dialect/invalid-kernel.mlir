// RUN: ktc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'func.func' op is a ktc.kernel and must not return values}}
func.func @returns(%x: i32) -> i32 attributes {ktc.kernel} {
  return %x : i32
}

// -----

// expected-error @+1 {{'func.func' op is a ktc.kernel; argument #1 has type 'tensor<4xf32>', but kernel arguments must be i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN, f8E5M2 or !ktc.ptr}}
func.func @block_argument(%p: !ktc.ptr<f32>, %x: tensor<4xf32>) attributes {ktc.kernel} {
  return
}

// -----

// expected-error @+1 {{'func.func' op attribute 'ktc.kernel' must be a unit attribute}}
func.func @kernel_not_unit() attributes {ktc.kernel = 1 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op attribute 'ktc.constexpr' must be a dictionary of name = value}}
func.func @constexpr_not_dict() attributes {ktc.kernel, ktc.constexpr = [1, 2]} {
  return
}

// -----

// expected-error @+1 {{'func.func' op constexpr 'NAME' must be an integer, float or boolean, not "text"}}
func.func @constexpr_string() attributes {ktc.kernel, ktc.constexpr = {NAME = "text"}} {
  return
}

// -----

func.func @kernel_on_non_function() {
  // expected-error @+1 {{'ktc.kernel' may only be set on a function}}
  %0 = ktc.program_id 0 {ktc.kernel} : i32
  return
}

// -----

// expected-error @+1 {{unknown ktc attribute 'ktc.kernal'}}
func.func @misspelt() attributes {ktc.kernal} {
  return
}

// -----

// expected-error @+1 {{'ktc.divisibility' of argument #0 must be a positive power-of-two integer}}
func.func @divisibility_not_pow2(%p: !ktc.ptr<f32> {ktc.divisibility = 12 : i32}) attributes {ktc.kernel} {
  return
}

// -----

// expected-error @+1 {{'ktc.divisibility' of argument #1 needs a pointer or an i32/i64 argument, not 'f32'}}
func.func @divisibility_on_float(%p: !ktc.ptr<f32>, %x: f32 {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  return
}

// -----

// expected-error @+1 {{unknown ktc argument attribute 'ktc.aligned'}}
func.func @unknown_arg_attr(%p: !ktc.ptr<f32> {ktc.aligned}) attributes {ktc.kernel} {
  return
}

// -----

// expected-error @+1 {{'ktc.num_warps' must be an i32 power of two from 1 to 32, got 6 : i32}}
func.func @num_warps_not_pow2() attributes {ktc.kernel, ktc.num_warps = 6 : i32} {
  return
}

// -----

// expected-error @+1 {{'ktc.num_warps' must be an i32 power of two from 1 to 32, got 64 : i32}}
func.func @num_warps_too_many() attributes {ktc.kernel, ktc.num_warps = 64 : i32} {
  return
}

// -----

// expected-error @+1 {{'ktc.num_warps' may only be set on a kernel}}
func.func @num_warps_on_helper() attributes {ktc.num_warps = 4 : i32} {
  return
}

// -----

// expected-error @+1 {{'ktc.num_stages' must be an i32 from 1 to 8, got 0 : i32}}
func.func @num_stages_zero() attributes {ktc.kernel, ktc.num_stages = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{'ktc.num_stages' must be an i32 from 1 to 8, got 9 : i64}}
func.func @num_stages_too_deep() attributes {ktc.kernel, ktc.num_stages = 9} {
  return
}

// -----

// expected-error @+1 {{'ktc.num_stages' may only be set on a kernel}}
func.func @num_stages_on_helper() attributes {ktc.num_stages = 2 : i32} {
  return
}
