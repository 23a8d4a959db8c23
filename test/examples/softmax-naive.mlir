// RUN: ktc-opt %ktc_src/examples/softmax/softmax_naive.mlir | ktc-opt | FileCheck %s
// RUN: ktc-opt --canonicalize --cse %ktc_src/examples/softmax/softmax_naive.mlir | FileCheck %s --check-prefix=CANON

// examples/softmax/softmax_naive.mlir: one program per row, three scf.for
// passes over the columns (row max, sum of exp, masked store).

// CHECK-LABEL: func.func @softmax_naive(
// CHECK-SAME: [[IN:%[a-zA-Z0-9_]+]]: !ktc.ptr<f32>, [[OUT:%[a-zA-Z0-9_]+]]: !ktc.ptr<f32>, [[STRIDE:%[a-zA-Z0-9_]+]]: i32, [[NCOLS:%[a-zA-Z0-9_]+]]: i32)
// CHECK-SAME: attributes {ktc.constexpr = {BLOCK_SIZE = 256 : i64}, ktc.kernel}
// CHECK-DAG: [[C0:%.*]] = arith.constant 0 : i32
// CHECK-DAG: [[C256:%.*]] = arith.constant 256 : i32
// CHECK-DAG: [[NINF:%.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: [[ZERO:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK: [[ROW:%.*]] = ktc.program_id 0 : i32
// CHECK: [[OFF:%.*]] = arith.muli [[ROW]], [[STRIDE]] : i32
// CHECK: [[IN_ROW:%.*]] = ktc.addptr [[IN]], [[OFF]] : !ktc.ptr<f32>, i32
// CHECK: [[OUT_ROW:%.*]] = ktc.addptr [[OUT]], [[OFF]] : !ktc.ptr<f32>, i32
// CHECK: [[RANGE:%.*]] = ktc.arange 0, 256 : tensor<256xi32>
// CHECK: [[N_B:%.*]] = ktc.splat [[NCOLS]] : i32 -> tensor<256xi32>
// CHECK: [[NINF_B:%.*]] = ktc.splat [[NINF]] : f32 -> tensor<256xf32>
// CHECK: [[ZERO_B:%.*]] = ktc.splat [[ZERO]] : f32 -> tensor<256xf32>
// CHECK: [[IN_B:%.*]] = ktc.splat [[IN_ROW]] : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
// CHECK: [[OUT_B:%.*]] = ktc.splat [[OUT_ROW]] : !ktc.ptr<f32> -> tensor<256x!ktc.ptr<f32>>
//
// Pass 1: the row max, carried as an f32 iter_arg.
// CHECK: [[MAX:%.*]] = scf.for [[I:%.*]] = [[C0]] to [[NCOLS]] step [[C256]] iter_args([[M:%.*]] = [[NINF]]) -> (f32) : i32 {
// CHECK:   [[START:%.*]] = ktc.splat [[I]] : i32 -> tensor<256xi32>
// CHECK:   [[COLS:%.*]] = arith.addi [[START]], [[RANGE]] : tensor<256xi32>
// CHECK:   [[MASK:%.*]] = arith.cmpi slt, [[COLS]], [[N_B]] : tensor<256xi32>
// CHECK:   [[P:%.*]] = ktc.addptr [[IN_B]], [[COLS]] : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
// CHECK:   [[X:%.*]] = ktc.load [[P]], mask [[MASK]], other [[NINF_B]] : tensor<256x!ktc.ptr<f32>>
// CHECK:   [[BM:%.*]] = ktc.reduce max [[X]] axis = 0 : tensor<256xf32> -> f32
// CHECK:   [[MNEW:%.*]] = arith.maxnumf [[M]], [[BM]] : f32
// CHECK:   scf.yield [[MNEW]] : f32
// CHECK-NEXT: }
//
// Pass 2: the sum of exp(x - max), masked columns zeroed by a select.
// CHECK: [[MAX_B:%.*]] = ktc.splat [[MAX]] : f32 -> tensor<256xf32>
// CHECK: [[SUM:%.*]] = scf.for [[I:%.*]] = [[C0]] to [[NCOLS]] step [[C256]] iter_args([[S:%.*]] = [[ZERO]]) -> (f32) : i32 {
// CHECK:   [[MASK:%.*]] = arith.cmpi slt, {{%.*}}, [[N_B]] : tensor<256xi32>
// CHECK:   [[X:%.*]] = ktc.load {{%.*}}, mask [[MASK]], other [[NINF_B]] : tensor<256x!ktc.ptr<f32>>
// CHECK:   [[D:%.*]] = arith.subf [[X]], [[MAX_B]] : tensor<256xf32>
// CHECK:   [[E:%.*]] = math.exp [[D]] fastmath<afn> : tensor<256xf32>
// CHECK:   [[E0:%.*]] = arith.select [[MASK]], [[E]], [[ZERO_B]] : tensor<256xi1>, tensor<256xf32>
// CHECK:   [[BS:%.*]] = ktc.reduce sum [[E0]] axis = 0 : tensor<256xf32> -> f32
// CHECK:   [[SNEW:%.*]] = arith.addf [[S]], [[BS]] : f32
// CHECK:   scf.yield [[SNEW]] : f32
// CHECK-NEXT: }
//
// Pass 3: out = exp(x - max) / sum, stored under the column mask.
// CHECK: [[SUM_B:%.*]] = ktc.splat [[SUM]] : f32 -> tensor<256xf32>
// CHECK: scf.for [[I:%.*]] = [[C0]] to [[NCOLS]] step [[C256]] : i32 {
// CHECK:   [[START:%.*]] = ktc.splat [[I]] : i32 -> tensor<256xi32>
// CHECK:   [[COLS:%.*]] = arith.addi [[START]], [[RANGE]] : tensor<256xi32>
// CHECK:   [[MASK:%.*]] = arith.cmpi slt, [[COLS]], [[N_B]] : tensor<256xi32>
// CHECK:   [[X:%.*]] = ktc.load {{%.*}}, mask [[MASK]], other [[NINF_B]] : tensor<256x!ktc.ptr<f32>>
// CHECK:   [[D:%.*]] = arith.subf [[X]], [[MAX_B]] : tensor<256xf32>
// CHECK:   [[E:%.*]] = math.exp [[D]] fastmath<afn> : tensor<256xf32>
// CHECK:   [[Y:%.*]] = arith.divf [[E]], [[SUM_B]] fastmath<arcp,afn> : tensor<256xf32>
// CHECK:   [[Q:%.*]] = ktc.addptr [[OUT_B]], [[COLS]] : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
// CHECK:   ktc.store [[Q]], [[Y]], mask [[MASK]] : tensor<256x!ktc.ptr<f32>>
// CHECK-NEXT: }
// CHECK-NEXT: return

// After --canonicalize --cse the splatted constants become dense constants;
// the three loops, their iter_args and the masked memory ops all stay.
// CANON-LABEL: func.func @softmax_naive(
// CANON-DAG: [[ZERO_B:%.*]] = arith.constant dense<0.000000e+00> : tensor<256xf32>
// CANON-DAG: [[NINF_B:%.*]] = arith.constant dense<0xFF800000> : tensor<256xf32>
// CANON-DAG: [[NINF:%.*]] = arith.constant 0xFF800000 : f32
// CANON-DAG: [[ZERO:%.*]] = arith.constant 0.000000e+00 : f32
// CANON: [[MAX:%.*]] = scf.for {{.*}} iter_args({{%.*}} = [[NINF]]) -> (f32) : i32 {
// CANON:   [[MASK:%.*]] = arith.cmpi slt
// CANON:   [[X:%.*]] = ktc.load {{%.*}}, mask [[MASK]], other [[NINF_B]]
// CANON:   ktc.reduce max [[X]] axis = 0 : tensor<256xf32> -> f32
// CANON:   arith.maxnumf
// CANON: [[SUM:%.*]] = scf.for {{.*}} iter_args({{%.*}} = [[ZERO]]) -> (f32) : i32 {
// CANON:   [[MASK:%.*]] = arith.cmpi slt
// CANON:   ktc.load {{%.*}}, mask [[MASK]], other [[NINF_B]]
// CANON:   [[E:%.*]] = math.exp {{%.*}} fastmath<afn> : tensor<256xf32>
// CANON:   [[E0:%.*]] = arith.select [[MASK]], [[E]], [[ZERO_B]]
// CANON:   ktc.reduce sum [[E0]] axis = 0 : tensor<256xf32> -> f32
// CANON: scf.for {{.*}} : i32 {
// CANON:   [[MASK:%.*]] = arith.cmpi slt
// CANON:   ktc.load {{%.*}}, mask [[MASK]], other [[NINF_B]]
// CANON:   math.exp
// CANON:   [[Y:%.*]] = arith.divf
// CANON:   ktc.store {{%.*}}, [[Y]], mask [[MASK]] : tensor<256x!ktc.ptr<f32>>
