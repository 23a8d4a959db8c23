//===- EnvTest.cpp - one parser for every KTC_* variable -------------------===//
//
// Switches are true/false, on/off, yes/no, 1/0 in any case with blanks
// around; anything else warns once, naming the variable and the value, and
// keeps the default (KTC_CACHE=disabled and KTC_CACHE_LOG=false were "on":
// issue 15, item 17).
//
//===----------------------------------------------------------------------===//

#include "lib/Cache/DiskCache.h"
#include "lib/Support/Env.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace ktc;

namespace {

struct Captured {
  std::vector<std::string> lines;
  Captured() {
    env::setWarningHandler([this](const std::string &l) { lines.push_back(l); });
  }
  ~Captured() { env::setWarningHandler({}); }
};

TEST(Env, SwitchWords) {
  for (const char *on : {"1", "true", "TRUE", "On", "yes", " YES ", "\ttrue\n"})
    EXPECT_EQ(env::parseFlag(on), std::optional<bool>(true)) << on;
  for (const char *off : {"0", "false", "False", "OFF", "no", " no "})
    EXPECT_EQ(env::parseFlag(off), std::optional<bool>(false)) << off;
  for (const char *odd : {"disabled", "2", "-1", "yes please", "tru", "o n",
                          "0x0", "nope"})
    EXPECT_EQ(env::parseFlag(odd), std::nullopt) << odd;
}

TEST(Env, FlagDefaultsAndWarnsOnce) {
  Captured warnings;
  unsetenv("KTC_TEST_SWITCH");
  EXPECT_TRUE(env::flag("KTC_TEST_SWITCH", true));
  setenv("KTC_TEST_SWITCH", "", 1);
  EXPECT_FALSE(env::flag("KTC_TEST_SWITCH", false));
  setenv("KTC_TEST_SWITCH", "  ", 1);
  EXPECT_TRUE(env::flag("KTC_TEST_SWITCH", true));
  EXPECT_TRUE(warnings.lines.empty());
  setenv("KTC_TEST_SWITCH", "Off", 1);
  EXPECT_FALSE(env::flag("KTC_TEST_SWITCH", true));
  setenv("KTC_TEST_SWITCH", "maybe\n", 1);
  EXPECT_FALSE(env::flag("KTC_TEST_SWITCH", false));
  EXPECT_TRUE(env::flag("KTC_TEST_SWITCH", true));
  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_EQ(warnings.lines[0],
            "ktc: warning: KTC_TEST_SWITCH='maybe\\0A' is not a switch "
            "(true/false, on/off, yes/no, 1/0); KTC_TEST_SWITCH stays off");
  unsetenv("KTC_TEST_SWITCH");
}

TEST(Env, Words) {
  setenv("KTC_TEST_WORD", " CPU\n", 1);
  EXPECT_EQ(env::word("KTC_TEST_WORD"), "cpu");
  setenv("KTC_TEST_WORD", " \t", 1);
  EXPECT_EQ(env::word("KTC_TEST_WORD"), std::nullopt);
  unsetenv("KTC_TEST_WORD");
  EXPECT_EQ(env::word("KTC_TEST_WORD"), std::nullopt);
}

TEST(Env, CacheSwitch) {
  Captured warnings;
  const char *saved = std::getenv("KTC_CACHE");
  std::string old = saved ? saved : "";
  setenv("KTC_CACHE_DIR", "/tmp/ktc-env-test-unused", 1);
  for (const char *off : {"off", " OFF ", "False", "no", "0"}) {
    setenv("KTC_CACHE", off, 1);
    EXPECT_FALSE(cache::DiskCache::fromEnvironment().enabled()) << off;
  }
  for (const char *on : {"on", "TRUE", "1", "yes"}) {
    setenv("KTC_CACHE", on, 1);
    EXPECT_TRUE(cache::DiskCache::fromEnvironment().enabled()) << on;
  }
  EXPECT_TRUE(warnings.lines.empty());
  setenv("KTC_CACHE", "disabled", 1);
  EXPECT_TRUE(cache::DiskCache::fromEnvironment().enabled());
  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_EQ(warnings.lines[0],
            "ktc: warning: KTC_CACHE='disabled' is not a switch (true/false, "
            "on/off, yes/no, 1/0); KTC_CACHE stays on");
  saved ? setenv("KTC_CACHE", old.c_str(), 1) : unsetenv("KTC_CACHE");
  unsetenv("KTC_CACHE_DIR");
}

} // namespace
