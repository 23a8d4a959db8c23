//===- Env.h - reading ktc's environment variables ----------------*- C++ -*-===//
//
// Every KTC_* variable is read through here, so that each is parsed the same
// way (docs/environment.md lists them all):
//
// - a switch (KTC_CACHE, KTC_CACHE_LOG, KTC_LOG_SPECIALIZATIONS,
//   KTC_AUTOTUNE_LOG) is true/false, on/off, yes/no or 1/0, in any case,
//   with surrounding blanks ignored; unset or empty means its default;
// - a switch set to anything else gives one warning on stderr per variable
//   and value, naming both, and keeps its default;
// - a word from a fixed set (KTC_DEVICE, the stages of KTC_DUMP) is trimmed
//   and compared in any case;
// - paths (KTC_CACHE_DIR, KTC_DUMP_DIR, KTC_*_LIBRARY) are taken verbatim:
//   a file name may hold blanks.
//
// Variables are read when used, never cached: a program may change one
// between launches (KTC_DUMP for one kernel only). Thread safe.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_SUPPORT_ENV_H
#define KTC_LIB_SUPPORT_ENV_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>

namespace ktc::env {

/// The variable's value as set, or nullopt when it is unset or empty.
std::optional<std::string> raw(const char *name);

/// Parses a switch's value: nullopt unless it is one of the accepted words.
std::optional<bool> parseFlag(llvm::StringRef value);

/// The switch `name`: `fallback` when unset, empty or not a switch value
/// (then with one warning).
bool flag(const char *name, bool fallback);

/// The variable `name` as a word: trimmed and lowercased; nullopt when unset
/// or blank. (The caller says what it makes of a word it does not know.)
std::optional<std::string> word(const char *name);

/// Warns once per process about `name`=`value` (the message follows them).
void warnOnce(const char *name, llvm::StringRef value,
              const std::string &message);

/// Where warnings go (default: a line on stderr); for tests. Not thread safe
/// against concurrent warnings.
void setWarningHandler(std::function<void(const std::string &)> handler);

} // namespace ktc::env

#endif // KTC_LIB_SUPPORT_ENV_H
