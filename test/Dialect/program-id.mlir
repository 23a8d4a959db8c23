// RUN: ktc-opt %s | ktc-opt | FileCheck %s

// CHECK-LABEL: func.func @grid
// CHECK-NEXT: ktc.program_id 0 : i32
// CHECK-NEXT: ktc.program_id 1 : i32
// CHECK-NEXT: ktc.program_id 2 : i32
// CHECK-NEXT: ktc.num_programs 0 : i32
// CHECK-NEXT: ktc.num_programs 1 : i32
// CHECK-NEXT: ktc.num_programs 2 : i32
func.func @grid() -> (i32, i32, i32, i32, i32, i32) {
  %0 = ktc.program_id 0 : i32
  %1 = ktc.program_id 1 : i32
  %2 = ktc.program_id 2 : i32
  %3 = ktc.num_programs 0 : i32
  %4 = ktc.num_programs 1 : i32
  %5 = ktc.num_programs 2 : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}
