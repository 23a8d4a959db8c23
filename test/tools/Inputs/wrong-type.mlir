func.func @f(%x: i32) {
  %y = ktc.splat %x : i32 -> tensor<4xf32>
  return
}
