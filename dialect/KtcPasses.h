//===- KtcPasses.h - ktc passes ---------------------------------*- C++ -*-===//

#ifndef KTC_DIALECT_KTCPASSES_H
#define KTC_DIALECT_KTCPASSES_H

#include "dialect/KtcDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ktc {

#define GEN_PASS_DECL
#include "dialect/KtcPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialect/KtcPasses.h.inc"

} // namespace mlir::ktc

#endif // KTC_DIALECT_KTCPASSES_H
