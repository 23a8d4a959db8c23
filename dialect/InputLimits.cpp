//===- InputLimits.cpp - how deep .mlir input may nest ---------------------===//

#include "dialect/InputLimits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::ktc {

std::optional<size_t> findTooDeepNesting(llvm::StringRef text,
                                         unsigned limit) {
  llvm::SmallVector<char, 64> open; // the closers expected, innermost last
  size_t minuses = 0; // a run of '-' separated by white space only
  for (size_t i = 0, n = text.size(); i < n; ++i) {
    char c = text[i];
    char next = i + 1 < n ? text[i + 1] : '\0';
    if (c == '"') { // a string literal: to its closing quote or line end
      for (++i; i < n && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      minuses = 0;
      continue;
    }
    if (c == '/' && next == '/') { // a comment
      while (i < n && text[i] != '\n')
        ++i;
      continue;
    }
    if (llvm::isSpace(c))
      continue;
    if (c == '-' && next == '>') { // an arrow, not a bracket
      ++i;
      minuses = 0;
      continue;
    }
    if (c == '-') {
      if (++minuses + open.size() > limit)
        return i;
      continue;
    }
    minuses = 0;
    char closer = c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}'
                : c == '<' ? '>' : '\0';
    if (closer) {
      open.push_back(closer);
      if (open.size() > limit)
        return i;
    } else if (!open.empty() && c == open.back()) {
      open.pop_back();
    }
    // Any other closer does not match: not counted (the parser reports it).
  }
  return std::nullopt;
}

bool checkNestingDepth(llvm::StringRef text, llvm::StringRef name,
                       llvm::raw_ostream &os) {
  std::optional<size_t> at = findTooDeepNesting(text);
  if (!at)
    return true;
  llvm::StringRef before = text.take_front(*at);
  size_t line = before.count('\n') + 1;
  size_t lineStart = before.rfind('\n');
  size_t column = *at - (lineStart == llvm::StringRef::npos ? 0 : lineStart + 1) + 1;
  os << name << ":" << line << ":" << column
     << ": error: the input nests deeper than " << kMaxNestingDepth
     << " levels (brackets, braces, parentheses, angle brackets or unary "
        "minus signs); ktc refuses it rather than overflow its stack\n";
  return false;
}

} // namespace mlir::ktc
