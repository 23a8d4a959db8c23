//===- ktc-opt.cpp - the ktc optimizer driver ------------------------------===//
//
// Like mlir-opt: reads .mlir, runs passes, prints. Knows ktc plus the upstream
// dialects ktc kernels are written with (builtin, func, arith, math, scf), the
// ktc passes, and upstream's generic passes (canonicalize, cse, ...).
//
//===----------------------------------------------------------------------===//

#include "dialect/KtcDialect.h"
#include "dialect/KtcPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::ktc::registerKtcPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::ktc::KtcDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ktc optimizer driver\n", registry));
}
