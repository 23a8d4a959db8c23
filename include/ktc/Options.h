//===- ktc/Options.h - launch and compile options ---------------*- C++ -*-===//
//
// The last, optional argument of Kernel::launch(), mlir(), emit() and info()
// (Options), and the stage argument of emit() and info() (Stage).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_OPTIONS_H
#define KTC_OPTIONS_H

#include <source_location>
#include <string>
#include <utility>

namespace ktc {

/// The stage to emit ("mlir", "llvm", "asm"), with the caller's location.
struct Stage {
  Stage(const char *what,
        std::source_location loc = std::source_location::current())
      : what(what), loc(loc) {}
  Stage(std::string what,
        std::source_location loc = std::source_location::current())
      : what(std::move(what)), loc(loc) {}
  std::string what;
  std::source_location loc;
};

/// How a kernel is compiled besides its constexprs: Triton's launch options.
/// Pass one as the last argument of launch(), mlir(), emit() or info():
///   kernel.launch({programs}, out, in, n, 1024, ktc::Options{.num_warps = 8});
struct Options {
  /// Waves (warps) per program, a power of two from 1 to 32: each block is
  /// spread over num_warps x wave-size threads.
  int num_warps = 4;
  /// Software-pipelining depth of loops, 1 to 8: on GPUs, S >= 2 issues
  /// each loop load whose address depends only on the induction variable
  /// S - 1 iterations ahead (ktc-pipeline-loads; a loop must not read what
  /// its earlier iterations stored). The host target ignores it.
  int num_stages = 1;
  /// The host target's checked mode (also KTC_CHECK_BOUNDS=1 for every
  /// launch): each load and store is checked against the launch's buffers,
  /// and one out of bounds is a ktc::Error at its line instead of a crash
  /// or silent corruption (slower; a separate specialisation). GPUs ignore
  /// it. Unchecked, an access out of bounds is undefined, as on a GPU.
  bool check_bounds = false;
  /// Traces device_print and device_assert (also KTC_DEBUG=1 for every
  /// kernel): without it they are compiled out, as without TRITON_DEBUG.
  /// A separate specialisation (docs/builder.md#debugging).
  bool debug = false;
  bool operator==(const Options &) const = default;
};

namespace detail {
/// Throws at `loc` unless `options` are valid.
void checkOptions(const Options &options, std::source_location loc);
/// Whether KTC_CHECK_BOUNDS asks for checked launches (read once).
bool checkBoundsFromEnvironment();
/// Whether KTC_DEBUG asks for device_print/device_assert (read once).
bool debugFromEnvironment();
} // namespace detail

} // namespace ktc

#endif // KTC_OPTIONS_H
