//===- ExpectError.h - the unit tests' check of a ktc::Error ------*- C++ -*-===//
//
// Every error a user can cause must say what is wrong and point at the
// user's own line. expectErrorAt runs `f`, which must throw a ktc::Error
// whose message is exactly `message` and whose location is `file`:`line`
// (also as the prefix of what()). Each test file wraps it with its own
// __FILE__ and its `at`, which `f` sets to the line of the call it makes
// (read after `f` has run, hence the reference).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_TEST_UNIT_EXPECTERROR_H
#define KTC_TEST_UNIT_EXPECTERROR_H

#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace ktc::test {

inline void expectErrorAt(const std::function<void()> &f,
                          const std::string &message, const char *file,
                          const int &line) {
  try {
    f();
    ADD_FAILURE() << "no ktc::Error; expected: " << message;
  } catch (const Error &e) {
    EXPECT_EQ(e.message(), message);
    EXPECT_EQ(e.file(), file) << e.what();
    EXPECT_EQ(e.line(), static_cast<unsigned>(line)) << e.what();
    std::string prefix = std::string(file) + ":" + std::to_string(line) + ":";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
}

} // namespace ktc::test

#endif // KTC_TEST_UNIT_EXPECTERROR_H
