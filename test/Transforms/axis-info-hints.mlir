// RUN: ktc-opt %s -split-input-file --ktc-test-axis-info -verify-diagnostics -o /dev/null

// The user's hints (multiple_of, max_contiguous: ktc.multiple_of and
// ktc.max_contiguous on the defining op) raise what the analysis proves.
// start + arange from an unaligned start: contiguous but not aligned; with
// multiple_of 4 the f32 accesses are 16 bytes.
func.func @aligned(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                   %start: i32) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 1024, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 1024 : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1024}}
  %sb = ktc.splat %start : i32 -> tensor<1024xi32>
  // expected-remark @+1 {{contiguity = 1024, divisibility = 1, constancy = 1}}
  %plain = arith.addi %sb, %r : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = 1024, divisibility = 4, constancy = 1}}
  %offs = arith.addi %r, %sb {ktc.multiple_of = array<i64: 4>} : tensor<1024xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 1024}}
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 1024, divisibility = 4, constancy = 1}}
  %xp0 = ktc.addptr %xb, %plain : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  // expected-remark @+1 {{vector = 1}}
  %v0 = ktc.load %xp0 : tensor<1024x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 1024, divisibility = 16, constancy = 1}}
  %xp = ktc.addptr %xb, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  // expected-remark @+1 {{vector = 4}}
  %v = ktc.load %xp : tensor<1024x!ktc.ptr<f32>>
  // expected-remark @+1 {{vector = 4}}
  ktc.store %xp, %v0 : tensor<1024x!ktc.ptr<f32>>
  return
}

// -----

// Triton's matmul idiom: max_contiguous(multiple_of(offs % M, B), B). The
// remainder hides the runs; the hints restore them.
func.func @remainder(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                     %m: i32) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 128, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 128 : tensor<128xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 128}}
  %mb = ktc.splat %m : i32 -> tensor<128xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %plain = arith.remsi %r, %mb : tensor<128xi32>
  // expected-remark @+1 {{contiguity = 128, divisibility = 128, constancy = 1}}
  %offs = arith.remui %r, %mb {ktc.max_contiguous = array<i64: 128>, ktc.multiple_of = array<i64: 128>} : tensor<128xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 128}}
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 1, divisibility = 4, constancy = 1}}
  %xp0 = ktc.addptr %xb, %plain : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  // expected-remark @+1 {{vector = 1}}
  %v0 = ktc.load %xp0 : tensor<128x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 128, divisibility = 16, constancy = 1}}
  %xp = ktc.addptr %xb, %offs : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  // expected-remark @+1 {{vector = 4}}
  ktc.store %xp, %v0 : tensor<128x!ktc.ptr<f32>>
  return
}

// -----

func.func @bad_hint(%start: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %sb = ktc.splat %start : i32 -> tensor<128xi32>
  // expected-error @+1 {{'ktc.multiple_of' must be 1 positive power(s) of two (array<i64>), one per dimension}}
  %offs = arith.addi %sb, %r {ktc.multiple_of = array<i64: 12>} : tensor<128xi32>
  return
}

// -----

func.func @bad_modifier(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  // expected-error @+1 {{'ktc.load' op unknown cache_modifier '.cs' (expected .ca, .cg, .cv)}}
  %v = ktc.load %p {cache_modifier = ".cs"} : !ktc.ptr<f32>
  return
}

// -----

func.func @both(%p: !ktc.ptr<f32>, %v: f32) attributes {ktc.kernel} {
  // expected-error @+1 {{'ktc.store' op takes a cache_modifier or an eviction_policy, not both}}
  ktc.store %p, %v {cache_modifier = ".cs", eviction_policy = "evict_first"} : !ktc.ptr<f32>
  return
}

// -----

func.func @bad_policy(%p: !ktc.ptr<f32>, %v: f32) attributes {ktc.kernel} {
  // expected-error @+1 {{'ktc.store' op unknown eviction_policy 'evict_normal' (expected evict_first or evict_last)}}
  ktc.store %p, %v {eviction_policy = "evict_normal"} : !ktc.ptr<f32>
  return
}

// -----

// tl.max_constancy (issue 19): ktc.max_constancy raises the constancy of a
// value the analysis knows nothing of (a loaded block), up to the block.
func.func @constancy(%x: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 128}}
  %r = ktc.arange 0, 128 : tensor<128xi32>
  // expected-remark @+1 {{constancy = 128}}
  %xb = ktc.splat %x : !ktc.ptr<i32> -> tensor<128x!ktc.ptr<i32>>
  // expected-remark @+1 {{contiguity = 128}}
  %xp = ktc.addptr %xb, %r : tensor<128x!ktc.ptr<i32>>, tensor<128xi32>
  // expected-remark @+1 {{vector = 4}}
  %v = ktc.load %xp : tensor<128x!ktc.ptr<i32>>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %plain = arith.muli %v, %v : tensor<128xi32>
  // expected-remark @+1 {{constancy = 8}}
  %hinted = arith.muli %v, %v {ktc.max_constancy = array<i64: 8>} : tensor<128xi32>
  // expected-remark @+1 {{constancy = 128}}
  %all = arith.addi %v, %v {ktc.max_constancy = array<i64: 1024>} : tensor<128xi32>
  return
}

// -----

func.func @constancy_not_pow2(%v: tensor<8xi32>) {
  // expected-error @+1 {{'ktc.max_constancy' must be 1 positive power(s) of two (array<i64>), one per dimension}}
  %w = arith.addi %v, %v {ktc.max_constancy = array<i64: 3>} : tensor<8xi32>
  return
}
