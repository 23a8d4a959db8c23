// The seeds' naive softmax kernel in the ktc dialect (BLOCK_SIZE = 256):
// one program per row, three passes over the row's columns.
//
//   row = program_id(0); x = in + row * row_stride; y = out + row * row_stride
//   m = -inf; for c in 0..n step BLOCK: m = max(m, max(load(x + c + arange, other=-inf)))
//   s = 0;    for c in 0..n step BLOCK: s += sum(where(mask, exp(load(x + ...) - m), 0))
//   for c in 0..n step BLOCK: store(y + c + arange, exp(load(x + ...) - m) / s, mask)
//
// Run: build/bin/ktc-opt --canonicalize examples/softmax/softmax_naive.mlir
func.func @softmax_naive(%in: !ktc.ptr<f32>, %out: !ktc.ptr<f32>,
                         %row_stride: i32, %n_cols: i32)
    attributes {ktc.kernel, ktc.constexpr = {BLOCK_SIZE = 256 : i64}} {
  %c0 = arith.constant 0 : i32
  %block = arith.constant 256 : i32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %row = ktc.program_id 0 : i32
  %row_off = arith.muli %row, %row_stride : i32
  %in_row = ktc.addptr %in, %row_off : !ktc.ptr<f32>, i32
  %out_row = ktc.addptr %out, %row_off : !ktc.ptr<f32>, i32
  %range = ktc.arange 0, 256 : tensor<256xi32>
  %n_b = ktc.splat %n_cols : i32 -> tensor<256xi32>
  %ninf_b = ktc.splat %ninf : f32 -> tensor<256xf32>
  %zero_b = ktc.splat %zero : f32 -> tensor<256xf32>
  %in_b = ktc.splat %in_row : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
  %out_b = ktc.splat %out_row : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>

  // Pass 1: the row max.
  %max = scf.for %start = %c0 to %n_cols step %block
      iter_args(%m = %ninf) -> (f32) : i32 {
    %start_b = ktc.splat %start : i32 -> tensor<256xi32>
    %cols = arith.addi %start_b, %range : tensor<256xi32>
    %mask = arith.cmpi slt, %cols, %n_b : tensor<256xi32>
    %p = ktc.addptr %in_b, %cols : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    %x = ktc.load %p, mask %mask, other %ninf_b : tensor<256x!ktc.ptr<f32>>
    %bm = ktc.reduce max %x axis = 0 : tensor<256xf32> -> f32
    %m_new = arith.maxnumf %m, %bm : f32
    scf.yield %m_new : f32
  }

  // Pass 2: the sum of exp(x - max); masked columns contribute 0.
  %max_b = ktc.splat %max : f32 -> tensor<256xf32>
  %sum = scf.for %start = %c0 to %n_cols step %block
      iter_args(%s = %zero) -> (f32) : i32 {
    %start_b = ktc.splat %start : i32 -> tensor<256xi32>
    %cols = arith.addi %start_b, %range : tensor<256xi32>
    %mask = arith.cmpi slt, %cols, %n_b : tensor<256xi32>
    %p = ktc.addptr %in_b, %cols : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    %x = ktc.load %p, mask %mask, other %ninf_b : tensor<256x!ktc.ptr<f32>>
    %d = arith.subf %x, %max_b : tensor<256xf32>
    %e = math.exp %d fastmath<afn> : tensor<256xf32>
    %e0 = arith.select %mask, %e, %zero_b : tensor<256xi1>, tensor<256xf32>
    %bs = ktc.reduce sum %e0 axis = 0 : tensor<256xf32> -> f32
    %s_new = arith.addf %s, %bs : f32
    scf.yield %s_new : f32
  }

  // Pass 3: out = exp(x - max) / sum.
  %sum_b = ktc.splat %sum : f32 -> tensor<256xf32>
  scf.for %start = %c0 to %n_cols step %block : i32 {
    %start_b = ktc.splat %start : i32 -> tensor<256xi32>
    %cols = arith.addi %start_b, %range : tensor<256xi32>
    %mask = arith.cmpi slt, %cols, %n_b : tensor<256xi32>
    %p = ktc.addptr %in_b, %cols : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    %x = ktc.load %p, mask %mask, other %ninf_b : tensor<256x!ktc.ptr<f32>>
    %d = arith.subf %x, %max_b : tensor<256xf32>
    %e = math.exp %d fastmath<afn> : tensor<256xf32>
    %y = arith.divf %e, %sum_b fastmath<arcp,afn> : tensor<256xf32>
    %q = ktc.addptr %out_b, %cols : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
    ktc.store %q, %y, mask %mask : tensor<256x!ktc.ptr<f32>>
  }
  return
}
