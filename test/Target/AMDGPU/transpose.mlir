// A tile stored transposed changes layout once, through LDS: read from
// global memory in 16-byte rows (4 dwordx4 a thread), written back in
// 16-byte columns (4 dwordx4), the LDS tile (16384 bytes, as Triton's)
// swizzled -- each row's 16-byte chunks permuted by XOR with the row -- so
// that both the 16-byte writes and the column reads spread over the banks. No scratch, on CDNA (wave 64) and RDNA (wave 32).
// RUN: ktc-compile %S/../Inputs/transpose_64x64_aligned.mlir --target=gfx942 --emit=asm | FileCheck %s
// RUN: ktc-compile %S/../Inputs/transpose_64x64_aligned.mlir --target=gfx1100 --emit=asm | FileCheck %s --check-prefix=RDNA

// CHECK-LABEL: transpose_tile:
// CHECK-COUNT-4: global_load_dwordx4
// CHECK-COUNT-4: ds_write_b128
// CHECK: s_barrier
// CHECK: ds_read
// CHECK-COUNT-4: global_store_dwordx4
// CHECK-NOT: global_store_dword v
// CHECK-NOT: scratch_
// CHECK: .amdhsa_group_segment_fixed_size 16384
// CHECK: .amdhsa_private_segment_fixed_size 0

// RDNA-LABEL: transpose_tile:
// RDNA: global_load_b128
// RDNA: ds_store_b128
// RDNA: s_barrier
// RDNA: global_store_b128
// RDNA-NOT: scratch_
// RDNA: .amdhsa_group_segment_fixed_size 16384
// RDNA: .amdhsa_private_segment_fixed_size 0
