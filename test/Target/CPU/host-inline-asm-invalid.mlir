// RUN: ktc-opt %s --convert-ktc-to-host -verify-diagnostics

// No entry for the host: an error at the op.
func.func @nvptx_only(%p: !ktc.ptr<i32>) attributes {ktc.kernel} {
  %x = ktc.load %p : !ktc.ptr<i32>
  // expected-error @+2 {{failed to legalize operation 'ktc.inline_asm_elementwise'}}
  // expected-error @+1 {{inline_asm_elementwise has no assembly for the host; it has amdgpu, nvptx: add a "host" (x86-64) or "any" entry}}
  %0 = ktc.inline_asm_elementwise %x pack 1 asm {nvptx = ["mov.b32 $0, $1;", "=r,r"], amdgpu = ["v_mov_b32 $0, $1", "=v,v"]} : (i32) -> i32
  ktc.store %p, %0 : !ktc.ptr<i32>
  return
}
