//===- ktc-opt.cpp - the ktc optimizer driver ------------------------------===//
//
// Like mlir-opt: reads .mlir, runs passes, prints. Knows ktc plus the upstream
// dialects ktc kernels are written with (builtin, func, arith, math, scf), the
// ktc passes, and upstream's generic passes (canonicalize, cse, ...).
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"
#include "dialect/KtcPasses.h"
#include "lib/Conversion/GpuPipeline.h"
#include "lib/Target/CPU/HostTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::ktc::registerKtcPasses();
  ktc::host::registerHostPipeline();
  mlir::ktc::registerGpuPipeline();

  // The dialects kernels are written in, plus those the host pipeline
  // lowers through (linalg, tensor, memref, llvm, ...).
  mlir::DialectRegistry registry;
  ktc::host::registerHostDialects(registry);
  mlir::ktc::registerGpuDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ktc optimizer driver\n", registry));
}
