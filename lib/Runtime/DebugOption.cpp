//===- DebugOption.cpp - KTC_DEBUG, Options::debug for every kernel --------===//
//
// Options::debug traces device_print and device_assert; KTC_DEBUG=1 turns it
// on for every launch, emit() and info() of the process, as TRITON_DEBUG
// does. It is part of the in-memory cache's key (KernelImpl.cpp); the disk
// cache's key holds the IR, which has the debug ops only when it is on.
//
//===----------------------------------------------------------------------===//

#include "lib/Support/Env.h"

#include "ktc/Options.h"

namespace ktc::detail {

/// KTC_DEBUG: 1, true, on or yes (any case); read once.
bool debugFromEnvironment() {
  static const bool on = env::flag("KTC_DEBUG", false);
  return on;
}

} // namespace ktc::detail
