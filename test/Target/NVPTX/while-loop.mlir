// A while_ loop (scf.while) carrying a block, a scalar sum and its counter,
// with a reduction (shared memory and barriers) in its body, after a
// return_if (an scf.if on a scalar whose else branch holds the rest of the
// kernel), as ktc::while_ and ktc::return_if trace it. The early exit is a
// branch on a value every thread of the program shares, so each thread
// reaches the loop's barriers or none does.
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %s --target=sm_90 --emit=asm -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: ktc-compile %s --target=sm_90 --num-stages=3 --emit=asm | FileCheck %s

// CHECK-LABEL: .entry while_sum(
// CHECK: mov.u32 %[[PID:r[0-9]+]], %ctaid.x;
// CHECK: ld.global.b32 %[[FLAG:r[0-9]+]], [%rd{{[0-9]+}}];
// CHECK: setp.ne.b32 %[[EXIT:p[0-9]+]], %[[FLAG]], 0;
// CHECK: @%[[EXIT]] bra $[[END:L__BB0_[0-9]+]];
// The loop's blocks come in the order LLVM lays them out (the barrier
// block first since the loads are predicated, issue 18).
// CHECK-DAG: shfl.sync.bfly.b32
// CHECK-DAG: bar.sync 0;
// CHECK-DAG: ld.shared.v4.b32
// CHECK-DAG: @%p{{[0-9]+}} bra $L__BB0_{{[0-9]+}};
// CHECK: st.global.b32
// CHECK: $[[END]]:
// CHECK-NEXT: ret;

module {
  func.func @while_sum(%arg0: !ktc.ptr<f32>, %arg1: !ktc.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: !ktc.ptr<i32>) attributes {ktc.constexpr = {arg5 = 256 : i64}, ktc.kernel, ktc.num_warps = 4 : i32} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %c1_i32 = arith.constant 1 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c0_i32 = arith.constant 0 : i32
    %0 = ktc.program_id 0 : i32
    %1 = ktc.addptr %arg4, %0 : !ktc.ptr<i32>, i32
    %2 = ktc.load %1 : !ktc.ptr<i32>
    %3 = arith.cmpi ne, %2, %c0_i32 : i32
    scf.if %3 {
    } else {
      %4 = ktc.arange 0, 256 : tensor<256xi32>
      %5 = ktc.splat %arg2 : i32 -> tensor<256xi32>
      %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
      %7:3 = scf.while (%arg5 = %cst, %arg6 = %cst_0, %arg7 = %c0_i32) : (tensor<256xf32>, f32, i32) -> (tensor<256xf32>, f32, i32) {
        %12 = arith.cmpi slt, %arg7, %arg3 : i32
        scf.condition(%12) %arg5, %arg6, %arg7 : tensor<256xf32>, f32, i32
      } do {
      ^bb0(%arg5: tensor<256xf32>, %arg6: f32, %arg7: i32):
        %12 = arith.muli %arg7, %arg2 : i32
        %13 = ktc.addptr %arg0, %12 : !ktc.ptr<f32>, i32
        %14 = ktc.splat %13 : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
        %15 = ktc.addptr %14, %4 : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
        %16 = ktc.load %15, mask %6, other %cst : tensor<256x!ktc.ptr<f32>>
        %17 = arith.addf %arg5, %16 : tensor<256xf32>
        %18 = ktc.reduce sum %16 axis = 0 : tensor<256xf32> -> f32
        %19 = arith.addf %arg6, %18 : f32
        %20 = arith.addi %arg7, %c1_i32 : i32
        scf.yield %17, %19, %20 : tensor<256xf32>, f32, i32
      }
      %8 = ktc.splat %7#1 : f32 -> tensor<256xf32>
      %9 = arith.divf %7#0, %8 : tensor<256xf32>
      %10 = ktc.splat %arg1 : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
      %11 = ktc.addptr %10, %4 : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
      ktc.store %11, %9, mask %6 : tensor<256x!ktc.ptr<f32>>
    }
    return
  }
}
