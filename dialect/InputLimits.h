//===- InputLimits.h - how deep .mlir input may nest ------------*- C++ -*-===//
//
// MLIR's parser, verifier, printer and passes recurse once per level of
// nesting (an attribute in a list, a type in a type, a region in an op), so
// input nested thousands deep overflows the stack. Every entry of ktc that
// parses .mlir text (ktc-opt, ktc-compile, the parse fuzzer) first scans it
// with checkNestingDepth and refuses anything deeper than kMaxNestingDepth.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DIALECT_INPUTLIMITS_H
#define KTC_DIALECT_INPUTLIMITS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace mlir::ktc {

/// The deepest nesting accepted: far beyond any kernel (they nest a dozen
/// levels), far below what overflows an 8 MiB stack in a sanitizer build.
constexpr unsigned kMaxNestingDepth = 256;

/// The offset in `text` where its nesting first goes deeper than `limit`,
/// if it does. Counts (), [], {} and <> pairs outside string literals and
/// comments (`->` is not a bracket), and runs of unary minus signs
/// (`- - - d0` in an affine expression), which the parser recurses on too.
std::optional<size_t> findTooDeepNesting(llvm::StringRef text,
                                         unsigned limit = kMaxNestingDepth);

/// Returns false, after printing "name:line:col: error: ..." to `os`, when
/// `text` nests deeper than kMaxNestingDepth.
bool checkNestingDepth(llvm::StringRef text, llvm::StringRef name,
                       llvm::raw_ostream &os);

} // namespace mlir::ktc

#endif // KTC_DIALECT_INPUTLIMITS_H
