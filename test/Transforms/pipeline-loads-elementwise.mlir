// Dot operands read element by element (strides of any K and N: accesses
// of 2 bytes, too narrow for cp.async) are carried at most one iteration
// ahead on NVIDIA targets (elementwise-distance; 0 leaves them in place,
// as Triton's pipeliner does): each element holds a register a stage
// (Transforms/KtcPasses.td, ktc-pipeline-loads). AMD targets carry them
// num_stages - 1 ahead; 16-byte accesses are carried so on NVIDIA too.
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop-odd.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" --ktc-pipeline-async=target=sm_90 --ktc-pipeline-loads="target=sm_90 elementwise-distance=0" | FileCheck %s --check-prefix=NV
// By default (elementwise-distance=1) one iteration ahead, whatever
// num_stages (3 here): 0.0864 -> 0.0756 ms at 3001x517x2049 on an H200.
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop-odd.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" --ktc-pipeline-async=target=sm_90 --ktc-pipeline-loads=target=sm_90 | FileCheck %s --check-prefix=ONE
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop-odd.mlir --ktc-assign-layouts="num-warps=4 wave-size=64 arch=gfx942" --ktc-pipeline-loads=target=gfx942 | FileCheck %s --check-prefix=CARRIED
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop.mlir --ktc-assign-layouts="num-warps=4 wave-size=32 arch=sm_90" --ktc-pipeline-loads=target=sm_90 | FileCheck %s --check-prefix=CARRIED
// The host pipeline (no target) carries them as before.
// RUN: ktc-opt %S/../Target/Inputs/matmul-loop-odd.mlir --ktc-pipeline-loads | FileCheck %s --check-prefix=HOST

// NV-LABEL: func.func @matmul
// NV-NOT: ktc.load
// NV-NOT: ktc.async_copy
// NV: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32, #ktc.mma<{{.*}}>>)
// NV: %[[A:.*]] = ktc.load %{{.*}} : tensor<64x32x!ktc.ptr<f16>, #blocked{{[0-9]*}}>
// NV: %[[B:.*]] = ktc.load %{{.*}} : tensor<32x64x!ktc.ptr<f16>, #blocked{{[0-9]*}}>
// NV: ktc.dot %[[A]], %[[B]], %[[ACC]]

// Two iterations ahead (num_stages = 3): two loads of each before the loop.
// CARRIED-LABEL: func.func @matmul
// CARRIED-COUNT-4: ktc.load
// CARRIED: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})

// HOST-LABEL: func.func @matmul
// HOST-COUNT-4: ktc.load
// HOST: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})

// ONE-LABEL: func.func @matmul
// ONE-COUNT-2: ktc.load
// ONE-NOT: ktc.load
// ONE: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) ->
// ONE-COUNT-2: ktc.load
// ONE-NOT: ktc.load
// ONE: ktc.dot %[[A]], %[[B]], %[[ACC]]
