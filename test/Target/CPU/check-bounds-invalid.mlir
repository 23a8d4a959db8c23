// RUN: ktc-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'ktc.check_bounds' may only be set on a kernel}}
func.func @not_a_kernel() attributes {ktc.check_bounds} {
  return
}

// -----

// expected-error @+1 {{'ktc.check_bounds' must be a unit attribute}}
func.func @not_unit() attributes {ktc.kernel, ktc.check_bounds = 1 : i32} {
  return
}
