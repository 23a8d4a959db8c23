// Hints and cache hints (Ops.h): @hinted copies x[start + i] with the
// offsets hinted multiple_of 4 (16-byte f32 runs), @plain the same without
// the hint (nothing is known of start); @cached loads .cg, stores with
// evict_first (masked), loads f16 with evict_last and stores them .cs.
func.func @hinted(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                  %y: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                  %start: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 1024 : tensor<1024xi32>
  %sb = ktc.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %sb, %r {ktc.multiple_of = array<i64: 4>} : tensor<1024xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  %v = ktc.load %xp : tensor<1024x!ktc.ptr<f32>>
  %yb = ktc.splat %y : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %yp = ktc.addptr %yb, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  ktc.store %yp, %v : tensor<1024x!ktc.ptr<f32>>
  return
}

func.func @plain(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                 %y: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                 %start: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 1024 : tensor<1024xi32>
  %sb = ktc.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %sb, %r : tensor<1024xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  %v = ktc.load %xp : tensor<1024x!ktc.ptr<f32>>
  %yb = ktc.splat %y : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %yp = ktc.addptr %yb, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  ktc.store %yp, %v : tensor<1024x!ktc.ptr<f32>>
  return
}

func.func @cached(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                  %y: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                  %h: !ktc.ptr<f16> {ktc.divisibility = 16 : i32},
                  %g: !ktc.ptr<f16> {ktc.divisibility = 16 : i32},
                  %n: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 1024 : tensor<1024xi32>
  %nb = ktc.splat %n : i32 -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<1024xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %r : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  %v = ktc.load %xp {cache_modifier = ".cg"} : tensor<1024x!ktc.ptr<f32>>
  %yb = ktc.splat %y : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %yp = ktc.addptr %yb, %r : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  ktc.store %yp, %v, mask %m {eviction_policy = "evict_first"} : tensor<1024x!ktc.ptr<f32>>
  %hb = ktc.splat %h : !ktc.ptr<f16> -> tensor<1024x!ktc.ptr<f16>>
  %hp = ktc.addptr %hb, %r : tensor<1024x!ktc.ptr<f16>>, tensor<1024xi32>
  %hv = ktc.load %hp {eviction_policy = "evict_last"} : tensor<1024x!ktc.ptr<f16>>
  %gb = ktc.splat %g : !ktc.ptr<f16> -> tensor<1024x!ktc.ptr<f16>>
  %gp = ktc.addptr %gb, %r : tensor<1024x!ktc.ptr<f16>>, tensor<1024xi32>
  ktc.store %gp, %hv {cache_modifier = ".cs"} : tensor<1024x!ktc.ptr<f16>>
  return
}
