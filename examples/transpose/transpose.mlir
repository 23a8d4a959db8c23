// The 2-D tiled transpose of examples/kernels/transpose.h in the ktc dialect,
// specialised as a launch on 8192 x 8192 floats specialises it (every
// argument divisible by 16), with 64 x 64 tiles:
//
//   offs_m = program_id(0) * BLOCK_M + arange(0, BLOCK_M)
//   offs_n = program_id(1) * BLOCK_N + arange(0, BLOCK_N)
//   mask   = (offs_m[:, None] < M) & (offs_n[None, :] < N)
//   tile   = load(in + offs_m[:, None] * in_stride + offs_n[None, :], mask)
//   store(out + offs_n[None, :] * out_stride + offs_m[:, None], tile, mask)
//
// The load's pointers are contiguous along the tile's rows (axis 1), the
// store's along its columns (axis 0).
//
// Run: build/bin/ktc-compile --target=sm_90 --emit=asm examples/transpose/transpose.mlir
func.func @transpose(%out: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                     %in: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                     %M: i32 {ktc.divisibility = 16 : i32},
                     %N: i32 {ktc.divisibility = 16 : i32},
                     %in_stride: i32 {ktc.divisibility = 16 : i32},
                     %out_stride: i32 {ktc.divisibility = 16 : i32})
    attributes {ktc.kernel, ktc.constexpr = {BLOCK_M = 64 : i64, BLOCK_N = 64 : i64}} {
  %block = arith.constant 64 : i32
  %range = ktc.arange 0, 64 : tensor<64xi32>
  %pid_m = ktc.program_id 0 : i32
  %start_m = arith.muli %pid_m, %block : i32
  %start_m_b = ktc.splat %start_m : i32 -> tensor<64xi32>
  %offs_m = arith.addi %start_m_b, %range : tensor<64xi32>
  %pid_n = ktc.program_id 1 : i32
  %start_n = arith.muli %pid_n, %block : i32
  %start_n_b = ktc.splat %start_n : i32 -> tensor<64xi32>
  %offs_n = arith.addi %start_n_b, %range : tensor<64xi32>
  %rows = ktc.expand_dims %offs_m axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %cols = ktc.expand_dims %offs_n axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  // mask = (rows < M) & (cols < N)
  %M_b = ktc.splat %M : i32 -> tensor<64x1xi32>
  %row_ok = arith.cmpi slt, %rows, %M_b : tensor<64x1xi32>
  %N_b = ktc.splat %N : i32 -> tensor<1x64xi32>
  %col_ok = arith.cmpi slt, %cols, %N_b : tensor<1x64xi32>
  %row_ok_t = ktc.broadcast %row_ok : tensor<64x1xi1> -> tensor<64x64xi1>
  %col_ok_t = ktc.broadcast %col_ok : tensor<1x64xi1> -> tensor<64x64xi1>
  %mask = arith.andi %row_ok_t, %col_ok_t : tensor<64x64xi1>
  // tile = load(in + rows * in_stride + cols, mask)
  %in_stride_b = ktc.splat %in_stride : i32 -> tensor<64x1xi32>
  %in_row = arith.muli %rows, %in_stride_b : tensor<64x1xi32>
  %in_b = ktc.splat %in : !ktc.ptr<f32> -> tensor<64x1x!ktc.ptr<f32>>
  %in_rows = ktc.addptr %in_b, %in_row : tensor<64x1x!ktc.ptr<f32>>, tensor<64x1xi32>
  %in_rows_t = ktc.broadcast %in_rows : tensor<64x1x!ktc.ptr<f32>> -> tensor<64x64x!ktc.ptr<f32>>
  %cols_t = ktc.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %in_ptrs = ktc.addptr %in_rows_t, %cols_t : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  %tile = ktc.load %in_ptrs, mask %mask : tensor<64x64x!ktc.ptr<f32>>
  // store(out + cols * out_stride + rows, tile, mask)
  %out_stride_b = ktc.splat %out_stride : i32 -> tensor<1x64xi32>
  %out_row = arith.muli %cols, %out_stride_b : tensor<1x64xi32>
  %out_b = ktc.splat %out : !ktc.ptr<f32> -> tensor<1x64x!ktc.ptr<f32>>
  %out_cols = ktc.addptr %out_b, %out_row : tensor<1x64x!ktc.ptr<f32>>, tensor<1x64xi32>
  %out_cols_t = ktc.broadcast %out_cols : tensor<1x64x!ktc.ptr<f32>> -> tensor<64x64x!ktc.ptr<f32>>
  %rows_t = ktc.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %out_ptrs = ktc.addptr %out_cols_t, %rows_t : tensor<64x64x!ktc.ptr<f32>>, tensor<64x64xi32>
  ktc.store %out_ptrs, %tile, mask %mask : tensor<64x64x!ktc.ptr<f32>>
  return
}
