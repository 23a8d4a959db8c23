//===- KernelImpl.cpp - a kernel's launches and specialisation cache ------===//
//
// The launch order of every Kernel<F> and its in-memory cache of compiled
// specialisations. The cache is a map from what a launch specialises on
// (the device's target, not the device: eight identical GPUs share one
// compile) to a Slot; a Slot is in flight (being traced and compiled by one
// thread, without the lock) until its compiled code is set. Each device
// that launches it then loads it once (one thread loads, without the lock,
// while others needing it on that device wait; loads on other devices go
// on). A cache hit is looked up through a KeyView of the launch's own
// (stack) arrays: no allocation.
//
//===----------------------------------------------------------------------===//

#include "ktc/detail/KernelImpl.h"
#include "ktc/detail/Trace.h"

#include "Device.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <compare>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

namespace ktc::detail {

namespace {

/// A specialisation in a kernel's cache: compiled, or being traced and
/// compiled by one thread (without the cache's lock).
struct Slot {
  std::shared_ptr<const Compiled> compiled; // null while in flight
  /// Per device that launched it: its load, null while in flight.
  std::vector<std::pair<const Device *, std::shared_ptr<Executable>>> loads;
  uint64_t fingerprint = 0; // of the trace it was compiled from
  bool tracing = true; // the owner runs the kernel's callable
  std::chrono::steady_clock::time_point since =
      std::chrono::steady_clock::now();
};

/// Waits on `changed` (with `lock` held) while `slot` is in flight on
/// another thread. One that has been inside the kernel's body longer than
/// nestedTraceWait() is taken for a deadlock (a body that launches its own
/// kernel on another thread): an Error. Compiling is waited for without a
/// limit.
void waitFor(const Slot &slot, std::unique_lock<std::mutex> &lock,
             std::condition_variable &changed, const std::string &kernel) {
  if (!slot.tracing) {
    changed.wait(lock); // compiling
    return;
  }
  std::chrono::milliseconds wait = nestedTraceWait();
  auto limit = slot.since + wait;
  if (std::chrono::steady_clock::now() < limit) {
    changed.wait_until(lock, limit);
    return;
  }
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%g", wait.count() / 1000.0);
  throw Error("kernel '" + kernel + "' waited " + seconds +
              " s for another thread that is tracing the same "
              "specialisation and has not left the kernel's body: does the "
              "body launch '" +
              kernel + "' itself (on another thread)? Kernels cannot be "
              "nested");
}

/// A specialisation as looked up (nothing owned, nothing allocated) and
/// as kept.
struct KeyView {
  std::string_view target; // DeviceImpl::targetId
  std::span<const ConstexprValue> constexprs;
  int num_warps, num_stages;
  bool check_bounds, debug;
  std::span<const uint8_t> spec;
};
struct CacheKey {
  std::string target;
  std::vector<ConstexprValue> constexprs;
  int num_warps, num_stages;
  bool check_bounds, debug;
  std::vector<uint8_t> spec;
};
struct KeyLess {
  using is_transparent = void;
  static KeyView view(const KeyView &k) { return k; }
  static KeyView view(const CacheKey &k) {
    return {k.target,       k.constexprs,  k.num_warps, k.num_stages,
            k.check_bounds, k.debug,       k.spec};
  }
  template <typename X, typename Y>
  bool operator()(const X &x, const Y &y) const {
    KeyView a = view(x), b = view(y);
    if (a.target != b.target)
      return a.target < b.target;
    if (a.num_warps != b.num_warps)
      return a.num_warps < b.num_warps;
    if (a.num_stages != b.num_stages)
      return a.num_stages < b.num_stages;
    if (a.check_bounds != b.check_bounds)
      return a.check_bounds < b.check_bounds;
    if (a.debug != b.debug)
      return a.debug < b.debug;
    // Floats by their bits: a total order, NaNs included.
    auto bits = [](const ConstexprValue &c) {
      return std::pair(c.i, std::bit_cast<uint64_t>(c.f));
    };
    auto order = std::lexicographical_compare_three_way(
        a.constexprs.begin(), a.constexprs.end(), b.constexprs.begin(),
        b.constexprs.end(), [&](const ConstexprValue &p,
                                const ConstexprValue &q) {
          return bits(p) <=> bits(q);
        });
    if (order != 0)
      return order < 0;
    return std::lexicographical_compare(a.spec.begin(), a.spec.end(),
                                        b.spec.begin(), b.spec.end());
  }
};

} // namespace

struct KernelImpl::Cache {
  std::mutex mutex;
  std::condition_variable changed; // a slot or load became ready or failed
  // Compiles of other specialisations go on while one is in flight.
  std::map<CacheKey, std::shared_ptr<Slot>, KeyLess> entries;
};

KernelImpl::KernelImpl(bool stateless)
    : stateless_(stateless), cache_(std::make_unique<Cache>()) {}

KernelImpl::~KernelImpl() = default;

size_t KernelImpl::numCompiled() const {
  std::lock_guard<std::mutex> lock(cache_->mutex);
  return std::count_if(cache_->entries.begin(), cache_->entries.end(),
                       [](const auto &e) { return e.second->compiled; });
}

size_t KernelImpl::numLoaded() const {
  std::lock_guard<std::mutex> lock(cache_->mutex);
  size_t n = 0;
  for (const auto &e : cache_->entries)
    for (const auto &load : e.second->loads)
      n += load.second != nullptr;
  return n;
}

/// Whether a launch that finds its specialisation compiled re-traces the
/// kernel to check that it still traces the same.
bool KernelImpl::checksTraces() const {
  TraceCheck mode = traceCheck();
  return mode == TraceCheck::All ||
         (mode == TraceCheck::Stateful && !stateless_);
}

/// The load of `slot` on `device`, or null (with the cache's lock held).
static std::pair<const Device *, std::shared_ptr<Executable>> *
loadOf(Slot &slot, const Device &device) {
  for (auto &load : slot.loads)
    if (load.first == &device)
      return &load;
  return nullptr;
}

std::shared_ptr<Executable>
KernelImpl::specialise(const std::string &kernel, Device &device,
                       std::span<const ConstexprValue> constexprs,
                       const Options &options, std::span<const uint8_t> spec,
                       TraceFn trace) const {
  KeyView key{device.impl().targetId, constexprs, options.num_warps,
              options.num_stages, options.check_bounds, options.debug, spec};
  std::unique_lock<std::mutex> lock(cache_->mutex);
  std::shared_ptr<Slot> slot;
  for (;;) {
    auto it = cache_->entries.find(key);
    if (it == cache_->entries.end())
      break;
    if (it->second->compiled) {
      slot = it->second;
      break;
    }
    waitFor(*it->second, lock, cache_->changed, kernel);
  }
  if (!slot) {
    // Trace and compile it here, the lock released.
    std::vector<ConstexprValue> values(constexprs.begin(), constexprs.end());
    std::vector<uint8_t> specialisation(spec.begin(), spec.end());
    slot = std::make_shared<Slot>();
    auto entry =
        cache_->entries
            .emplace(CacheKey{std::string(key.target), values,
                              options.num_warps, options.num_stages,
                              options.check_bounds, options.debug,
                              specialisation},
                     slot)
            .first;
    lock.unlock();
    std::shared_ptr<const Compiled> compiled;
    uint64_t fingerprint = 0;
    try {
      trace(values, options, [&](Trace &traced) {
        {
          std::lock_guard<std::mutex> guard(cache_->mutex);
          slot->tracing = false; // out of the callable: compiling
        }
        fingerprint = traced.fingerprint();
        compiled = compileFor(traced, device, specialisation);
      });
    } catch (...) {
      lock.lock();
      cache_->entries.erase(entry); // a waiter tries again
      cache_->changed.notify_all();
      throw;
    }
    lock.lock();
    slot->fingerprint = fingerprint;
    slot->compiled = compiled;
    cache_->changed.notify_all();
  } else if (checksTraces()) {
    uint64_t fingerprint = slot->fingerprint;
    lock.unlock();
    uint64_t now = 0;
    trace(constexprs, options,
          [&](Trace &traced) { now = traced.fingerprint(); });
    if (now != fingerprint)
      traceChanged(kernel);
    lock.lock();
  }
  // Loaded on this device, being loaded by another thread, or to load here.
  for (;;) {
    auto *load = loadOf(*slot, device);
    if (!load)
      break;
    if (load->second)
      return load->second;
    cache_->changed.wait(lock);
  }
  slot->loads.emplace_back(&device, nullptr);
  std::shared_ptr<const Compiled> compiled = slot->compiled;
  lock.unlock();
  std::shared_ptr<Executable> executable;
  try {
    executable = loadOn(*compiled, device);
  } catch (...) {
    lock.lock();
    auto &loads = slot->loads;
    loads.erase(loads.begin() + (loadOf(*slot, device) - loads.data()));
    cache_->changed.notify_all();
    throw;
  }
  lock.lock();
  loadOf(*slot, device)->second = executable;
  cache_->changed.notify_all();
  return executable;
}

void KernelImpl::launch(const std::string &kernel,
                        const std::vector<ParamSpec> &params, const Grid &grid,
                        const Options &options, std::span<const LaunchArg> args,
                        std::span<ConstexprValue> constexprs,
                        std::span<uint8_t> spec, TraceFn trace) const {
  checkNotTracing(kernel, grid.loc);
  checkOptions(options, grid.loc);
  size_t numConstexprs =
      checkConstexprs(kernel, params, args, constexprs, grid.loc);
  Device &device = launchDevice(kernel, params, args, grid);
  spec = spec.first(params.size());
  specialisation(params, args, spec);
  std::shared_ptr<Executable> executable;
  Options used = options;
  used.check_bounds |= checkBoundsFromEnvironment();
  used.debug |= debugFromEnvironment();
  try {
    executable = specialise(kernel, device, constexprs.first(numConstexprs),
                            used, spec, trace);
  } catch (const Error &e) {
    // A failed compile (not a builder error, which has the kernel's own
    // line) is reported at the launch.
    if (!e.file().empty())
      throw;
    throw Error(e.message(), grid.loc);
  }
  detail::launch(*executable, kernel, params, args, grid);
}

} // namespace ktc::detail
