//===- ktc/detail/KernelImpl.h - a kernel's launches and cache --*- C++ -*-===//
//
// The part of Kernel<F> that need not be a template: the order of a launch
// (not inside a body, options, constexprs, device, specialisation, compile
// or look up, launch) and the in-memory cache of compiled specialisations
// with its locking (lib/Runtime/KernelImpl.cpp). The template keeps what
// must know the callable's type: tracing it with typed constexprs, which it
// lends as a TraceFn.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DETAIL_KERNELIMPL_H
#define KTC_DETAIL_KERNELIMPL_H

#include "ktc/Options.h"
#include "ktc/Runtime.h"
#include "ktc/detail/FunctionRef.h"
#include "ktc/detail/LaunchArgs.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ktc::detail {

class Trace;

/// Traces the kernel's callable with these constexpr values (one per
/// constexpr parameter, in order) and options, then calls `finish` on the
/// trace, once the callable has returned.
using TraceFn = FunctionRef<void(std::span<const ConstexprValue> constexprs,
                                 const Options &options,
                                 FunctionRef<void(Trace &)> finish)>;

/// One kernel's specialisations, compiled once each (per device, constexpr
/// values, options and argument specialisation) and shared by the copies of
/// its Kernel. Thread-safe: one thread traces and compiles a specialisation
/// while the others that need it wait, and other specialisations go on.
class KernelImpl {
public:
  /// `stateless`: the callable captures nothing, so only globals change
  /// what it traces (KTC_CHECK_TRACES=stateful does not re-trace it).
  explicit KernelImpl(bool stateless);
  ~KernelImpl();
  KernelImpl(const KernelImpl &) = delete;
  KernelImpl &operator=(const KernelImpl &) = delete;

  /// Runs kernel `kernel` over `grid`: checks that no kernel is being
  /// traced on this thread, the options and the constexpr arguments
  /// (written to `constexprs`), finds the device, writes the arguments'
  /// specialisation to `spec` (both with room for one entry per parameter),
  /// takes the specialisation from the cache or traces and compiles it, and
  /// launches it. Errors are at grid.loc. A launch of a specialisation
  /// already compiled allocates nothing.
  void launch(const std::string &kernel, const std::vector<ParamSpec> &params,
              const Grid &grid, const Options &options,
              std::span<const LaunchArg> args,
              std::span<ConstexprValue> constexprs, std::span<uint8_t> spec,
              TraceFn trace) const;

  /// The executable of one specialisation: from the cache (re-traced to
  /// check it first when KTC_CHECK_TRACES asks), or traced by `trace` and
  /// compiled by this thread while other threads asking for it wait. A
  /// failure is thrown here and leaves the specialisation uncompiled, for
  /// a waiting thread to try again.
  std::shared_ptr<Executable>
  specialise(const std::string &kernel, Device &device,
             std::span<const ConstexprValue> constexprs, const Options &options,
             std::span<const uint8_t> spec, TraceFn trace) const;

  /// How many specialisations have been compiled so far (once per target).
  size_t numCompiled() const;
  /// How many (specialisation, device) loads have been made so far.
  size_t numLoaded() const;

  /// The kernel's mlir(), emit() and info() traces in flight (InFlight).
  std::atomic<int> &traces() const { return traces_; }

private:
  struct Cache;
  bool checksTraces() const;

  bool stateless_;
  mutable std::atomic<int> traces_{0};
  std::unique_ptr<Cache> cache_;
};

} // namespace ktc::detail

#endif // KTC_DETAIL_KERNELIMPL_H
