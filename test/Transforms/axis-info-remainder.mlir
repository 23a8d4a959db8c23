// RUN: ktc-opt %s --ktc-test-axis-info -verify-diagnostics -o /dev/null

// Remainders and quotients by a value the same along a dimension (the
// tutorial matmul's wrapped offsets, offs % M): runs of consecutive values
// are cut into chunks whose starts are multiples of what divides both the
// runs and the divisor; a select whose condition is the same over a chunk
// keeps what both of its values have in common.
func.func @f(%n: i32 {ktc.divisibility = 16 : i32}, %odd: i32, %s: i32) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %pid = ktc.program_id 0 : i32
  // expected-remark @+1 {{contiguity = 1, divisibility = 256, constancy = 1}}
  %c256 = arith.constant 256 : i32
  // expected-remark @+1 {{contiguity = 1, divisibility = 256, constancy = 1}}
  %base = arith.muli %pid, %c256 : i32
  // expected-remark @+1 {{contiguity = 1, divisibility = 256, constancy = 256}}
  %bs = ktc.splat %base : i32 -> tensor<256xi32>
  // expected-remark @+1 {{contiguity = 256, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 256 : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 256, divisibility = 256, constancy = 1}}
  %offs = arith.addi %bs, %r : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 256}}
  %ns = ktc.splat %n : i32 -> tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1073741824, constancy = 256}}
  %zero = arith.constant dense<0> : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 256}}
  %one = arith.constant dense<1> : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 256}}
  %byZero = arith.cmpi eq, %ns, %zero : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 256}}
  %div = arith.select %byZero, %one, %ns : tensor<256xi1>, tensor<256xi32>
  // The builder's unsigned x % n: the divisor guarded against 0, n a multiple
  // of 16: runs of 16 consecutive columns survive the wrap.
  // expected-remark @+1 {{contiguity = 16, divisibility = 16, constancy = 1}}
  %rem = arith.remui %offs, %div : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 16, divisibility = 16, constancy = 1}}
  %w = arith.select %byZero, %offs, %rem : tensor<256xi1>, tensor<256xi32>
  // Signed, with a dividend built from the grid index and an arange (>= 0).
  // expected-remark @+1 {{contiguity = 16, divisibility = 16, constancy = 1}}
  %rems = arith.remsi %offs, %ns : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 256}}
  %ss = ktc.splat %s : i32 -> tensor<256xi32>
  // expected-remark @+1 {{contiguity = 256, divisibility = 1, constancy = 1}}
  %neg = arith.addi %ss, %r : tensor<256xi32>
  // Signed, with a dividend of unknown sign: nothing (below zero a run is
  // cut where C's % truncates toward zero).
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %remneg = arith.remsi %neg, %ns : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 256}}
  %os = ktc.splat %odd : i32 -> tensor<256xi32>
  // A divisor of unknown divisibility: a wrap may fall anywhere.
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %remodd = arith.remui %offs, %os : tensor<256xi32>
  // x / n over the same chunks is constant.
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 16}}
  %q = arith.divui %offs, %ns : tensor<256xi32>
  return
}
