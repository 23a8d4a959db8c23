//===- BoundsCheck.h - checked loads and stores on the host -----*- C++ -*-===//
//
// A kernel with `ktc.check_bounds` (a checked launch: Options::check_bounds
// or KTC_CHECK_BOUNDS=1) gets one more i64 argument after its own, the
// address of the launch's BoundsHook, and every ktc.load / ktc.store is
// lowered to a call of hook->check(hook, address, bytes, site, argument)
// before the access: the access is made only when it returns non-zero (a
// skipped load reads 0). `site` is "load\nFILE\nLINE\nCOLUMN" (or "store..."),
// the op's location, kept as a constant string in the kernel's code;
// `argument` is the kernel argument the pointer comes from when the IR says
// (addptr/splat/broadcast/expand_dims/trans/reshape chains), else -1. The
// runtime side is lib/Runtime/BoundsCheck.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_CPU_BOUNDSCHECK_H
#define KTC_LIB_TARGET_CPU_BOUNDSCHECK_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::ktc {

/// How one load or store is checked.
struct AccessSite {
  Value hook;          // !llvm.ptr to the launch's BoundsHook
  StringRef text;      // the global holding the site string
  int64_t argument;    // the kernel argument of the pointer, or -1
};

/// The checked accesses of a module, by op (filled before conversion).
using CheckedAccesses = llvm::DenseMap<Operation *, AccessSite>;

/// For a kernel with ktc.check_bounds (which it removes): appends the hook
/// argument and records a site for each of its loads and stores.
void prepareCheckedAccesses(func::FuncOp kernel, CheckedAccesses &sites);

/// An i1: whether `bytes` at `address` (i64) are inside the buffer of the
/// access, as the launch's hook says (recording the first that is not).
Value emitAccessCheck(OpBuilder &b, Location loc, const AccessSite &site,
                      Value address, int64_t bytes);

} // namespace mlir::ktc

#endif // KTC_LIB_TARGET_CPU_BOUNDSCHECK_H
