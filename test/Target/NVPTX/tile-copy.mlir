// A 64x64 f32 tile copied from an aligned row-major matrix on sm_90: the
// row stride and the column bound are multiples of 4 elements, so each
// thread reads and writes its runs of 4 columns as 16-byte accesses (2-D
// axis analysis along the last dimension): 32 elements a thread, 8 of each.
// RUN: ktc-compile %S/../Inputs/tile_copy_64x64.mlir --target=sm_90 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/tile_copy_64x64.mlir --target=sm_90 --emit=llvm | FileCheck %s --check-prefix=LLVM
// A stride of unknown divisibility: rows start anywhere, accesses are scalar.
// RUN: sed -e 's/%%stride: i32 {ktc.divisibility = 16 : i32}/%%stride: i32/' %S/../Inputs/tile_copy_64x64.mlir | ktc-compile - --target=sm_90 --emit=asm | FileCheck %s --check-prefix=SCALAR
// A stride of 2 elements' divisibility: 8-byte accesses.
// RUN: sed -e 's/%%stride: i32 {ktc.divisibility = 16 : i32}/%%stride: i32 {ktc.divisibility = 2 : i32}/' %S/../Inputs/tile_copy_64x64.mlir | ktc-compile - --target=sm_90 --emit=asm | FileCheck %s --check-prefix=V2

// CHECK: .visible .entry tile_copy(
// CHECK-COUNT-8: ld.global.v4.b32
// CHECK-COUNT-8: st.global.v4.b32
// CHECK-NOT: ld.global.b32
// CHECK-NOT: st.global.b32
// CHECK-NOT: .local

// The masked 16-byte accesses are predicated inline PTX (no branch):
// LLVM-COUNT-8: @$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];
// LLVM-COUNT-8: @$1 st.global.v4.b32 [$0], {$2, $3, $4, $5};

// SCALAR-NOT: .v4
// SCALAR-NOT: .v2
// SCALAR-COUNT-32: ld.global.b32
// SCALAR-COUNT-32: st.global.b32

// V2-NOT: .v4
// V2-COUNT-16: ld.global.v2.b32
// V2-COUNT-16: st.global.v2.b32
