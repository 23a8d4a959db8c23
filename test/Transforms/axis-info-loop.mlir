// RUN: ktc-opt %s --ktc-test-axis-info -verify-diagnostics -o /dev/null

// Values a loop carries keep what both their start and each iteration's
// update keep (a fixpoint over the body): a pointer block advanced by 64
// elements each iteration, as Triton's tutorials write `a_ptrs +=
// BLOCK_K`, keeps its runs of 64 and its 16-byte alignment, so its load is
// 8 halves wide; advanced by an odd amount, it keeps its runs but not its
// alignment (2 bytes); a counter starting at 0 and stepped by 32 stays a
// multiple of 32.
func.func @f(%p: !ktc.ptr<f16> {ktc.divisibility = 16 : i32}, %n: i32, %odd: i32) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 1, divisibility = 1073741824, constancy = 1}}
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{contiguity = 1, divisibility = 32, constancy = 1}}
  %c32 = arith.constant 32 : i32
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 64 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 64}}
  %ps = ktc.splat %p : !ktc.ptr<f16> -> tensor<64x!ktc.ptr<f16>>
  // expected-remark @+1 {{contiguity = 64, divisibility = 16, constancy = 1}}
  %p0 = ktc.addptr %ps, %r : tensor<64x!ktc.ptr<f16>>, tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 64, constancy = 64}}
  %step = arith.constant dense<64> : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 64}}
  %os = ktc.splat %odd : i32 -> tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<64xf16>
  %r1:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p0, %b = %p0, %k = %c0) -> (tensor<64x!ktc.ptr<f16>>, tensor<64x!ktc.ptr<f16>>, i32) : i32 {
    // expected-remark @+1 {{vector = 8}}
    %x = ktc.load %a : tensor<64x!ktc.ptr<f16>>
    // expected-remark @+1 {{vector = 1}}
    %y = ktc.load %b : tensor<64x!ktc.ptr<f16>>
    %s = arith.addf %x, %y : tensor<64xf16>
    // expected-remark @+1 {{vector = 8}}
    ktc.store %a, %s : tensor<64x!ktc.ptr<f16>>
    // expected-remark @+1 {{contiguity = 64, divisibility = 16, constancy = 1}}
    %na = ktc.addptr %a, %step : tensor<64x!ktc.ptr<f16>>, tensor<64xi32>
    // expected-remark @+1 {{contiguity = 64, divisibility = 2, constancy = 1}}
    %nb = ktc.addptr %b, %os : tensor<64x!ktc.ptr<f16>>, tensor<64xi32>
    // expected-remark @+1 {{contiguity = 1, divisibility = 32, constancy = 1}}
    %nk = arith.addi %k, %c32 : i32
    scf.yield %na, %nb, %nk : tensor<64x!ktc.ptr<f16>>, tensor<64x!ktc.ptr<f16>>, i32
  }
  // After the loop: what the loop's values keep.
  // expected-remark @+1 {{vector = 8}}
  ktc.store %r1#0, %zero : tensor<64x!ktc.ptr<f16>>
  // expected-remark @+1 {{vector = 1}}
  ktc.store %r1#1, %zero : tensor<64x!ktc.ptr<f16>>
  return
}
