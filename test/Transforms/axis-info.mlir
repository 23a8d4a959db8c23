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

// -----

// A 64x64 f32 tile of a row-major matrix, along the last (fastest)
// dimension: the rows' offsets (64x1) are each a multiple of the stride and
// repeat along a row once broadcast; the columns run 64 long; the mask is
// constant over runs of 16 columns (n a multiple of 16) and along every row
// for the row bound. Accesses: 4 x f32 = 16 bytes.
func.func @tile(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                %m: i32, %n: i32 {ktc.divisibility = 16 : i32},
                %stride: i32 {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 64 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %c2 = ktc.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 1}}
  %sb = ktc.splat %stride : i32 -> tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 1}}
  %rs = arith.muli %r2, %sb : tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 64}}
  %rb = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %cb = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 64, divisibility = 16, constancy = 1}}
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %mb = ktc.splat %m : i32 -> tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %rmask = arith.cmpi slt, %r2, %mb : tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 64}}
  %nb = ktc.splat %n : i32 -> tensor<1x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 16}}
  %cmask = arith.cmpi slt, %c2, %nb : tensor<1x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 64}}
  %rmb = ktc.broadcast %rmask : tensor<64x1xi1> -> tensor<64x64xi1>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 16}}
  %cmb = ktc.broadcast %cmask : tensor<1x64xi1> -> tensor<64x64xi1>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 16}}
  %mask = arith.andi %rmb, %cmb : tensor<64x64xi1>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 64}}
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 64, divisibility = 16, constancy = 1}}
  %xp = ktc.addptr %xb, %offs : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  // expected-remark @+1 {{vector = 4}}
  %v = ktc.load %xp, mask %mask : tensor<64x64x!ktc.ptr<f32>>
  // expected-remark @+1 {{vector = 4}}
  ktc.store %xp, %v, mask %mask : tensor<64x64x!ktc.ptr<f32>>
  return
}

// -----

// What does not vectorise along the last dimension: a stride of unknown
// divisibility (rows start anywhere), a mask that varies per column (n of
// unknown divisibility), offsets running down the columns (each row one
// address),
// and a list of values (not constant).
func.func @tile_scalar(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                       %n: i32, %stride: i32) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 64 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %r2 = ktc.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %c2 = ktc.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %sb = ktc.splat %stride : i32 -> tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %rs = arith.muli %r2, %sb : tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 64}}
  %rb = ktc.broadcast %rs : tensor<64x1xi32> -> tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %cb = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 64, divisibility = 1, constancy = 1}}
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 64}}
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 64, divisibility = 4, constancy = 1}}
  %xp = ktc.addptr %xb, %offs : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  // expected-remark @+1 {{vector = 1}}
  %a = ktc.load %xp : tensor<64x64x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 64}}
  %nb = ktc.splat %n : i32 -> tensor<1x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %cmask = arith.cmpi slt, %c2, %nb : tensor<1x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %mask = ktc.broadcast %cmask : tensor<1x64xi1> -> tensor<64x64xi1>
  // expected-remark @+1 {{contiguity = 64, divisibility = 16, constancy = 1}}
  %yp = ktc.addptr %xb, %cb : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  // expected-remark @+1 {{vector = 1}}
  %b = ktc.load %yp, mask %mask : tensor<64x64x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 64}}
  %tb = ktc.broadcast %r2 : tensor<64x1xi32> -> tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 4, constancy = 64}}
  %tp = ktc.addptr %xb, %tb : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  // expected-remark @+1 {{vector = 1}}
  %t = ktc.load %tp : tensor<64x64x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %list = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  return
}

// -----

// The divisibility of a run's start is not every element's: r * 16 is
// divisible by 16 element by element, r + r by nothing known, so rows
// 18 * r apart do not start 16-byte aligned: the tile is read element by
// element (it was read 4 at a time when r's start, 0, counted for all).
func.func @run_starts(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 1}}
  %c16 = arith.constant 16 : i32
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 64 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 64}}
  %sb = ktc.splat %c16 : i32 -> tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 1}}
  %r16 = arith.muli %r, %sb : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %rr = arith.addi %r, %r : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %odd = arith.addi %r16, %rr : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %r2 = ktc.expand_dims %odd axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 64}}
  %rb = ktc.broadcast %r2 : tensor<64x1xi32> -> tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %c2 = ktc.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %cb = ktc.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 64, divisibility = 1, constancy = 1}}
  %offs = arith.addi %rb, %cb : tensor<64x64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 64}}
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<64x64x!ktc.ptr<f32>>
  // expected-remark @+1 {{contiguity = 64, divisibility = 4, constancy = 1}}
  %xp = ktc.addptr %xb, %offs : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  // expected-remark @+1 {{vector = 1}}
  %v = ktc.load %xp : tensor<64x64x!ktc.ptr<f32>>
  return
}

// -----

// Only x < n and x >= n (and n > x, n <= x) are constant over aligned
// chunks of consecutive x: x == n, x <= n and x > n change inside the chunk
// that starts at n, so they are one run an element (a mask `offs == 0`
// must not guard a vector access).
func.func @compares(%n: i32 {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  // expected-remark @+1 {{contiguity = 64, divisibility = 1073741824, constancy = 1}}
  %r = ktc.arange 0, 64 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 16, constancy = 64}}
  %nb = ktc.splat %n : i32 -> tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 16}}
  %lt = arith.cmpi slt, %r, %nb : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 16}}
  %ge = arith.cmpi uge, %r, %nb : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 16}}
  %gt = arith.cmpi sgt, %nb, %r : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 16}}
  %le = arith.cmpi ule, %nb, %r : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %eq = arith.cmpi eq, %r, %nb : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %ne = arith.cmpi ne, %r, %nb : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %sle = arith.cmpi sle, %r, %nb : tensor<64xi32>
  // expected-remark @+1 {{contiguity = 1, divisibility = 1, constancy = 1}}
  %sgt = arith.cmpi sgt, %r, %nb : tensor<64xi32>
  return
}
