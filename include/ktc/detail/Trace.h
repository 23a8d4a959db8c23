//===- ktc/detail/Trace.h - tracing a kernel's body -------------*- C++ -*-===//
//
// One specialisation of a kernel traced into the ktc dialect (Trace, in
// lib/Builder), the guards around tracing (no launch inside a body, no body
// tracing its own kernel forever, KTC_CHECK_TRACES), and what a finished
// trace becomes in lib/Runtime: a compiled Executable, its KernelInfo, or
// the text of one stage.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DETAIL_TRACE_H
#define KTC_DETAIL_TRACE_H

#include "ktc/Options.h"
#include "ktc/Runtime.h"
#include "ktc/Value.h"
#include "ktc/detail/LaunchArgs.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <source_location>
#include <span>
#include <string>
#include <vector>

namespace ktc::detail {

/// Throws at `loc` when this thread is tracing a kernel: kernel `kernel`
/// would be launched from inside a kernel's body.
void checkNotTracing(const std::string &kernel, std::source_location loc);

/// Counts the traces of one kernel in flight on all threads while it lives:
/// more than 256 at once is taken for a body that traces its own kernel on
/// another thread (each trace starting the next), an Error at `loc`.
class InFlight {
public:
  InFlight(std::atomic<int> &count, const std::string &kernel,
           std::source_location loc);
  ~InFlight() { --count_; }
  InFlight(const InFlight &) = delete;
  InFlight &operator=(const InFlight &) = delete;

private:
  std::atomic<int> &count_;
};
/// How long a launch waits for another thread that is inside the kernel's
/// body, tracing the same specialisation, before it takes it for a deadlock
/// (a body that launches its own kernel on another thread): default 10 s
/// (tracing takes milliseconds).
std::chrono::milliseconds nestedTraceWait();
void setNestedTraceWait(std::chrono::milliseconds wait);

class TraceImpl;

/// Traces one specialisation of a kernel (one set of constexpr values) into
/// a module of the ktc dialect. One trace at a time per thread.
class Trace {
public:
  Trace(const std::string &kernel, const std::vector<ParamSpec> &params,
        std::source_location defined, const Options &options);
  ~Trace();
  Trace(const Trace &) = delete;
  Trace &operator=(const Trace &) = delete;

  /// The handle of runtime argument `index` (counting runtime ones only).
  Value arg(unsigned index) const;
  /// Verifies and simplifies the traced kernel; returns its MLIR text.
  std::string finish();
  /// A hash of the kernel as traced (before finish), to tell whether a
  /// callable still traces the same.
  uint64_t fingerprint();

  TraceImpl &impl() { return *impl_; }

private:
  std::unique_ptr<TraceImpl> impl_;
};

/// Which kernels a launch re-traces, to catch callables whose captured
/// state changed (KTC_CHECK_TRACES; docs/builder.md#captured-state).
enum class TraceCheck : uint8_t { Off, Stateful, All };
TraceCheck traceCheck();
/// Throws the ktc::Error of a kernel that traces differently now.
[[noreturn]] void traceChanged(const std::string &kernel);

/// Lowers a finished trace for `device`, with the arguments' specialisation.
std::shared_ptr<Executable> compile(Trace &trace, Device &device,
                                    const std::vector<uint8_t> &spec);
/// What compile() makes for `device`'s target, before any device loads it
/// (devices of the same target share it: lib/Runtime/KernelImpl.cpp).
struct Compiled;
std::shared_ptr<const Compiled> compileFor(Trace &trace, Device &device,
                                           const std::vector<uint8_t> &spec);
/// `compiled` loaded on `device` (whose target it was compiled for).
std::shared_ptr<Executable> loadOn(const Compiled &compiled, Device &device);
/// What the kernel uses on `target` (an arch such as "gfx942", or a device:
/// "cpu", "cuda", "hip"), specialised by `spec` as a launch is (one entry
/// per parameter, see detail::specialisation; empty: not specialised).
KernelInfo info(Trace &trace, const std::string &target,
                std::source_location loc, std::span<const uint8_t> spec = {});
/// What the kernel uses as compiled for `device` (its own code, loaded).
KernelInfo info(Trace &trace, Device &device,
                std::span<const uint8_t> spec = {});
/// The kernel at one stage: "mlir", "llvm" or "asm", for a target
/// ("host", ...), specialised by `spec` as info() is.
std::string emit(Trace &trace, const std::string &what,
                 const std::string &target, std::source_location loc,
                 std::span<const uint8_t> spec = {});

} // namespace ktc::detail

#endif // KTC_DETAIL_TRACE_H
