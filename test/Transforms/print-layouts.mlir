// RUN: ktc-opt %s --ktc-test-print-layouts -o /dev/null | FileCheck %s

// The picture of a layout docs/gpu-lowering.md shows: each warp's lanes
// (rows) and registers (columns), each cell the element (row,col) held.

// A 4x8 tile over 1 warp of 32 lanes (wave 32, NVIDIA and RDNA): a thread
// holds 2 neighbours along the row; 4 lanes cover a row of 8, so 8 rows of
// lanes wrap over the 4 rows (lanes 16..31 replicate 0..15).
// CHECK-LABEL: @tile argument 0: shape [4, 8], register = {{\[}}[0, 1]], lane = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [0, 0]], warp = []
// CHECK-NEXT: w0 l0: 0,0 0,1
// CHECK-NEXT: w0 l1: 0,2 0,3
// CHECK-NEXT: w0 l2: 0,4 0,5
// CHECK-NEXT: w0 l3: 0,6 0,7
// CHECK-NEXT: w0 l4: 1,0 1,1
// CHECK:      w0 l15: 3,6 3,7
// CHECK-NEXT: w0 l16: 0,0 0,1  (= w0 l0)
// CHECK:      w0 l31: 3,6 3,7  (= w0 l15)
#tile = #ktc.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
func.func @tile(%x: tensor<4x8xf32, #tile>) {
  return
}

// Its slice along dim 1 (a row reduction's result): the 4 lanes of a row
// hold the same element.
// CHECK-LABEL: @rows argument 0: shape [4], register = [], lane = {{\[}}[0], [0], [1], [2], [0]], warp = []
// CHECK-NEXT: w0 l0: 0
// CHECK-NEXT: w0 l1: 0  (= w0 l0)
// CHECK:      w0 l4: 1
func.func @rows(%x: tensor<4xf32, #ktc.slice<{dim = 1, parent = #tile}>>) {
  return
}

// A column-major layout over 2 waves of 64 (CDNA): runs of 4 down a column.
// CHECK-LABEL: @columns argument 0: shape [8, 32], register = {{\[}}[1, 0], [2, 0]], lane = {{\[}}[4, 0], [0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = {{\[}}[0, 0]]
// CHECK-NEXT: w0 l0: 0,0 1,0 2,0 3,0
// CHECK-NEXT: w0 l1: 4,0 5,0 6,0 7,0
// CHECK-NEXT: w0 l2: 0,1 1,1 2,1 3,1
// CHECK:      w1 l0: 0,0 1,0 2,0 3,0  (= w0 l0)
func.func @columns(%x: tensor<8x32xf32, #ktc.blocked<{sizePerThread = [4, 1], threadsPerWarp = [2, 32], warpsPerCTA = [1, 2], order = [0, 1]}>>) {
  return
}
