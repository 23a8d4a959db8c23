// RUN: ktc-opt %ktc_src/examples/softmax/softmax_online.mlir | ktc-opt | FileCheck %s
// RUN: ktc-opt --canonicalize --cse %ktc_src/examples/softmax/softmax_online.mlir | FileCheck %s --check-prefix=CANON

// examples/softmax/softmax_online.mlir: one program per row; pass 1 carries
// the running max and the rescaled running sum, pass 2 stores exp(x - m) / s.

// CHECK-LABEL: func.func @softmax_online(
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
// Pass 1: (m, s) carried together; s is rescaled by exp(m - m_new).
// CHECK: [[RES:%.*]]:2 = scf.for [[I:%.*]] = [[C0]] to [[NCOLS]] step [[C256]] iter_args([[M:%.*]] = [[NINF]], [[S:%.*]] = [[ZERO]]) -> (f32, f32) : i32 {
// CHECK:   [[START:%.*]] = ktc.splat [[I]] : i32 -> tensor<256xi32>
// CHECK:   [[COLS:%.*]] = arith.addi [[START]], [[RANGE]] : tensor<256xi32>
// CHECK:   [[MASK:%.*]] = arith.cmpi slt, [[COLS]], [[N_B]] : tensor<256xi32>
// CHECK:   [[P:%.*]] = ktc.addptr [[IN_B]], [[COLS]] : tensor<256x!ktc.ptr<f32>>, tensor<256xi32>
// CHECK:   [[X:%.*]] = ktc.load [[P]], mask [[MASK]], other [[NINF_B]] : tensor<256x!ktc.ptr<f32>>
// CHECK:   [[BM:%.*]] = ktc.reduce max [[X]] axis = 0 : tensor<256xf32> -> f32
// CHECK:   [[MNEW:%.*]] = arith.maxnumf [[M]], [[BM]] : f32
// CHECK:   [[DM:%.*]] = arith.subf [[M]], [[MNEW]] : f32
// CHECK:   [[SCALE:%.*]] = math.exp [[DM]] fastmath<afn> : f32
// CHECK:   [[SSCALED:%.*]] = arith.mulf [[S]], [[SCALE]] : f32
// CHECK:   [[MNEW_B:%.*]] = ktc.splat [[MNEW]] : f32 -> tensor<256xf32>
// CHECK:   [[D:%.*]] = arith.subf [[X]], [[MNEW_B]] : tensor<256xf32>
// CHECK:   [[E:%.*]] = math.exp [[D]] fastmath<afn> : tensor<256xf32>
// CHECK:   [[E0:%.*]] = arith.select [[MASK]], [[E]], [[ZERO_B]] : tensor<256xi1>, tensor<256xf32>
// CHECK:   [[BS:%.*]] = ktc.reduce sum [[E0]] axis = 0 : tensor<256xf32> -> f32
// CHECK:   [[SNEW:%.*]] = arith.addf [[SSCALED]], [[BS]] : f32
// CHECK:   scf.yield [[MNEW]], [[SNEW]] : f32, f32
// CHECK-NEXT: }
//
// Pass 2: out = exp(x - m) / s, stored under the column mask.
// CHECK: [[MAX_B:%.*]] = ktc.splat [[RES]]#0 : f32 -> tensor<256xf32>
// CHECK: [[SUM_B:%.*]] = ktc.splat [[RES]]#1 : f32 -> tensor<256xf32>
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
// both loops, the (f32, f32) iter_args and the masked memory ops all stay.
// CANON-LABEL: func.func @softmax_online(
// CANON-DAG: [[ZERO_B:%.*]] = arith.constant dense<0.000000e+00> : tensor<256xf32>
// CANON-DAG: [[NINF_B:%.*]] = arith.constant dense<0xFF800000> : tensor<256xf32>
// CANON-DAG: [[NINF:%.*]] = arith.constant 0xFF800000 : f32
// CANON-DAG: [[ZERO:%.*]] = arith.constant 0.000000e+00 : f32
// CANON: [[RES:%.*]]:2 = scf.for {{.*}} iter_args([[M:%.*]] = [[NINF]], [[S:%.*]] = [[ZERO]]) -> (f32, f32) : i32 {
// CANON:   [[MASK:%.*]] = arith.cmpi slt
// CANON:   [[X:%.*]] = ktc.load {{%.*}}, mask [[MASK]], other [[NINF_B]]
// CANON:   [[BM:%.*]] = ktc.reduce max [[X]] axis = 0 : tensor<256xf32> -> f32
// CANON:   [[MNEW:%.*]] = arith.maxnumf [[M]], [[BM]] : f32
// CANON:   math.exp {{%.*}} fastmath<afn> : f32
// CANON:   math.exp {{%.*}} fastmath<afn> : tensor<256xf32>
// CANON:   [[E0:%.*]] = arith.select [[MASK]], {{%.*}}, [[ZERO_B]]
// CANON:   ktc.reduce sum [[E0]] axis = 0 : tensor<256xf32> -> f32
// CANON:   scf.yield [[MNEW]], {{%.*}} : f32, f32
// CANON: ktc.splat [[RES]]#0 : f32 -> tensor<256xf32>
// CANON: ktc.splat [[RES]]#1 : f32 -> tensor<256xf32>
// CANON: scf.for {{.*}} : i32 {
// CANON:   [[MASK:%.*]] = arith.cmpi slt
// CANON:   ktc.load {{%.*}}, mask [[MASK]], other [[NINF_B]]
// CANON:   math.exp
// CANON:   [[Y:%.*]] = arith.divf
// CANON:   ktc.store {{%.*}}, [[Y]], mask [[MASK]] : tensor<256x!ktc.ptr<f32>>
