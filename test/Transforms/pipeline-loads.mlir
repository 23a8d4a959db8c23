// RUN: ktc-opt %s -split-input-file --ktc-pipeline-loads --canonicalize | FileCheck %s
// RUN: ktc-opt %s -split-input-file --ktc-pipeline-loads="num-stages=1" | FileCheck %s --check-prefix=OFF

// The persistent fused softmax's loop with num_stages = 2: the first row is
// loaded before the loop (masked off when the program has no row), each
// iteration starts by loading the row one step ahead (masked off past the
// last row) and works on the carried one.
// CHECK-LABEL: func.func @fused
// CHECK-SAME: %[[IN:[a-z0-9]+]]: !ktc.ptr<f32>, %[[STRIDE:[a-z0-9]+]]: i32, %[[N:[a-z0-9]+]]: i32, %[[NC:[a-z0-9]+]]: i32
// CHECK-DAG: %[[PID:.*]] = ktc.program_id 0
// CHECK-DAG: %[[NP:.*]] = ktc.num_programs 0
// CHECK-DAG: %[[COLMASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1024xi32>
// CHECK: %[[FIRST:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK: %[[ROWOFF0:.*]] = arith.muli %[[PID]], %[[STRIDE]] : i32
// CHECK: %[[G0:.*]] = ktc.splat %[[FIRST]] : i1 -> tensor<1024xi1>
// CHECK: %[[M0:.*]] = arith.andi %[[COLMASK]], %[[G0]] : tensor<1024xi1>
// CHECK: %[[X0:.*]] = ktc.load %{{.*}}, mask %[[M0]], other %{{.*}} : tensor<1024x!ktc.ptr<f32>>
// CHECK: scf.for %[[ROW:.*]] = %[[PID]] to %[[N]] step %[[NP]] iter_args(%[[X:.*]] = %[[X0]]) -> (tensor<1024xf32>) : i32 {
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[ROW]], %[[NP]] : i32
// CHECK: %[[WIDE:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi slt, %[[WIDE]], %{{.*}} : i64
// CHECK-NEXT: %[[ROWOFF:.*]] = arith.muli %[[NEXT]], %[[STRIDE]] : i32
// CHECK: %[[G:.*]] = ktc.splat %[[OK]] : i1 -> tensor<1024xi1>
// CHECK-NEXT: %[[M:.*]] = arith.andi %[[COLMASK]], %[[G]] : tensor<1024xi1>
// CHECK-NEXT: %[[XN:.*]] = ktc.load %{{.*}}, mask %[[M]], other %{{.*}} : tensor<1024x!ktc.ptr<f32>>
// CHECK-NOT: ktc.load
// CHECK: ktc.reduce max %[[X]] axis = 0
// CHECK: ktc.store
// CHECK-NEXT: scf.yield %[[XN]] : tensor<1024xf32>
// OFF-LABEL: func.func @fused
// OFF: scf.for
// OFF-NOT: iter_args
// OFF: ktc.load
func.func @fused(%in: !ktc.ptr<f32>, %stride: i32, %n: i32, %nc: i32)
    attributes {ktc.kernel, ktc.num_stages = 2 : i32} {
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %pid = ktc.program_id 0 : i32
  %np = ktc.num_programs 0 : i32
  %cols = ktc.arange 0, 1024 : tensor<1024xi32>
  %ncb = ktc.splat %nc : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ncb : tensor<1024xi32>
  scf.for %row = %pid to %n step %np : i32 {
    %off = arith.muli %row, %stride : i32
    %rp = ktc.addptr %in, %off : !ktc.ptr<f32>, i32
    %rb = ktc.splat %rp : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
    %p = ktc.addptr %rb, %cols : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
    %x = ktc.load %p, mask %mask, other %ninf : tensor<1024x!ktc.ptr<f32>>
    %m = ktc.reduce max %x axis = 0 : tensor<1024xf32> -> f32
    %mb = ktc.splat %m : f32 -> tensor<1024xf32>
    ktc.store %p, %mb, mask %mask : tensor<1024x!ktc.ptr<f32>>
  }
  return
}

// -----

// num_stages = 3: two iterations in flight, a scalar load without a mask
// gets the in-range test as its mask; the loop's own carried value stays
// first and the loads rotate through the carried pair.
// CHECK-LABEL: func.func @three_stages
// CHECK: %[[A:.*]] = ktc.load %{{.*}}, mask %{{.*}} : !ktc.ptr<f32>
// CHECK: %[[B:.*]] = ktc.load %{{.*}}, mask %{{.*}} : !ktc.ptr<f32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[X0:.*]] = %[[A]], %[[X1:.*]] = %[[B]]) -> (f32, f32, f32) : i32 {
// CHECK: %[[C:.*]] = ktc.load %{{.*}}, mask %{{.*}} : !ktc.ptr<f32>
// CHECK: %[[SUM:.*]] = arith.addf %[[S]], %[[X0]] : f32
// CHECK-NEXT: scf.yield %[[SUM]], %[[X1]], %[[C]] : f32, f32, f32
func.func @three_stages(%in: !ktc.ptr<f32>, %n: i32) -> ()
    attributes {ktc.kernel, ktc.num_stages = 3 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %p = ktc.addptr %in, %i : !ktc.ptr<f32>, i32
    %x = ktc.load %p : !ktc.ptr<f32>
    %acc2 = arith.addf %acc, %x : f32
    scf.yield %acc2 : f32
  }
  ktc.store %in, %s : !ktc.ptr<f32>
  return
}

// -----

// Left alone: a load whose address depends on a loop-carried value
// (pointer chasing), and one under an scf.if.
// CHECK-LABEL: func.func @not_pipelined
// CHECK-NOT: iter_args(%{{.*}}, %
// CHECK: scf.for
// CHECK: ktc.load
// CHECK: scf.if
// CHECK: ktc.load
// CHECK: scf.yield
func.func @not_pipelined(%in: !ktc.ptr<i32>, %n: i32, %c: i1)
    attributes {ktc.kernel, ktc.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%j = %c0) -> (i32) : i32 {
    %p = ktc.addptr %in, %j : !ktc.ptr<i32>, i32
    %next = ktc.load %p : !ktc.ptr<i32>
    %q = ktc.addptr %in, %i : !ktc.ptr<i32>, i32
    scf.if %c {
      %v = ktc.load %q : !ktc.ptr<i32>
      ktc.store %q, %v : !ktc.ptr<i32>
    }
    scf.yield %next : i32
  }
  ktc.store %in, %r : !ktc.ptr<i32>
  return
}

// -----

// Kernels without ktc.num_stages (or with 1) are not touched.
// CHECK-LABEL: func.func @default_one_stage
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: ktc.addptr
// CHECK-NEXT: ktc.load
func.func @default_one_stage(%in: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %p = ktc.addptr %in, %i : !ktc.ptr<f32>, i32
    %x = ktc.load %p : !ktc.ptr<f32>
    ktc.store %p, %x : !ktc.ptr<f32>
  }
  return
}
