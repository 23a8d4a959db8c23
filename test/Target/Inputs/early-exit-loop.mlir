// return_if inside a for_range, as ktc::return_if traces it
// (lib/Builder/EarlyExit.cpp): the loop carries an i1 "left" flag, every
// iteration is guarded by it (scf.if %arg8), and the rest of the kernel, a
// block reduction whose GPU code has a barrier, is the else branch of an
// scf.if on the loop's flag. The flag is a scalar every thread of a program
// computes alike: test/unit/EarlyExitTest.cpp EarlyExit.InAForRange.
module {
  func.func @leave_for(%arg0: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %arg1: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %arg2: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %arg3: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %arg4: i32, %arg5: i32) attributes {ktc.constexpr = {arg6 = 64 : i64}, ktc.kernel, ktc.num_warps = 4 : i32} {
    %cst = arith.constant dense<0> : tensor<64xi32>
    %true = arith.constant true
    %c3_i32 = arith.constant 3 : i32
    %false = arith.constant false
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %0 = ktc.program_id 0 : i32
    %1 = ktc.arange 0, 64 : tensor<64xi32>
    %2 = arith.cmpi sgt, %arg4, %c0_i32 : i32
    %3 = arith.select %2, %arg4, %c0_i32 : i32
    %4:2 = scf.for unsigned %arg6 = %c0_i32 to %3 step %c1_i32 iter_args(%arg7 = %c0_i32, %arg8 = %false) -> (i32, i1)  : i32 {
      %5:2 = scf.if %arg8 -> (i32, i1) {
        scf.yield %arg7, %true : i32, i1
      } else {
        %6 = arith.muli %0, %arg4 : i32
        %7 = ktc.addptr %arg0, %6 : !ktc.ptr<i32>, i32
        %8 = ktc.addptr %7, %arg6 : !ktc.ptr<i32>, i32
        %9 = ktc.load %8 : !ktc.ptr<i32>
        %10 = arith.cmpi slt, %9, %arg5 : i32
        %11 = scf.if %10 -> (i32) {
          scf.yield %arg7 : i32
        } else {
          %12 = arith.muli %9, %c3_i32 : i32
          %13 = ktc.addptr %arg1, %6 : !ktc.ptr<i32>, i32
          %14 = ktc.addptr %13, %arg6 : !ktc.ptr<i32>, i32
          ktc.store %14, %12 : !ktc.ptr<i32>
          %15 = arith.addi %arg7, %9 : i32
          scf.yield %15 : i32
        }
        scf.yield %11, %10 : i32, i1
      }
      scf.yield %5#0, %5#1 : i32, i1
    }
    scf.if %4#1 {
    } else {
      %5 = ktc.splat %arg4 : i32 -> tensor<64xi32>
      %6 = arith.cmpi slt, %1, %5 : tensor<64xi32>
      %7 = arith.muli %0, %arg4 : i32
      %8 = ktc.addptr %arg0, %7 : !ktc.ptr<i32>, i32
      %9 = ktc.splat %8 : !ktc.ptr<i32> -> tensor<64x!ktc.ptr<i32>>
      %10 = ktc.addptr %9, %1 : tensor<64x!ktc.ptr<i32>>, tensor<64xi32>
      %11 = ktc.load %10, mask %6, other %cst : tensor<64x!ktc.ptr<i32>>
      %12 = ktc.reduce sum %11 axis = 0 : tensor<64xi32> -> i32
      %13 = ktc.addptr %arg2, %0 : !ktc.ptr<i32>, i32
      ktc.store %13, %12 : !ktc.ptr<i32>
      %14 = ktc.addptr %arg3, %0 : !ktc.ptr<i32>, i32
      ktc.store %14, %4#0 : !ktc.ptr<i32>
    }
    return
  }
}
