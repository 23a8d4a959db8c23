//===- Env.cpp - reading ktc's environment variables ----------------------===//

#include "Env.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace ktc::env {

namespace {

std::mutex &mutex() {
  static std::mutex m;
  return m;
}

std::function<void(const std::string &)> &handler() {
  static std::function<void(const std::string &)> h;
  return h;
}

/// Shown in a message: the value quoted, with control characters escaped.
std::string shown(StringRef value) {
  std::string s;
  raw_string_ostream os(s);
  os << '\'';
  printEscapedString(value, os);
  os << '\'';
  return s;
}

} // namespace

std::optional<std::string> raw(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return std::nullopt;
  return std::string(value);
}

std::optional<bool> parseFlag(StringRef value) {
  value = value.trim();
  for (StringRef yes : {"1", "true", "on", "yes"})
    if (value.equals_insensitive(yes))
      return true;
  for (StringRef no : {"0", "false", "off", "no"})
    if (value.equals_insensitive(no))
      return false;
  return std::nullopt;
}

bool flag(const char *name, bool fallback) {
  std::optional<std::string> value = raw(name);
  if (!value || StringRef(*value).trim().empty())
    return fallback;
  if (std::optional<bool> on = parseFlag(*value))
    return *on;
  warnOnce(name, *value,
           "is not a switch (true/false, on/off, yes/no, 1/0); " +
               std::string(name) + " stays " + (fallback ? "on" : "off"));
  return fallback;
}

std::optional<std::string> word(const char *name) {
  std::optional<std::string> value = raw(name);
  if (!value || StringRef(*value).trim().empty())
    return std::nullopt;
  return StringRef(*value).trim().lower();
}

void warnOnce(const char *name, StringRef value, const std::string &message) {
  std::string text = "ktc: warning: " + std::string(name) + "=" +
                     shown(value) + " " + message;
  std::function<void(const std::string &)> h;
  {
    static StringSet<> warned;
    std::lock_guard<std::mutex> lock(mutex());
    if (!warned.insert(std::string(name) + "=" + value.str()).second)
      return;
    h = handler();
  }
  if (h)
    h(text);
  else
    errs() << text << "\n";
}

void setWarningHandler(std::function<void(const std::string &)> h) {
  std::lock_guard<std::mutex> lock(mutex());
  handler() = std::move(h);
}

} // namespace ktc::env
