// RUN: ktc-opt %ktc_src/examples/softmax/softmax_fused.mlir | ktc-opt | FileCheck %s
// RUN: ktc-opt --canonicalize --cse %ktc_src/examples/softmax/softmax_fused.mlir | FileCheck %s --check-prefix=CANON

// examples/softmax/softmax_fused.mlir: a persistent kernel striding over the
// rows by num_programs(0); each iteration handles one whole row.

// CHECK-LABEL: func.func @softmax_fused(
// CHECK-SAME: [[OUT:%[a-zA-Z0-9_]+]]: !ktc.ptr<f32>, [[IN:%[a-zA-Z0-9_]+]]: !ktc.ptr<f32>, [[IN_STRIDE:%[a-zA-Z0-9_]+]]: i32, [[OUT_STRIDE:%[a-zA-Z0-9_]+]]: i32, [[NROWS:%[a-zA-Z0-9_]+]]: i32, [[NCOLS:%[a-zA-Z0-9_]+]]: i32)
// CHECK-SAME: attributes {ktc.constexpr = {BLOCK_SIZE = 1024 : i64, num_stages = 2 : i64}, ktc.kernel}
// CHECK: [[NINF:%.*]] = arith.constant 0xFF800000 : f32
// CHECK: [[PID:%.*]] = ktc.program_id 0 : i32
// CHECK: [[NPROG:%.*]] = ktc.num_programs 0 : i32
// CHECK: [[COLS:%.*]] = ktc.arange 0, 1024 : tensor<1024xi32>
// CHECK: [[N_B:%.*]] = ktc.splat [[NCOLS]] : i32 -> tensor<1024xi32>
// CHECK: [[MASK:%.*]] = arith.cmpi slt, [[COLS]], [[N_B]] : tensor<1024xi32>
// CHECK: [[NINF_B:%.*]] = ktc.splat [[NINF]] : f32 -> tensor<1024xf32>
// CHECK: scf.for [[ROW:%.*]] = [[PID]] to [[NROWS]] step [[NPROG]] : i32 {
// CHECK:   [[IN_OFF:%.*]] = arith.muli [[ROW]], [[IN_STRIDE]] : i32
// CHECK:   [[IN_ROW:%.*]] = ktc.addptr [[IN]], [[IN_OFF]] : !ktc.ptr<f32>, i32
// CHECK:   [[IN_B:%.*]] = ktc.splat [[IN_ROW]] : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
// CHECK:   [[P:%.*]] = ktc.addptr [[IN_B]], [[COLS]] : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
// CHECK:   [[X:%.*]] = ktc.load [[P]], mask [[MASK]], other [[NINF_B]] : tensor<1024x!ktc.ptr<f32>>
// CHECK:   [[M:%.*]] = ktc.reduce max [[X]] axis = 0 : tensor<1024xf32> -> f32
// CHECK:   [[M_B:%.*]] = ktc.splat [[M]] : f32 -> tensor<1024xf32>
// CHECK:   [[D:%.*]] = arith.subf [[X]], [[M_B]] : tensor<1024xf32>
// CHECK:   [[E:%.*]] = math.exp [[D]] fastmath<afn> : tensor<1024xf32>
// CHECK:   [[S:%.*]] = ktc.reduce sum [[E]] axis = 0 : tensor<1024xf32> -> f32
// CHECK:   [[S_B:%.*]] = ktc.splat [[S]] : f32 -> tensor<1024xf32>
// CHECK:   [[Y:%.*]] = arith.divf [[E]], [[S_B]] fastmath<arcp,afn> : tensor<1024xf32>
// CHECK:   [[OUT_OFF:%.*]] = arith.muli [[ROW]], [[OUT_STRIDE]] : i32
// CHECK:   [[OUT_ROW:%.*]] = ktc.addptr [[OUT]], [[OUT_OFF]] : !ktc.ptr<f32>, i32
// CHECK:   [[OUT_B:%.*]] = ktc.splat [[OUT_ROW]] : !ktc.ptr<f32> -> tensor<1024x!ktc.ptr<f32>>
// CHECK:   [[Q:%.*]] = ktc.addptr [[OUT_B]], [[COLS]] : tensor<1024x!ktc.ptr<f32>>, tensor<1024xi32>
// CHECK:   ktc.store [[Q]], [[Y]], mask [[MASK]] : tensor<1024x!ktc.ptr<f32>>
// CHECK-NEXT: }
// CHECK-NEXT: return

// After --canonicalize --cse the -inf splat is a dense constant; the
// persistent loop and the masked load/store are unchanged.
// CANON-LABEL: func.func @softmax_fused(
// CANON: [[NINF_B:%.*]] = arith.constant dense<0xFF800000> : tensor<1024xf32>
// CANON: [[PID:%.*]] = ktc.program_id 0 : i32
// CANON: [[NPROG:%.*]] = ktc.num_programs 0 : i32
// CANON: [[COLS:%.*]] = ktc.arange 0, 1024 : tensor<1024xi32>
// CANON: [[MASK:%.*]] = arith.cmpi slt, [[COLS]], {{%.*}} : tensor<1024xi32>
// CANON: scf.for {{%.*}} = [[PID]] to {{%.*}} step [[NPROG]] : i32 {
// CANON:   [[X:%.*]] = ktc.load {{%.*}}, mask [[MASK]], other [[NINF_B]] : tensor<1024x!ktc.ptr<f32>>
// CANON:   ktc.reduce max [[X]] axis = 0 : tensor<1024xf32> -> f32
// CANON:   [[E:%.*]] = math.exp {{%.*}} fastmath<afn> : tensor<1024xf32>
// CANON:   ktc.reduce sum [[E]] axis = 0 : tensor<1024xf32> -> f32
// CANON:   [[Y:%.*]] = arith.divf [[E]], {{%.*}} fastmath<arcp,afn> : tensor<1024xf32>
// CANON:   ktc.store {{%.*}}, [[Y]], mask [[MASK]] : tensor<1024x!ktc.ptr<f32>>
