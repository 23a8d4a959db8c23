// RUN: ktc-opt %s -split-input-file --ktc-test-narrow-offsets -verify-diagnostics -o /dev/null

// %x is read through i32 offsets only: a buffer past 2^31 - 1 elements is
// refused for it at launch. %out's offsets are widened to i64 first, and
// %n is no pointer.
// expected-remark @+1 {{argument 0 is reached through i32 offsets only}}
func.func @copy(%x: !ktc.ptr<f32>, %out: !ktc.ptr<f32>, %n: i32)
    attributes {ktc.kernel} {
  %offs = ktc.arange 0, 1024 : tensor<1024xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  %v = ktc.load %xp : tensor<1024x!ktc.ptr<f32>>
  %wide = arith.extsi %offs : tensor<1024xi32> to tensor<1024xi64>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %op = ktc.addptr %ob, %wide : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi64>
  ktc.store %op, %v : tensor<1024x!ktc.ptr<f32>>
  return
}

// -----

// A pointer carried through a loop counts as its source: the i32 step
// inside the loop makes %x narrowly indexed.
// expected-remark @+1 {{argument 0 is reached through i32 offsets only}}
func.func @loop(%x: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%p = %x) -> (!ktc.ptr<f32>) : i32 {
    %q = ktc.addptr %p, %c1 : !ktc.ptr<f32>, i32
    scf.yield %q : !ktc.ptr<f32>
  }
  %v = ktc.load %r : !ktc.ptr<f32>
  ktc.store %r, %v : !ktc.ptr<f32>
  return
}

// -----

// No load or store: nothing is reported.
func.func @none(%x: !ktc.ptr<f32>) attributes {ktc.kernel} {
  return
}
