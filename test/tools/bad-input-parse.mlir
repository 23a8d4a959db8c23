// Bad .mlir given to ktc-opt: a diagnostic at the offending line and exit
// status 1, never a crash (docs/bad-inputs.md). The dialect's own invalid-*
// tests (test/Dialect) pin each op's verifier; these are the inputs that
// never reach one.
// RUN: ktc-opt %s -split-input-file -verify-diagnostics
// RUN: not ktc-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: ktc-opt %s > /dev/null 2>&1; echo "exit $?" | FileCheck %s --check-prefix=STATUS

// WHOLE: bad-input-parse.mlir:[[@LINE+5]]:3: error: custom op 'ktc.frobnicate' is unknown
// STATUS: exit 1

func.func @unknown_ktc_op(%p: !ktc.ptr<f32>) {
  // expected-error @+1 {{custom op 'ktc.frobnicate' is unknown}}
  ktc.frobnicate %p : !ktc.ptr<f32>
  return
}

// -----

// expected-error @+1 {{type `pointer` in dialect `ktc`}}
func.func @unknown_type(%p: !ktc.pointer<f32>) {
  return
}

// -----

func.func @unregistered_dialect() {
  // expected-error @+1 {{operation being parsed with an unregistered dialect}}
  "foo.bar"() : () -> ()
  return
}

// -----

func.func @float_offset(%p: !ktc.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'ktc.addptr' op operand #1 must be i32 or i64 scalar or block tensor, but got 'f32'}}
  %q = ktc.addptr %p, %o : !ktc.ptr<f32>, f32
  return
}

// -----

func.func @undefined_value(%p: !ktc.ptr<f32>) {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %v = ktc.load %q : !ktc.ptr<f32>
  return
}

// -----

func.func @truncated(%p: !ktc.ptr<f32>) {
  // expected-error @+1 {{expected SSA operand}}
  %v = ktc.load
