//===- HostScan.h - ktc.scan on the host ------------------------*- C++ -*-===//
//
// Part of convert-ktc-to-host (ConvertToHost.cpp): the scan's lowering to
// scf loops over tensors (HostScan.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_CPU_HOSTSCAN_H
#define KTC_LIB_TARGET_CPU_HOSTSCAN_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ktc {

/// Adds ktc.scan's lowering, on `converter`'s types, to `patterns`.
void populateHostScanPatterns(const TypeConverter &converter,
                              RewritePatternSet &patterns);

} // namespace mlir::ktc

#endif // KTC_LIB_TARGET_CPU_HOSTSCAN_H
