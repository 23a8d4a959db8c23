// The seeds' fused softmax kernel in the ktc dialect (BLOCK_SIZE = 1024,
// num_stages = 2): a persistent kernel, each program strides over the rows
// and handles one whole row (n_cols <= BLOCK_SIZE) per iteration.
//
//   for row in range(program_id(0), n_rows, num_programs(0)):
//     cols = arange(0, BLOCK); mask = cols < n_cols
//     x = load(in + row * in_row_stride + cols, mask, other=-inf)
//     e = exp(x - max(x))
//     store(out + row * out_row_stride + cols, e / sum(e), mask)
//
// Run: build/bin/ktc-opt --canonicalize examples/softmax/softmax_fused.mlir
func.func @softmax_fused(%out: !ktc.ptr<f32>, %in: !ktc.ptr<f32>,
                         %in_row_stride: i32, %out_row_stride: i32,
                         %n_rows: i32, %n_cols: i32)
    attributes {ktc.kernel,
                ktc.constexpr = {BLOCK_SIZE = 1024 : i64, num_stages = 2 : i64}} {
  %ninf = arith.constant 0xFF800000 : f32
  %pid = ktc.program_id 0 : i32
  %nprog = ktc.num_programs 0 : i32
  %cols = ktc.arange 0, 1024 : tensor<1024xi32>
  %n_b = ktc.splat %n_cols : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %n_b : tensor<1024xi32>
  %ninf_b = ktc.splat %ninf : f32 -> tensor<1024xf32>
  scf.for %row = %pid to %n_rows step %nprog : i32 {
    %in_off = arith.muli %row, %in_row_stride : i32
    %in_row = ktc.addptr %in, %in_off : !ktc.ptr<f32>, i32
    %in_b = ktc.splat %in_row : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
    %p = ktc.addptr %in_b, %cols : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
    %x = ktc.load %p, mask %mask, other %ninf_b : tensor<1024x!ktc.ptr<f32>>
    %m = ktc.reduce max %x axis = 0 : tensor<1024xf32> -> f32
    %m_b = ktc.splat %m : f32 -> tensor<1024xf32>
    %d = arith.subf %x, %m_b : tensor<1024xf32>
    %e = math.exp %d fastmath<afn> : tensor<1024xf32>
    %s = ktc.reduce sum %e axis = 0 : tensor<1024xf32> -> f32
    %s_b = ktc.splat %s : f32 -> tensor<1024xf32>
    %y = arith.divf %e, %s_b fastmath<arcp,afn> : tensor<1024xf32>
    %out_off = arith.muli %row, %out_row_stride : i32
    %out_row = ktc.addptr %out, %out_off : !ktc.ptr<f32>, i32
    %out_b = ktc.splat %out_row : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
    %q = ktc.addptr %out_b, %cols : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
    ktc.store %q, %y, mask %mask : tensor<1024x!ktc.ptr<f32>>
  }
  return
}
