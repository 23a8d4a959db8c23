//===- KtcDialect.h - the ktc dialect ---------------------------*- C++ -*-===//
//
// Include this to use the ktc dialect: its dialect class, types, attributes
// and operations.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DIALECT_KTCDIALECT_H
#define KTC_DIALECT_KTCDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/KtcDialect.h.inc"
#include "dialect/KtcTypes.h"

#define GET_OP_CLASSES
#include "dialect/KtcOps.h.inc"

#endif // KTC_DIALECT_KTCDIALECT_H
