// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @pack_not_power_of_two(%x: tensor<256xi8>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op pack must be a power of two, got 3}}
  %0 = ktc.inline_asm_elementwise %x pack 3 asm {any = ["", "=r,r"]} : (tensor<256xi8>) -> tensor<256xi8>
  return
}

// -----

func.func @pack_too_big(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op pack 8 does not divide the 4 elements of 'tensor<4xi32>'}}
  %0 = ktc.inline_asm_elementwise %x pack 8 asm {any = ["", "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r,r,r,r"]} : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @scalar_pack(%x: i32) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op pack 2 does not divide the 1 elements of 'i32'}}
  %0 = ktc.inline_asm_elementwise %x pack 2 asm {any = ["", "=r,=r,r,r"]} : (i32) -> i32
  return
}

// -----

func.func @too_few_constraints(%x: tensor<256xi8>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op constraints '=r' for nvptx name 1 outputs and 0 inputs; with pack 4 the assembly has 1 output and 1 input registers}}
  %0 = ktc.inline_asm_elementwise %x pack 4 asm {nvptx = ["", "=r"]} : (tensor<256xi8>) -> tensor<256xi8>
  return
}

// -----

func.func @unpacked_outputs(%x: tensor<256xi32>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op constraints '=r,r,r' for host name 1 outputs and 2 inputs; with pack 2 the assembly has 2 output and 2 input registers}}
  %0 = ktc.inline_asm_elementwise %x pack 2 asm {host = ["", "=r,r,r"]} : (tensor<256xi32>) -> tensor<256xi32>
  return
}

// -----

func.func @bad_constraints(%x: tensor<256xi32>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op constraints '=r,{' for any are not valid LLVM inline-assembly constraints}}
  %0 = ktc.inline_asm_elementwise %x pack 1 asm {any = ["", "=r,{"]} : (tensor<256xi32>) -> tensor<256xi32>
  return
}

// -----

func.func @memory_operand(%x: tensor<256xi32>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op constraints '=*m,r' for any: memory operands and labels are not supported}}
  %0 = ktc.inline_asm_elementwise %x pack 1 asm {any = ["", "=*m,r"]} : (tensor<256xi32>) -> tensor<256xi32>
  return
}

// -----

func.func @unknown_target(%x: tensor<256xi32>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op has assembly for 'cuda'; the targets are any, host, nvptx and amdgpu}}
  %0 = ktc.inline_asm_elementwise %x pack 1 asm {cuda = ["", "=r,r"]} : (tensor<256xi32>) -> tensor<256xi32>
  return
}

// -----

func.func @not_a_pair(%x: tensor<256xi32>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op entry 'host' must be [assembly, constraints] (two strings)}}
  %0 = ktc.inline_asm_elementwise %x pack 1 asm {host = "bswapl $0"} : (tensor<256xi32>) -> tensor<256xi32>
  return
}

// -----

func.func @no_entries(%x: tensor<256xi32>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op needs assembly for at least one target}}
  %0 = ktc.inline_asm_elementwise %x pack 1 asm {} : (tensor<256xi32>) -> tensor<256xi32>
  return
}

// -----

func.func @two_shapes(%x: tensor<256xi32>, %y: tensor<128xi32>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op operands and results must have one shape, got 'tensor<128xi32>' and 'tensor<256xi32>'}}
  %0 = ktc.inline_asm_elementwise %x, %y pack 1 asm {any = ["", "=r,r,r"]} : (tensor<256xi32>, tensor<128xi32>) -> tensor<256xi32>
  return
}

// -----

func.func @scalar_and_block(%x: tensor<1xi32>, %y: i32) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op operands and results must have one shape, got 'i32' and 'tensor<1xi32>'}}
  %0 = ktc.inline_asm_elementwise %x, %y pack 1 asm {any = ["", "=r,r,r"]} : (tensor<1xi32>, i32) -> tensor<1xi32>
  return
}

// -----

func.func @booleans(%x: tensor<256xi1>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op takes integers of 8 to 64 bits and f16, bf16, f32 or f64, got 'tensor<256xi1>'}}
  %0 = ktc.inline_asm_elementwise %x pack 1 asm {any = ["", "=r,r"]} : (tensor<256xi1>) -> tensor<256xi32>
  return
}

// -----

func.func @pointers(%x: tensor<256x!ktc.ptr<f32>>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op takes integers of 8 to 64 bits and f16, bf16, f32 or f64, got 'tensor<256x!ktc.ptr<f32>>'}}
  %0 = ktc.inline_asm_elementwise %x pack 1 asm {any = ["", "=l,l"]} : (tensor<256x!ktc.ptr<f32>>) -> tensor<256xi64>
  return
}

// -----

func.func @no_results(%x: tensor<256xi32>) {
  // expected-error @+1 {{'ktc.inline_asm_elementwise' op needs at least one result}}
  ktc.inline_asm_elementwise %x pack 1 asm {any = ["", "r"]} : (tensor<256xi32>) -> ()
  return
}
