// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// A kernel entry point with its constexprs and argument specialisations.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: %{{[a-z0-9]+}}: !ktc.ptr<f32> {ktc.divisibility = 16 : i32}
// CHECK-SAME: %{{[a-z0-9]+}}: i32 {ktc.divisibility = 16 : i32}
// CHECK-SAME: %{{[a-z0-9]+}}: i64
// CHECK-SAME: %{{[a-z0-9]+}}: f32
// CHECK-SAME: %{{[a-z0-9]+}}: i1
// CHECK-SAME: attributes {ktc.constexpr = {BLOCK_SIZE = 1024 : i64, USE_MASK = true, scale = 5.000000e-01 : f32}, ktc.kernel, ktc.num_warps = 8 : i32}
func.func @kernel(%p: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                  %n: i32 {ktc.divisibility = 16 : i32}, %l: i64, %f: f32,
                  %b: i1)
    attributes {ktc.kernel, ktc.num_warps = 8 : i32,
                ktc.constexpr = {BLOCK_SIZE = 1024 : i64, USE_MASK = true,
                                 scale = 0.5 : f32}} {
  return
}

// A plain function (a helper) carries none of them.
// CHECK-LABEL: func.func @helper
// CHECK-NOT: ktc.kernel
func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
