//===- HostShapes.h - ktc's shape ops on the host ---------------*- C++ -*-===//
//
// Part of convert-ktc-to-host (ConvertToHost.cpp): the patterns that lower
// the ops which only rearrange a block's elements (expand_dims, broadcast,
// trans, reshape) to tensor reshapes and linalg ops, for blocks of rank 1
// to 3. Pointers are already i64 addresses in the converted types.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_CPU_HOSTSHAPES_H
#define KTC_LIB_TARGET_CPU_HOSTSHAPES_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ktc {

/// Adds the shape ops' lowerings, on `converter`'s types, to `patterns`.
void populateHostShapePatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns);

/// Adds ktc.dot's lowering (a linalg.generic of fmas, HostDot.cpp).
void populateHostDotPatterns(const TypeConverter &converter,
                             RewritePatternSet &patterns);

/// Adds ktc.reduce_with's lowering (a linalg.reduce with the combine
/// region as its body, HostReductions.cpp).
void populateHostReducePatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns);
/// Adds ktc.atomic_rmw's and ktc.atomic_cas's lowerings (HostAtomics.cpp).
void populateHostAtomicPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns);
/// Adds ktc.inline_asm_elementwise's lowering (HostInlineAsm.cpp).
void populateHostInlineAsmPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);
/// Declares the memory effects of llvm.atomicrmw and llvm.cmpxchg (which
/// the buffer deallocation needs), as an extension of the LLVM dialect.
void registerHostAtomicEffects(DialectRegistry &registry);

} // namespace mlir::ktc

#endif // KTC_LIB_TARGET_CPU_HOSTSHAPES_H
