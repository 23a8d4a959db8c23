//===- InputLimitsTest.cpp - the nesting scan before parsing ---------------===//
//
// dialect/InputLimits.h: what counts as nesting, and what does not (string
// literals, comments, `->`, closers that match nothing), and the limit
// itself: 256 levels pass, 257 do not.
//
//===----------------------------------------------------------------------===//

#include "dialect/InputLimits.h"

#include <gtest/gtest.h>

#include <string>

using mlir::ktc::findTooDeepNesting;
using mlir::ktc::kMaxNestingDepth;

namespace {

std::string nest(char open, char close, unsigned depth) {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(InputLimits, TheLimitItself) {
  for (auto [open, close] : {std::pair{'(', ')'}, {'[', ']'}, {'{', '}'},
                             {'<', '>'}}) {
    EXPECT_FALSE(findTooDeepNesting(nest(open, close, kMaxNestingDepth)));
    EXPECT_EQ(findTooDeepNesting(nest(open, close, kMaxNestingDepth + 1)),
              size_t(kMaxNestingDepth));
  }
  // Mixed brackets count together; siblings do not add up.
  std::string mixed;
  for (unsigned i = 0; i < 200; ++i)
    mixed += "([{<"[i % 4];
  EXPECT_EQ(findTooDeepNesting(mixed + mixed), size_t(256));
  std::string siblings;
  for (int i = 0; i < 10000; ++i)
    siblings += "[[]]";
  EXPECT_FALSE(findTooDeepNesting(siblings));
}

TEST(InputLimits, StringsAndCommentsDoNotCount) {
  std::string deep = nest('[', ']', 1000);
  EXPECT_FALSE(findTooDeepNesting("\"" + deep + "\""));
  EXPECT_FALSE(findTooDeepNesting("// " + deep + "\n"));
  // An escaped quote does not end the string; a newline does.
  EXPECT_FALSE(findTooDeepNesting("\"\\\"" + deep + "\""));
  EXPECT_TRUE(findTooDeepNesting("\"abc\n" + deep));
}

TEST(InputLimits, ArrowsAndStrayClosersDoNotHideNesting) {
  // `-> ` inside angle brackets is no closer: 300 nested function types.
  std::string types;
  for (int i = 0; i < 300; ++i)
    types += "!llvm.func<i32 (i32) -> ";
  EXPECT_TRUE(findTooDeepNesting(types));
  // Closers that match nothing neither pop nor crash.
  EXPECT_FALSE(findTooDeepNesting(std::string(100000, ']')));
  EXPECT_TRUE(findTooDeepNesting(std::string(300, '(') + ">>>>]]]]}}}}" +
                                 std::string(300, '(')));
}

TEST(InputLimits, UnaryMinusRuns) {
  std::string minus;
  for (unsigned i = 0; i < kMaxNestingDepth + 1; ++i)
    minus += "- ";
  EXPECT_TRUE(findTooDeepNesting("(" + minus + "d0)"));
  // Binary minus between operands resets the run.
  std::string binary = "d0";
  for (int i = 0; i < 5000; ++i)
    binary += " - d0";
  EXPECT_FALSE(findTooDeepNesting(binary));
}

TEST(InputLimits, TheMessageNamesTheSpot) {
  std::string text = "module {\n  x = " + nest('[', ']', 300) + "\n}\n";
  std::string out;
  llvm::raw_string_ostream os(out);
  EXPECT_FALSE(mlir::ktc::checkNestingDepth(text, "in.mlir", os));
  // The module's brace is level 1: the 256th bracket is too deep.
  EXPECT_EQ(out, "in.mlir:2:262: error: the input nests deeper than 256 "
                 "levels (brackets, braces, parentheses, angle brackets or "
                 "unary minus signs); ktc refuses it rather than overflow "
                 "its stack\n");
  out.clear();
  EXPECT_TRUE(mlir::ktc::checkNestingDepth("module {}", "ok.mlir", os));
  EXPECT_EQ(out, "");
}

} // namespace
