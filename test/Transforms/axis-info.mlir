// RUN: ktc-opt %s -split-input-file --ktc-test-axis-info -verify-diagnostics -o /dev/null

// Vector-add with n divisible by 16: offsets are runs of 1024 consecutive
// values, pointers 16-byte aligned, the mask constant over runs of 16, so
// every access is 4 x f32 = 16 bytes.
func.func @add(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
               %out: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
               %n: i32 {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 1, divisibility = 1024, constancy = 1}}
  %block = arith.constant 1024 : i32
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %pid = ktc.program_id 0 : i32
  // expected-remark @+1 {{contiguity = 1, divisibility = 1024, constancy = 1}}
  %start = arith.muli %pid, %block : i32
  // expected-remark @+1 {{contiguity = 1024, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 1024 : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1024, constancy = 1024}}
  %sb = ktc.splat %start : i32 -> tensor<1024xi32>
  // expected-remark @+1 {{contiguity = 1024, divisibility = 1024, constancy = 1}}
  %offs = arith.addi %sb, %r : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 1024}}
  %nb = ktc.splat %n : i32 -> tensor<1024xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 16}}
  %mask = arith.cmpi slt, %offs, %nb : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 1024}}
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 1024, divisibility = 16, constancy = 1}}
  %xp = ktc.addptr %xb, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  // expected-remark @+1 {{vector = 4}}
  %v = ktc.load %xp, mask %mask : tensor<1024x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 1024}}
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 1024, divisibility = 16, constancy = 1}}
  %op = ktc.addptr %ob, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  // expected-remark @+1 {{vector = 4}}
  ktc.store %op, %v, mask %mask : tensor<1024x!ktc.ptr<f32>>
  return
}

// -----

// Without divisibility facts: masked accesses are scalar; unmasked ones on
// f16 with 16-byte alignment take 8 elements; misaligned ones 1.
func.func @widths(%p: !ktc.ptr<f16> {ktc.divisibility = 16 : i32},
                  %q: !ktc.ptr<f16>, %n: i32) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 256, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 256 : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 256}}
  %nb = ktc.splat %n : i32 -> tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %m = arith.cmpi slt, %r, %nb : tensor<256xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 256}}
  %pb = ktc.splat %p : !ktc.ptr<f16> -> tensor<256x!ktc.ptr<f16>>
  // expected-remark @+1 {{contiguity = 256, divisibility = 16, constancy = 1}}
  %pp = ktc.addptr %pb, %r : tensor<256x!ktc.ptr<f16>>, tensor<256xi32>
  // expected-remark @+1 {{vector = 8}}
  %a = ktc.load %pp : tensor<256x!ktc.ptr<f16>>
  // expected-remark @+1 {{vector = 1}}
  %b = ktc.load %pp, mask %m : tensor<256x!ktc.ptr<f16>>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 256}}
  %qb = ktc.splat %q : !ktc.ptr<f16> -> tensor<256x!ktc.ptr<f16>>
  // expected-remark @+1 {{contiguity = 256, divisibility = 1, constancy = 1}}
  %qp = ktc.addptr %qb, %r : tensor<256x!ktc.ptr<f16>>, tensor<256xi32>
  // expected-remark @+1 {{vector = 1}}
  ktc.store %qp, %a : tensor<256x!ktc.ptr<f16>>
  return
}

// -----

// A loop's induction variable is divisible by what its start and step are.
func.func @loop(%p: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}, %n: i32) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 1, divisibility = 1073741824, constancy = 1}}
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{contiguity = 1, divisibility = 256, constancy = 1}}
  %c256 = arith.constant 256 : i32
  scf.for %i = %c0 to %n step %c256 : i32 {
    // expected-remark @+1 {{contiguity = 256, divisibility = 1073741824, constancy = 1}}
    %r = ktc.arange 0, 256 : tensor<256xi32>
    // expected-remark @+1 {{contiguity = 1, divisibility = 256, constancy = 256}}
    %ib = ktc.splat %i : i32 -> tensor<256xi32>
    // expected-remark @+1 {{contiguity = 256, divisibility = 256, constancy = 1}}
    %offs = arith.addi %ib, %r : tensor<256xi32>
    // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 256}}
    %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
    // expected-remark @+1 {{contiguity = 256, divisibility = 16, constancy = 1}}
    %pp = ktc.addptr %pb, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    // expected-remark @+1 {{vector = 4}}
    %x = ktc.load %pp : tensor<256x!ktc.ptr<f32>>
  }
  return
}
