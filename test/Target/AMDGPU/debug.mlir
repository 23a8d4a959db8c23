// device_assert on gfx942: a wave holding a false element executes s_trap 2
// (llvm.trap; AMD targets get no message).
// RUN: ktc-compile %s --target=gfx942 --emit=asm | FileCheck %s
//
// device_print on AMD GPUs: ROCm's buffered printf, as clang's HIP printf
// with -mprintf-kind=buffered (lib/Target/AMDGPU/Printf.cpp). Each print
// reserves a record in the hidden_printf_buffer with __printf_alloc (ktc's
// own: the pointer at byte 72 of the implicit arguments, a compare-and-swap
// on the buffer's offset, inlined) and stores the control word (record
// bytes << 2 | 2), the format's MD5 and the arguments as 8 bytes each
// (ints zero-extended, floats as double); the formats go to the
// amdhsa.printf note once each ("0:0:<md5>,<format>"), which is what makes
// ROCm's runtime allocate the buffer and print it after the kernel.
// RUN: ktc-compile %S/../Inputs/debug-print.mlir --target=gfx942 --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: ktc-compile %S/../Inputs/debug-print.mlir --target=gfx942 --emit=asm | FileCheck %s --check-prefixes=ISA,CDNA
// RUN: ktc-compile %S/../Inputs/debug-print.mlir --target=gfx90a --emit=asm | FileCheck %s --check-prefixes=ISA,CDNA
// RUN: ktc-compile %S/../Inputs/debug-print.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefixes=ISA,RDNA
// RUN: ktc-compile %S/../Inputs/debug-print.mlir --target=gfx942 --emit=bin -o %t.gfx942.hsaco
// RUN: llvm-readelf --notes %t.gfx942.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: ktc-compile %S/../Inputs/debug-print.mlir --target=gfx90a --emit=bin -o %t.gfx90a.hsaco
// RUN: llvm-readelf --notes %t.gfx90a.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: ktc-compile %S/../Inputs/debug-print.mlir --target=gfx1100 --emit=bin -o %t.gfx1100.hsaco
// RUN: llvm-readelf --notes %t.gfx1100.hsaco | FileCheck %s --check-prefix=NOTES

// CHECK-LABEL: assert_only:
// CHECK: s_trap 2
// CHECK: s_endpgm

// No printf is left to link; the format strings live only in the note.
// LLVM-NOT: @{{printf|__ktc_amdgpu_printf}}
// LLVM-NOT: @__ktc_debug_
// LLVM-LABEL: define {{.*}}amdgpu_kernel void @debug(
// LLVM: call {{.*}}ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
// LLVM: getelementptr inbounds{{( nuw)?}} i8, ptr addrspace(4) %{{.*}}, i64 72
// LLVM: cmpxchg ptr addrspace(1) %{{.*}} syncscope("agent") monotonic monotonic
// 256 elements over 4 waves of 64: one record of 52 bytes a thread (control,
// MD5, pid x/y/z, idx, x), then the scalar's 44-byte record from thread 0.
// LLVM: store i32 210, ptr addrspace(1)
// LLVM-NEXT: getelementptr
// LLVM-NEXT: store i64 -2139829843856579976, ptr addrspace(1)
// LLVM: store double
// LLVM: store i32 178, ptr addrspace(1)
// LLVM-NEXT: getelementptr
// LLVM-NEXT: store i64 -7705459740411303831, ptr addrspace(1)
// LLVM-NOT: call {{.*}}@__printf_alloc
// LLVM: !llvm.printf.fmts = !{![[BLOCK:[0-9]+]], ![[SCALAR:[0-9]+]]}
// LLVM-DAG: ![[BLOCK]] = !{!"0:0:e24dcc1825262278,pid (%d, %d, %d) idx (%d) x: %f\0A"}
// LLVM-DAG: ![[SCALAR]] = !{!"0:0:9510b530fdb5e869,pid (%d, %d, %d) n: %d\0A"}

// The buffer's address from the kernarg segment (after the 16 bytes of x
// and n: hidden_printf_buffer at 88), the reservation, the records.
// ISA-LABEL: debug:
// CDNA: s_load_dwordx2 s[{{[0-9]+}}:{{[0-9]+}}], s[{{[0-9]+}}:{{[0-9]+}}], 0x58
// RDNA: s_load_b64 s[{{[0-9]+}}:{{[0-9]+}}], s[{{[0-9]+}}:{{[0-9]+}}], 0x58
// CDNA: global_atomic_cmpswap v{{[0-9]+}}, v{{[0-9]+}}, v[{{[0-9]+}}:{{[0-9]+}}], s[{{[0-9]+}}:{{[0-9]+}}] {{glc|sc0}}
// RDNA: global_atomic_cmpswap_b32 v{{[0-9]+}}, v{{[0-9]+}}, v[{{[0-9]+}}:{{[0-9]+}}], s[{{[0-9]+}}:{{[0-9]+}}] glc
// The input's device_assert: s_trap 2 (gfx11 places the trap's block after
// the kernel's s_endpgm).
// ISA: s_trap 2
// CDNA: s_endpgm

// NOTES: .offset: 88
// NOTES-NEXT: .size: 8
// NOTES-NEXT: .value_kind: hidden_printf_buffer
// NOTES: .name: debug
// NOTES: amdhsa.printf:
// NOTES-NEXT: - "0:0:e24dcc1825262278,pid (%d, %d, %d) idx (%d) x: %f\n"
// NOTES-NEXT: - "0:0:9510b530fdb5e869,pid (%d, %d, %d) n: %d\n"
// NOTES-NEXT: amdhsa.target:

module {
  func.func @assert_only(%x: !ktc.ptr<f32>, %n: i32) attributes {ktc.kernel, ktc.num_warps = 4 : i32} {
    %offs = ktc.arange 0, 256 : tensor<256xi32>
    %ns = ktc.splat %n : i32 -> tensor<256xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
    %p = ktc.splat %x : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
    %ptrs = ktc.addptr %p, %offs : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    %cst = arith.constant dense<0.0> : tensor<256xf32>
    %v = ktc.load %ptrs, mask %mask, other %cst : tensor<256x!ktc.ptr<f32>> loc("kernel.cpp":10:5)
    %ok = arith.cmpf oge, %v, %cst : tensor<256xf32>
    ktc.assert %ok, "x must be non-negative" : tensor<256xi1> loc("kernel.cpp":13:5)
    return
  }
}
