// RUN: ktc-opt %s -split-input-file -verify-diagnostics

func.func @program_id_axis_too_big() -> i32 {
  // expected-error @+1 {{'ktc.program_id' op axis must be 0, 1 or 2, got 3}}
  %0 = ktc.program_id 3 : i32
  return %0 : i32
}

// -----

func.func @program_id_axis_negative() -> i32 {
  // expected-error @+1 {{'ktc.program_id' op axis must be 0, 1 or 2, got -1}}
  %0 = ktc.program_id -1 : i32
  return %0 : i32
}

// -----

func.func @num_programs_axis() -> i32 {
  // expected-error @+1 {{'ktc.num_programs' op axis must be 0, 1 or 2, got 7}}
  %0 = ktc.num_programs 7 : i32
  return %0 : i32
}

// -----

func.func @program_id_i64() -> i64 {
  // expected-error @+1 {{'ktc.program_id' op result #0 must be 32-bit signless integer, but got 'i64'}}
  %0 = "ktc.program_id"() <{axis = 0 : i32}> : () -> i64
  return %0 : i64
}
