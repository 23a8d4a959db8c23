//===- KtcPasses.h - ktc passes ---------------------------------*- C++ -*-===//

#ifndef KTC_DIALECT_KTCPASSES_H
#define KTC_DIALECT_KTCPASSES_H

#include "dialect/KtcDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ktc {

#define GEN_PASS_DECL
#include "dialect/KtcPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialect/KtcPasses.h.inc"

} // namespace mlir::ktc

#endif // KTC_DIALECT_KTCPASSES_H
