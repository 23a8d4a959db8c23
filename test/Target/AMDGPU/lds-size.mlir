// LDS is static on AMD: the code object's group segment is what the
// lowering asked for (131072 bytes for the 128x256 f32 tile of a 2-D
// reduction, 4 bytes an element). gfx950 gives a workgroup 160 KiB of LDS;
// gfx942 64 KiB, where the kernel is refused naming both numbers (LLVM
// itself would stop with "local memory (131072) exceeds limit (65536)").
// RUN: ktc-compile %S/../Inputs/rows_128x256.mlir --target=gfx950 --emit=bin -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s
// RUN: not ktc-compile %S/../Inputs/rows_128x256.mlir --target=gfx942 --emit=bin -o %t.942 2>&1 | FileCheck %s --check-prefix=GFX942

// CHECK: .group_segment_fixed_size: 131072
// CHECK: .name: rows_max

// GFX942: rows_128x256.mlir:{{[0-9]+}}:{{[0-9]+}}: error: kernel 'rows_max' needs 131072 bytes of shared memory to move blocks between threads; gfx942 allows 65536 per workgroup: use smaller blocks
