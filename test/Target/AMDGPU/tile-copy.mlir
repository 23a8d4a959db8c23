// A 64x64 f32 tile copied from an aligned row-major matrix on gfx942
// (256 threads, 16 elements a thread): the row stride and the column bound
// are multiples of 4 elements, so each run of 4 columns is one dwordx4.
// RUN: ktc-compile %S/../Inputs/tile_copy_64x64.mlir --target=gfx942 --emit=asm | FileCheck %s
// A stride of unknown divisibility: rows start anywhere, accesses are dwords.
// RUN: sed -e 's/%%stride: i32 {ktc.divisibility = 16 : i32}/%%stride: i32/' %S/../Inputs/tile_copy_64x64.mlir | ktc-compile - --target=gfx942 --emit=asm | FileCheck %s --check-prefix=SCALAR

// CHECK: tile_copy:
// CHECK-COUNT-4: global_load_dwordx4
// CHECK-COUNT-4: global_store_dwordx4
// CHECK-NOT: global_load_dword {{v|off}}
// CHECK-NOT: global_store_dword {{v|off}}
// CHECK-NOT: scratch_

// SCALAR: tile_copy:
// SCALAR-NOT: global_{{load|store}}_dwordx
// SCALAR-COUNT-16: global_load_dword v
// SCALAR-COUNT-16: global_store_dword v
// SCALAR: .end_amdgpu_metadata
