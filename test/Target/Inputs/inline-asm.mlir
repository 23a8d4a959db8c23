// Inline assembly (tl.inline_asm_elementwise), one entry per target:
// @bytes: (x & 0x1f) << 3 on each i8, four to a 32-bit register (each
// byte stays in its own: the assembly is elementwise);
// @pair: a + b and a - b of i32, two results;
// @few: 16 i8 over 128 threads, pack 4 (a thread's group of copies).
func.func @bytes(%x: !ktc.ptr<i8> {ktc.divisibility = 16 : i32}, %y: !ktc.ptr<i8> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel, ktc.num_warps = 4 : i32} {
  %r = ktc.arange 0, 512 : tensor<512xi32>
  %xb = ktc.splat %x : !ktc.ptr<i8> -> tensor<512x!ktc.ptr<i8>>
  %xp = ktc.addptr %xb, %r : tensor<512x!ktc.ptr<i8>>, tensor<512xi32>
  %v = ktc.load %xp : tensor<512x!ktc.ptr<i8>>
  %w = ktc.inline_asm_elementwise %v pack 4 pure asm {
      host = ["andl $$0x1f1f1f1f, $0\0A\09shll $$3, $0", "=r,0"],
      nvptx = ["and.b32 $0, $1, 0x1F1F1F1F;\0A\09shl.b32 $0, $0, 3;", "=r,r"],
      amdgpu = ["v_and_b32 $0, 0x1f1f1f1f, $1\0A\09v_lshlrev_b32 $0, 3, $0", "=v,v"]}
      : (tensor<512xi8>) -> tensor<512xi8>
  %yb = ktc.splat %y : !ktc.ptr<i8> -> tensor<512x!ktc.ptr<i8>>
  %yp = ktc.addptr %yb, %r : tensor<512x!ktc.ptr<i8>>, tensor<512xi32>
  ktc.store %yp, %w : tensor<512x!ktc.ptr<i8>>
  return
}

func.func @pair(%a: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %b: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %s: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}, %d: !ktc.ptr<i32> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel, ktc.num_warps = 4 : i32} {
  %r = ktc.arange 0, 256 : tensor<256xi32>
  %ab = ktc.splat %a : !ktc.ptr<i32> -> tensor<256x!ktc.ptr<i32>>
  %ap = ktc.addptr %ab, %r : tensor<256x!ktc.ptr<i32>>, tensor<256xi32>
  %av = ktc.load %ap : tensor<256x!ktc.ptr<i32>>
  %bb = ktc.splat %b : !ktc.ptr<i32> -> tensor<256x!ktc.ptr<i32>>
  %bp = ktc.addptr %bb, %r : tensor<256x!ktc.ptr<i32>>, tensor<256xi32>
  %bv = ktc.load %bp : tensor<256x!ktc.ptr<i32>>
  %sum, %diff = ktc.inline_asm_elementwise %av, %bv pack 1 pure asm {
      host = ["movl $2, $0\0A\09addl $3, $0\0A\09movl $2, $1\0A\09subl $3, $1", "=&r,=&r,r,r"],
      nvptx = ["add.s32 $0, $2, $3;\0A\09sub.s32 $1, $2, $3;", "=r,=r,r,r"],
      amdgpu = ["v_add3_u32 $0, $2, $3, 0\0A\09v_not_b32 $1, $3\0A\09v_add3_u32 $1, $2, $1, 1", "=&v,=&v,v,v"]}
      : (tensor<256xi32>, tensor<256xi32>) -> (tensor<256xi32>, tensor<256xi32>)
  %sb = ktc.splat %s : !ktc.ptr<i32> -> tensor<256x!ktc.ptr<i32>>
  %sp = ktc.addptr %sb, %r : tensor<256x!ktc.ptr<i32>>, tensor<256xi32>
  ktc.store %sp, %sum : tensor<256x!ktc.ptr<i32>>
  %db = ktc.splat %d : !ktc.ptr<i32> -> tensor<256x!ktc.ptr<i32>>
  %dp = ktc.addptr %db, %r : tensor<256x!ktc.ptr<i32>>, tensor<256xi32>
  ktc.store %dp, %diff : tensor<256x!ktc.ptr<i32>>
  return
}

func.func @few(%x: !ktc.ptr<i8> {ktc.divisibility = 16 : i32}) attributes {ktc.kernel, ktc.num_warps = 4 : i32} {
  %r = ktc.arange 0, 16 : tensor<16xi32>
  %xb = ktc.splat %x : !ktc.ptr<i8> -> tensor<16x!ktc.ptr<i8>>
  %xp = ktc.addptr %xb, %r : tensor<16x!ktc.ptr<i8>>, tensor<16xi32>
  %v = ktc.load %xp : tensor<16x!ktc.ptr<i8>>
  %w = ktc.inline_asm_elementwise %v pack 4 pure asm {
      host = ["andl $$0x1f1f1f1f, $0\0A\09shll $$3, $0", "=r,0"],
      nvptx = ["and.b32 $0, $1, 0x1F1F1F1F;\0A\09shl.b32 $0, $0, 3;", "=r,r"],
      amdgpu = ["v_and_b32 $0, 0x1f1f1f1f, $1\0A\09v_lshlrev_b32 $0, 3, $0", "=v,v"]}
      : (tensor<16xi8>) -> tensor<16xi8>
  ktc.store %xp, %w : tensor<16x!ktc.ptr<i8>>
  return
}
