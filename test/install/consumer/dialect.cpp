// A downstream MLIR project on the installed ktc dialect (ktc::dialect): it
// registers the dialect, parses a ktc kernel, finds its ops and types through
// the installed C++ classes, and sees the dialect's verifier refuse a bad op.
// Prints PASS dialect or FAIL lines; the exit status says the same.

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <string>

static const char *kernel = R"mlir(
func.func @add(%x: !ktc.ptr<f32>, %out: !ktc.ptr<f32>, %n: i32)
    attributes {ktc.kernel} {
  %pid = ktc.program_id 0 : i32
  %c = arith.constant 128 : i32
  %start = arith.muli %pid, %c : i32
  %range = ktc.arange 0, 128 : tensor<128xi32>
  %s = ktc.splat %start : i32 -> tensor<128xi32>
  %offs = arith.addi %s, %range : tensor<128xi32>
  %nb = ktc.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %offs, %nb : tensor<128xi32>
  %xb = ktc.splat %x : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %xp = ktc.addptr %xb, %offs : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  %v = ktc.load %xp, mask %mask : tensor<128x!ktc.ptr<f32>>
  %w = arith.addf %v, %v : tensor<128xf32>
  %ob = ktc.splat %out : !ktc.ptr<f32> -> tensor<128x!ktc.ptr<f32>>
  %op = ktc.addptr %ob, %offs : tensor<128x!ktc.ptr<f32>>, tensor<128xi32>
  ktc.store %op, %w, mask %mask : tensor<128x!ktc.ptr<f32>>
  return
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::ktc::KtcDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::tensor::TensorDialect>();
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  int failures = 0;
  auto fail = [&](const std::string &what) {
    std::printf("FAIL %s\n", what.c_str());
    ++failures;
  };

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kernel, &context);
  if (!module) {
    fail("the kernel did not parse");
    return 1;
  }
  int loads = 0, stores = 0, ktcOps = 0, pointerArgs = 0;
  module->walk([&](mlir::Operation *op) {
    loads += mlir::isa<mlir::ktc::LoadOp>(op);
    stores += mlir::isa<mlir::ktc::StoreOp>(op);
    ktcOps += op->getDialect() &&
              op->getDialect()->getNamespace() == "ktc";
  });
  module->walk([&](mlir::func::FuncOp f) {
    for (mlir::Type t : f.getArgumentTypes())
      pointerArgs += mlir::isa<mlir::ktc::PtrType>(t);
  });
  if (loads != 1 || stores != 1 || ktcOps != 10 || pointerArgs != 2)
    fail("found " + std::to_string(loads) + " loads, " +
         std::to_string(stores) + " stores, " + std::to_string(ktcOps) +
         " ktc ops, " + std::to_string(pointerArgs) +
         " pointer arguments (expected 1, 1, 10, 2)");

  // The dialect's verifier runs in the consumer: arange's length must be a
  // power of two.
  std::string diagnostics;
  {
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return mlir::success();
    });
    auto bad = mlir::parseSourceString<mlir::ModuleOp>(
        "func.func @f() { %r = ktc.arange 0, 100 : tensor<100xi32>\n"
        "return }",
        &context);
    if (bad)
      fail("a 100-long arange verified");
  }
  if (diagnostics.find("power of two") == std::string::npos)
    fail("no power-of-two diagnostic, got: " + diagnostics);

  if (failures)
    return 1;
  std::printf("PASS dialect: %d ktc ops parsed and verified\n", ktcOps);
  return 0;
}
