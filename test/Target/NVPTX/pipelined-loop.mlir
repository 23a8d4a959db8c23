// A persistent row loop with num_stages = 2 on sm_90 (aligned, like a launch
// with 16-byte aligned buffers): the first row's vector loads come before
// the loop; in the loop, the next row's loads come before the cross-warp
// reduction's barriers and the stores of the current row.
// RUN: ktc-compile %s --target=sm_90 --spec16 --emit=asm | FileCheck %s
// The loop's blocks are placed with the reduction first: the block of the
// next row's (predicated) loads ends in the branch to the block of the
// barriers and stores.
// CHECK-LABEL: .entry pipelined(
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK: $L__BB0_[[RED:[0-9]+]]:
// CHECK-NOT: ld.global
// CHECK: bar.sync
// CHECK-NOT: ld.global
// CHECK: st.global.v4.b32
// CHECK-NOT: ld.global
// CHECK: $L__BB0_{{[0-9]+}}:
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-NOT: bar.sync
// CHECK: bra{{.*}} $L__BB0_[[RED]];
// CHECK: ret;
func.func @pipelined(%out: !ktc.ptr<f32>, %in: !ktc.ptr<f32>, %is: i32, %os: i32, %n: i32, %nc: i32) attributes {ktc.kernel, ktc.num_stages = 2 : i32} {
  %ninf = arith.constant 0xFF800000 : f32
  %pid = ktc.program_id 0 : i32
  %np = ktc.num_programs 0 : i32
  %cols = ktc.arange 0, 1024 : tensor<1024xi32>
  %ncb = ktc.splat %nc : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ncb : tensor<1024xi32>
  %ninfb = ktc.splat %ninf : f32 -> tensor<1024xf32>
  scf.for %row = %pid to %n step %np : i32 {
    %off = arith.muli %row, %is : i32
    %rp = ktc.addptr %in, %off : !ktc.ptr<f32>, i32
    %rb = ktc.splat %rp : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
    %p = ktc.addptr %rb, %cols : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
    %x = ktc.load %p, mask %mask, other %ninfb : tensor<1024x!ktc.ptr<f32>>
    %m = ktc.reduce max %x axis = 0 : tensor<1024xf32> -> f32
    %oo = arith.muli %row, %os : i32
    %op = ktc.addptr %out, %oo : !ktc.ptr<f32>, i32
    %ob = ktc.splat %op : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
    %q = ktc.addptr %ob, %cols : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
    %mb = ktc.splat %m : f32 -> tensor<1024xf32>
    ktc.store %q, %mb, mask %mask : tensor<1024x!ktc.ptr<f32>>
  }
  return
}
