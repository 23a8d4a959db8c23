// device_print and device_assert (ktc.print, ktc.assert: what a kernel
// traced with Options::debug holds) on sm_90: each thread passes the
// elements it holds to vprintf (the arguments in a stack struct: the
// program id, the element's index, the value as a double), a scalar from
// thread 0 only; a thread with a false element calls __assertfail with the
// message, file, line and kernel name, as CUDA's printf and assert do.
// RUN: ktc-compile %s --target=sm_90 --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: ktc-compile %s --target=sm_90 --emit=asm | FileCheck %s --check-prefix=PTX
// RUN: ktc-compile %s --target=sm_90 --emit=asm -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// LLVM-DAG: @[[MSG:__ktc_debug_[0-9]+]] = internal constant [23 x i8] c"x must be non-negative\00"
// LLVM-DAG: @[[FILE:__ktc_debug_[0-9]+]] = internal constant [11 x i8] c"kernel.cpp\00"
// LLVM-DAG: @[[FUNC:__ktc_debug_[0-9]+]] = internal constant [6 x i8] c"debug\00"
// LLVM-DAG: @[[SCALAR:__ktc_debug_[0-9]+]] = internal constant [24 x i8] c"pid (%d, %d, %d) n: %d\0A\00"
// LLVM-DAG: @[[BLOCK:__ktc_debug_[0-9]+]] = internal constant [33 x i8] c"pid (%d, %d, %d) idx (%d) x: %f\0A\00"
// LLVM-DAG: declare i32 @vprintf(ptr, ptr)
// LLVM-DAG: declare void @__assertfail(ptr, ptr, i32, ptr, i64)
// LLVM-LABEL: define {{.*}}void @debug(
// 256 elements over 128 threads: two prints a thread.
// LLVM: fpext float %{{.*}} to double
// LLVM: call i32 @vprintf(ptr nonnull @[[BLOCK]], ptr nonnull %{{[0-9]+}})
// LLVM: call i32 @vprintf(ptr nonnull @[[BLOCK]], ptr nonnull %{{[0-9]+}})
// LLVM: icmp eq i32 %{{.*}}, 0
// LLVM: call i32 @vprintf(ptr nonnull @[[SCALAR]], ptr nonnull %{{[0-9]+}})
// LLVM: call void @__assertfail(ptr nonnull @[[MSG]], ptr nonnull @[[FILE]], i32 13, ptr nonnull @[[FUNC]], i64 1)
// LLVM-NOT: vprintf

// PTX: .extern .func __assertfail
// PTX: .extern .func (.param .b32 func_retval0) vprintf
// PTX: call.uni (retval0), vprintf, (param0, param1);
// PTX: call.uni __assertfail,

module {
  func.func @debug(%x: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel, ktc.num_warps = 4 : i32} {
    %offs = ktc.arange 0, 256 : tensor<256xi32>
    %ns = ktc.splat %n : i32 -> tensor<256xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
    %p = ktc.splat %x : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
    %ptrs = ktc.addptr %p, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    %cst = arith.constant dense<0.0> : tensor<256xf32>
    %v = ktc.load %ptrs, mask %mask, other %cst : tensor<256x!ktc.ptr<f32>> loc("kernel.cpp":10:5)
    ktc.print "x", %v : tensor<256xf32> loc("kernel.cpp":11:5)
    ktc.print "n", %n : i32 loc("kernel.cpp":12:5)
    %ok = arith.cmpf oge, %v, %cst : tensor<256xf32>
    ktc.assert %ok, "x must be non-negative" : tensor<256xi1> loc("kernel.cpp":13:5)
    return
  }
}
