// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=32" --cse --convert-ktc-to-llvm="target=sm_90 num-warps=4" | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-assign-layouts="num-warps=4 wave-size=64" --cse --convert-ktc-to-llvm="target=gfx942 num-warps=4" | FileCheck %s --check-prefix=AMD

// 256 elements over 128 threads: 2 slots per thread, element tid*2 + j;
// an aligned unmasked load of them is one <2 x f32> load.
// CHECK-LABEL: func.func @slots
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>)
// CHECK-SAME: ktc_kernel_threads = 128 : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[BASE:.*]] = arith.shli %[[TID]], %{{.*}} : i32
// CHECK: %[[Q0:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: %[[V:.*]] = llvm.load %[[Q0]] {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK: llvm.extractelement %[[V]]
// AMD-LABEL: func.func @slots
// AMD: rocdl.workitem.id.x : i32
func.func @slots(%p: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel} {
  %r = ktc.arange 0, 256 : tensor<256xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %r : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
  %x = ktc.load %q : tensor<256x!ktc.ptr<f32>>
  %y = math.exp %x : tensor<256xf32>
  ktc.store %q, %y : tensor<256x!ktc.ptr<f32>>
  return
}

// -----

// A masked scalar load: on NVIDIA a predicated ld.global on the
// element's bit after a mov of `other` (masked-loads.mlir; issue 18); AMD
// branches: scf.if on the element's bit, `other` elsewhere.
// CHECK-LABEL: func.func @masked
// CHECK: %[[M:.*]] = arith.cmpi slt
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $3;{{.*}}@$2 ld.global.b32 $0, [$1];"{{.*}}, %[[M]]
// AMD-LABEL: func.func @masked
// AMD: %[[M:.*]] = arith.cmpi slt
// AMD: scf.if %[[M]] -> (f32) {
// AMD: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// AMD: } else {
// AMD: scf.yield %{{.*}} : f32
func.func @masked(%p: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %r = ktc.arange 0, 128 : tensor<128xi32>
  %nb = ktc.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %nb : tensor<128xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %r : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32>
  %x = ktc.load %q, mask %m, other %ninf : tensor<128x!ktc.ptr<f32>>
  ktc.store %q, %x, mask %m : tensor<128x!ktc.ptr<f32>>
  return
}

// -----

// A sum: in the thread, butterflies 1..16 in the warp, then lane 0 of
// each warp writes shared memory, a barrier, 4 partials. It runs once per
// program, so nothing writes its slots again: no second barrier.
// CHECK: llvm.mlir.global internal @ktc_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x i8>
// CHECK-LABEL: func.func @sum
// CHECK-COUNT-5: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: llvm.mlir.addressof @ktc_smem : !llvm.ptr<3>
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier{{$}}
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier
// CHECK: return
// AMD-LABEL: func.func @sum
// AMD-COUNT-4: rocdl.update.dpp
// AMD-COUNT-2: rocdl.ds_bpermute
// AMD: rocdl.barrier
func.func @sum(%p: !ktc.ptr<f32>) attributes {ktc.kernel} {
  %r = ktc.arange 0, 512 : tensor<512xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %r : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  %x = ktc.load %q : tensor<512x!ktc.ptr<f32>>
  %s = ktc.reduce sum %x axis = 0 : tensor<512xf32> -> f32
  ktc.store %p, %s : !ktc.ptr<f32>
  return
}

// -----

// The only reduction of a loop body: the next iteration writes the same
// slots, so every thread waits until all have read them (a second barrier).
// The slots are the shared ones at offset 0.
// CHECK: llvm.mlir.global internal @ktc_smem() {{.*}} : !llvm.array<32 x i8>
// CHECK-LABEL: func.func @alone_in_loop
// CHECK: scf.for
// CHECK: nvvm.barrier{{$}}
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: nvvm.barrier{{$}}
// CHECK: scf.yield
// AMD-LABEL: func.func @alone_in_loop
// AMD: rocdl.barrier
// AMD: rocdl.barrier
// AMD: scf.yield
func.func @alone_in_loop(%p: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %r = ktc.arange 0, 512 : tensor<512xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %r : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %x = ktc.load %q : tensor<512x!ktc.ptr<f32>>
    %s = ktc.reduce sum %x axis = 0 : tensor<512xf32> -> f32
    %a = arith.addf %acc, %s : f32
    scf.yield %a : f32
  }
  ktc.store %p, %t : !ktc.ptr<f32>
  return
}

// -----

// Two reductions in one loop body (online softmax): between one run of
// either reading its partials and its next run writing them, every thread
// passes the other's first barrier. Each gets slots of its own (32 bytes
// each) and a single barrier: two a iteration instead of four. A third
// reduction under an scf.if does not count as the other one (it may not
// run), but is fenced by the two around it.
// CHECK: llvm.mlir.global internal @ktc_smem() {{.*}} : !llvm.array<96 x i8>
// CHECK-LABEL: func.func @pair_in_loop
// CHECK: scf.for
// CHECK: nvvm.barrier{{$}}
// CHECK-NOT: nvvm.barrier
// CHECK: arith.addf
// CHECK: nvvm.barrier{{$}}
// CHECK-NOT: nvvm.barrier
// CHECK: arith.minnumf
// CHECK: nvvm.barrier{{$}}
// CHECK-NOT: nvvm.barrier
// CHECK: return
// AMD-LABEL: func.func @pair_in_loop
// AMD-COUNT-3: rocdl.barrier
// AMD-NOT: rocdl.barrier
// AMD: return
func.func @pair_in_loop(%p: !ktc.ptr<f32>, %n: i32, %flag: i1) attributes {ktc.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %r = ktc.arange 0, 512 : tensor<512xi32>
  %pb = ktc.splat %p : !ktc.ptr<f32> -> tensor<512x!ktc.ptr<f32>>
  %q = ktc.addptr %pb, %r : tensor<512x!ktc.ptr<f32>>, tensor<512xi32>
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %x = ktc.load %q : tensor<512x!ktc.ptr<f32>>
    %m = ktc.reduce max %x axis = 0 : tensor<512xf32> -> f32
    %s = ktc.reduce sum %x axis = 0 : tensor<512xf32> -> f32
    %o = scf.if %flag -> (f32) {
      %u = ktc.reduce min %x axis = 0 : tensor<512xf32> -> f32
      scf.yield %u : f32
    } else {
      scf.yield %zero : f32
    }
    %a = arith.addf %m, %s : f32
    %b = arith.addf %a, %o : f32
    %c = arith.addf %acc, %b : f32
    scf.yield %c : f32
  }
  ktc.store %p, %t : !ktc.ptr<f32>
  return
}
