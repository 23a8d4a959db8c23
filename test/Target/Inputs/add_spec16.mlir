// Vector-add as the launcher specialises it for aligned buffers and a size
// divisible by 16 (Triton's "spec16"): pointers 16-byte aligned, n % 16 == 0.
func.func @add_kernel(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                      %y: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                      %out: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                      %n: i32 {ktc.divisibility = 16 : i32})
    attributes {ktc.kernel, ktc.constexpr = {BLOCK_SIZE = 1024 : i64}} {
  %block = arith.constant 1024 : i32
  %pid = ktc.program_id 0 : i32
  %start = arith.muli %pid, %block : i32
  %range = ktc.arange 0, 1024 : tensor<1024xi32>
  %start_b = ktc.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %start_b, %range : tensor<1024xi32>
  %n_b = ktc.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %n_b : tensor<1024xi32>
  %x_b = ktc.splat %x : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %x_p = ktc.addptr %x_b, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  %xv = ktc.load %x_p, mask %mask : tensor<1024x!ktc.ptr<f32>>
  %y_b = ktc.splat %y : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %y_p = ktc.addptr %y_b, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  %yv = ktc.load %y_p, mask %mask : tensor<1024x!ktc.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<1024xf32>
  %o_b = ktc.splat %out : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
  %o_p = ktc.addptr %o_b, %offs : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
  ktc.store %o_p, %sum, mask %mask : tensor<1024x!ktc.ptr<f32>>
  return
}
