//===- ktc/Kernel.h - defining a kernel from a C++ callable -----*- C++ -*-===//
//
//   auto add = ktc::Kernel("add_kernel",
//       [](ktc::Ptr<float> x, ktc::Ptr<float> y, ktc::Ptr<float> out,
//          ktc::Int n, int BLOCK) {
//         auto offs = ktc::program_id(0) * BLOCK + ktc::arange(0, BLOCK);
//         auto mask = offs < n;
//         ktc::store(out + offs, ktc::load(x + offs, mask) +
//                                ktc::load(y + offs, mask), mask);
//       });
//   std::cout << add.mlir(1024);   // the kernel traced with BLOCK = 1024
//
// Parameters of the typed handle types (Ptr<T>, Scalar<T>: Int, Float, ...)
// are runtime arguments; parameters of plain C++ types (int, bool, float,
// ...) are constexprs: the body is traced once per set of their values.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_KERNEL_H
#define KTC_KERNEL_H

#include "ktc/Runtime.h"
#include "ktc/Value.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <compare>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <source_location>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

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
  bool operator==(const Options &) const = default;
};

namespace detail {

/// Throws at `loc` unless `options` are valid.
void checkOptions(const Options &options, std::source_location loc);
/// Whether KTC_CHECK_BOUNDS asks for checked launches (read once).
bool checkBoundsFromEnvironment();

/// Throws at `loc` when this thread is tracing a kernel: kernel `kernel`
/// would be launched from inside a kernel's body.
void checkNotTracing(const std::string &kernel, std::source_location loc);

class Executable;

/// A specialisation in a Kernel's cache: compiled, or being traced and
/// compiled by one thread (without the cache's lock).
struct Slot {
  std::shared_ptr<Executable> executable; // null while in flight
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
             std::condition_variable &changed, const std::string &kernel);
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
/// That limit: default 10 s (tracing takes milliseconds).
std::chrono::milliseconds nestedTraceWait();
void setNestedTraceWait(std::chrono::milliseconds wait);

/// Whether the last of A... is an Options.
template <typename... A> constexpr bool ends_with_options() {
  if constexpr (sizeof...(A) == 0)
    return false;
  else
    return std::is_same_v<
        std::decay_t<std::tuple_element_t<sizeof...(A) - 1, std::tuple<A...>>>,
        Options>;
}
/// Calls f(options, args...) with the trailing Options of `args` split off
/// (default Options when there is none).
template <typename F, typename... A>
decltype(auto) split_options(F &&f, const A &...args) {
  if constexpr (ends_with_options<A...>()) {
    auto all = std::forward_as_tuple(args...);
    return [&]<size_t... I>(std::index_sequence<I...>) -> decltype(auto) {
      return f(std::get<sizeof...(A) - 1>(all), std::get<I>(all)...);
    }(std::make_index_sequence<sizeof...(A) - 1>());
  } else {
    return f(Options{}, args...);
  }
}

/// A constexpr's value, as recorded in the kernel.
struct ConstexprValue {
  enum class Kind : uint8_t { Int, Float, Bool } kind = Kind::Int;
  int64_t i = 0;
  double f = 0;
};

/// One parameter of a kernel's callable.
struct ParamSpec {
  bool runtime = false;
  ArgKind kind{DType::i32, false}; // runtime parameters
  ConstexprValue value;            // constexpr parameters
  std::string name;
  /// The values an integer constexpr's C++ type holds.
  int64_t min = INT64_MIN, max = INT64_MAX;
};

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

/// A kernel compiled for one device (see lib/Runtime).
class Executable;

/// Which kernels a launch re-traces, to catch callables whose captured
/// state changed (KTC_CHECK_TRACES; docs/builder.md#captured-state).
enum class TraceCheck : uint8_t { Off, Stateful, All };
TraceCheck traceCheck();
/// Throws the ktc::Error of a kernel that traces differently now.
[[noreturn]] void traceChanged(const std::string &kernel);

/// One argument of a launch, before it is checked against its parameter.
struct LaunchArg {
  enum class Kind : uint8_t { Buffer, Int, Float, Bool, Null } kind;
  DType dtype = DType::i32;               // a buffer's element type
  const Allocation *memory = nullptr;     // a buffer's memory
  size_t count = 0;                       // a buffer's element count
  int64_t i = 0;
  double f = 0;
  bool huge = false; // an unsigned integer above INT64_MAX (`i` its bits)

  template <typename T>
  LaunchArg(const Buffer<T> &b)
      : kind(Kind::Buffer), dtype(Buffer<T>::dtype), memory(b.memory()),
        count(b.size()) {}
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  LaunchArg(T v) {
    if constexpr (std::is_same_v<T, bool>) {
      kind = Kind::Bool;
      i = v;
    } else if constexpr (std::is_integral_v<T>) {
      kind = Kind::Int;
      i = static_cast<int64_t>(v);
      if constexpr (std::is_unsigned_v<T>)
        huge = v > static_cast<T>(INT64_MAX);
    } else {
      kind = Kind::Float;
      f = static_cast<double>(v);
    }
  }
  LaunchArg(std::nullptr_t) : kind(Kind::Null) {}
};

/// Checks the argument count and every constexpr argument; writes their
/// values (one per constexpr parameter, in order) to `out`, which has room
/// for one per parameter, and returns how many.
size_t checkConstexprs(const std::string &kernel,
                       const std::vector<ParamSpec> &params,
                       std::span<const LaunchArg> args,
                       std::span<ConstexprValue> out, std::source_location loc);
/// The same, into a vector.
std::vector<ConstexprValue>
checkConstexprs(const std::string &kernel,
                const std::vector<ParamSpec> &params,
                std::span<const LaunchArg> args, std::source_location loc);
/// The device the launch runs on: the one holding the buffer arguments.
Device &launchDevice(const std::string &kernel,
                     const std::vector<ParamSpec> &params,
                     std::span<const LaunchArg> args,
                     std::source_location loc);
/// How the runtime arguments specialise the kernel (Triton's rules): 16 for
/// a buffer whose address is 16-byte aligned or an integer divisible by 16,
/// kEqualToOne for an integer equal to 1 (it becomes a constant), 1
/// otherwise; one entry per parameter (constexprs: 0).
constexpr uint8_t kEqualToOne = 255;
/// Written to `out` (one entry per parameter).
void specialisation(const std::vector<ParamSpec> &params,
                    std::span<const LaunchArg> args, std::span<uint8_t> out);
/// Lowers a finished trace for `device`, with the arguments' specialisation.
std::shared_ptr<Executable> compile(Trace &trace, Device &device,
                                    const std::vector<uint8_t> &spec);
/// Checks the runtime arguments and the grid, marshals and launches.
void launch(Executable &executable, const std::string &kernel,
            const std::vector<ParamSpec> &params,
            std::span<const LaunchArg> args, const Grid &grid);
/// What the kernel uses on `target` (an arch such as "gfx942", or a device:
/// "cpu", "cuda", "hip").
KernelInfo info(Trace &trace, const std::string &target,
                std::source_location loc);
/// What the kernel uses as compiled for `device` (its own code, loaded).
KernelInfo info(Trace &trace, Device &device);
/// The kernel at one stage: "mlir", "llvm" or "asm", for a target
/// ("host", ...).
std::string emit(Trace &trace, const std::string &what,
                 const std::string &target, std::source_location loc);

template <typename T>
struct callable_traits : callable_traits<decltype(&T::operator())> {};
template <typename C, typename R, typename... A>
struct callable_traits<R (C::*)(A...) const> {
  using result = R;
  using params = std::tuple<std::decay_t<A>...>;
};
template <typename C, typename R, typename... A>
struct callable_traits<R (C::*)(A...)> : callable_traits<R (C::*)(A...) const> {};
template <typename R, typename... A> struct callable_traits<R (*)(A...)> {
  using result = R;
  using params = std::tuple<std::decay_t<A>...>;
};

template <typename P> constexpr bool is_runtime_v = std::is_base_of_v<Arg, P>;

template <typename P> constexpr bool is_constexpr_type_v =
    std::is_arithmetic_v<P>;

/// How many of the first I parameters are (runtime ? runtime : constexpr).
template <typename Params, size_t I, bool Runtime>
constexpr size_t count_before() {
  return []<size_t... J>(std::index_sequence<J...>) {
    return ((is_runtime_v<std::tuple_element_t<J, Params>> == Runtime ? 1 : 0) +
            ... + 0);
  }(std::make_index_sequence<I>());
}

template <typename P> ConstexprValue make_constexpr(P value) {
  ConstexprValue v;
  if constexpr (std::is_same_v<P, bool>) {
    v.kind = ConstexprValue::Kind::Bool;
    v.i = value;
  } else if constexpr (std::is_integral_v<P>) {
    v.kind = ConstexprValue::Kind::Int;
    v.i = static_cast<int64_t>(value);
  } else {
    v.kind = ConstexprValue::Kind::Float;
    v.f = static_cast<double>(value);
  }
  return v;
}

} // namespace detail

template <typename F> class Kernel {
  using Traits = detail::callable_traits<F>;
  using Params = typename Traits::params;
  static constexpr size_t kNumParams = std::tuple_size_v<Params>;

  static_assert(std::is_void_v<typename Traits::result>,
                "a ktc kernel returns nothing: write results with ktc::store");
  /// A captureless lambda or a function: nothing but globals can change
  /// what it traces.
  static constexpr bool kStateless =
      std::is_empty_v<F> ||
      (std::is_pointer_v<F> && std::is_function_v<std::remove_pointer_t<F>>);

public:
  static constexpr size_t kNumRuntime =
      detail::count_before<Params, kNumParams, true>();
  static constexpr size_t kNumConstexpr = kNumParams - kNumRuntime;

  Kernel(std::string name, F fn,
         std::source_location loc = std::source_location::current())
      : name_(std::move(name)), fn_(std::move(fn)), defined_(loc) {
    check_param_types();
  }
  /// `names` names the parameters, in order, for the IR and for errors.
  Kernel(std::string name, std::vector<std::string> names, F fn,
         std::source_location loc = std::source_location::current())
      : name_(std::move(name)), names_(std::move(names)), fn_(std::move(fn)),
        defined_(loc) {
    check_param_types();
  }

  const std::string &name() const { return name_; }

  /// The MLIR (ktc dialect) of the kernel specialised for the given
  /// constexpr values, one per constexpr parameter, in order (and Options
  /// last, optionally).
  template <typename... C> std::string mlir(const C &...constexprs) const {
    return traced(
        defined_, [](detail::Trace &trace) { return trace.finish(); },
        constexprs...);
  }

  /// The kernel at stage `what` ("mlir", "llvm", "asm") for `target`
  /// ("host", or a GPU such as "gfx942" or "sm_90"), specialised for the given
  /// constexpr values.
  template <typename... C>
  std::string emit(const Stage &what, const std::string &target,
                   const C &...constexprs) const {
    return traced(
        what.loc,
        [&](detail::Trace &trace) {
          return detail::emit(trace, what.what, target, what.loc);
        },
        constexprs...);
  }

  /// What the kernel, specialised for the constexpr values, uses on
  /// `target`: VGPRs/SGPRs, LDS, scratch and spills from the code object for
  /// gfx* (offline); registers, shared and local memory from the driver for
  /// "cuda"; the host for "cpu".
  template <typename... C>
  KernelInfo info(const Stage &target, const C &...constexprs) const {
    return traced(
        target.loc,
        [&](detail::Trace &trace) {
          return detail::info(trace, target.what, target.loc);
        },
        constexprs...);
  }

  /// The same for one device of this process, as its launches compile.
  template <typename... C>
  KernelInfo info(Device &device, const C &...constexprs) const {
    return traced(
        defined_,
        [&](detail::Trace &trace) { return detail::info(trace, device); },
        constexprs...);
  }

  /// Runs the kernel over `grid`, one argument per parameter, in order:
  /// Buffer<T> for Ptr<T>, numbers for scalars and constexprs; then Options,
  /// optionally. Each new set of constexpr values, options, argument
  /// specialisation and device is compiled once and kept.
  template <typename... A>
  void launch(const Grid &grid, const A &...args) const {
    detail::split_options(
        [&](const Options &options, const auto &...rest) {
          // On the stack: a launch of a compiled kernel allocates nothing.
          const std::array<detail::LaunchArg, sizeof...(rest)> all{
              detail::LaunchArg(rest)...};
          launch_with(grid, options, all);
        },
        args...);
  }

  /// How many specialisations have been compiled so far.
  size_t num_compiled() const {
    std::lock_guard<std::mutex> lock(cache_->mutex);
    return std::count_if(cache_->entries.begin(), cache_->entries.end(),
                         [](const auto &e) { return e.second->executable; });
  }

  /// The parameters, without constexpr values (for checking launches).
  const std::vector<detail::ParamSpec> &param_specs() const { return params_; }

private:
  template <typename> friend class Autotuner;

  /// The kernel traced with the constexpr values given to mlir(), emit()
  /// and info() (Options last, optionally; checked, errors at `loc`), then
  /// `finish(trace)`.
  template <typename Finish, typename... C>
  auto traced(std::source_location loc, Finish finish,
              const C &...constexprs) const {
    return detail::split_options(
        [&](const Options &options, const auto &...values) {
          static_assert(sizeof...(values) == kNumConstexpr,
                        "pass one value per constexpr parameter of the kernel");
          detail::checkOptions(options, loc);
          detail::InFlight inFlight(cache_->traces, name_, loc);
          return trace_with(std::make_tuple(values...), options,
                            std::make_index_sequence<kNumParams>(), finish);
        },
        constexprs...);
  }

  /// The MLIR of the kernel with the constexprs of `launchArgs` (checked).
  std::string ir_for(const std::vector<detail::LaunchArg> &launchArgs,
                     const Options &options, std::source_location loc) const {
    detail::checkOptions(options, loc);
    std::vector<detail::ConstexprValue> constexprs =
        detail::checkConstexprs(name_, param_specs(), launchArgs, loc);
    return trace_with(constexpr_tuple(constexprs,
                                      std::make_index_sequence<kNumParams>()),
                      options, std::make_index_sequence<kNumParams>(),
                      [](detail::Trace &trace) { return trace.finish(); });
  }

  void launch_with(const Grid &grid, const Options &options,
                   std::span<const detail::LaunchArg> launchArgs) const {
    detail::checkNotTracing(name_, grid.loc);
    detail::checkOptions(options, grid.loc);
    const std::vector<detail::ParamSpec> &params = params_;
    std::array<detail::ConstexprValue, kNumParams + 1> constexprs;
    size_t numConstexprs = detail::checkConstexprs(
        name_, params, launchArgs, constexprs, grid.loc);
    Device &device = detail::launchDevice(name_, params, launchArgs, grid.loc);
    std::array<uint8_t, kNumParams + 1> specStorage{};
    std::span<uint8_t> spec = std::span(specStorage).first(kNumParams);
    detail::specialisation(params, launchArgs, spec);
    std::shared_ptr<detail::Executable> executable;
    Options used = options;
    used.check_bounds |= detail::checkBoundsFromEnvironment();
    try {
      executable = specialise(device,
                              std::span(constexprs).first(numConstexprs),
                              used, spec);
    } catch (const Error &e) {
      // A failed compile (not a builder error, which has the kernel's own
      // line) is reported at the launch.
      if (!e.file().empty())
        throw;
      throw Error(e.message(), grid.loc);
    }
    detail::launch(*executable, name_, params, launchArgs, grid);
  }

  template <size_t I> detail::ParamSpec base_spec() const {
    using P = std::tuple_element_t<I, Params>;
    detail::ParamSpec s;
    s.name = I < names_.size() ? names_[I] : "";
    s.runtime = detail::is_runtime_v<P>;
    if constexpr (detail::is_runtime_v<P>) {
      s.kind = P::kind;
    } else {
      s.value = detail::make_constexpr(P{});
      if constexpr (std::is_integral_v<P> && !std::is_same_v<P, bool>) {
        s.min = static_cast<int64_t>(std::numeric_limits<P>::min());
        if constexpr (std::is_signed_v<P> || sizeof(P) < 8)
          s.max = static_cast<int64_t>(std::numeric_limits<P>::max());
      }
    }
    return s;
  }

  /// A specialisation as looked up (nothing owned, nothing allocated) and
  /// as kept.
  struct KeyView {
    const Device *device;
    std::span<const detail::ConstexprValue> constexprs;
    int num_warps, num_stages;
    bool check_bounds;
    std::span<const uint8_t> spec;
  };
  struct CacheKey {
    const Device *device;
    std::vector<detail::ConstexprValue> constexprs;
    int num_warps, num_stages;
    bool check_bounds;
    std::vector<uint8_t> spec;
  };
  struct KeyLess {
    using is_transparent = void;
    static KeyView view(const KeyView &k) { return k; }
    static KeyView view(const CacheKey &k) {
      return {k.device, k.constexprs, k.num_warps, k.num_stages,
              k.check_bounds, k.spec};
    }
    template <typename X, typename Y>
    bool operator()(const X &x, const Y &y) const {
      KeyView a = view(x), b = view(y);
      if (a.device != b.device)
        return std::less<const Device *>()(a.device, b.device);
      if (a.num_warps != b.num_warps)
        return a.num_warps < b.num_warps;
      if (a.num_stages != b.num_stages)
        return a.num_stages < b.num_stages;
      if (a.check_bounds != b.check_bounds)
        return a.check_bounds < b.check_bounds;
      // Floats by their bits: a total order, NaNs included.
      auto bits = [](const detail::ConstexprValue &c) {
        return std::pair(c.i, std::bit_cast<uint64_t>(c.f));
      };
      auto order = std::lexicographical_compare_three_way(
          a.constexprs.begin(), a.constexprs.end(), b.constexprs.begin(),
          b.constexprs.end(),
          [&](const detail::ConstexprValue &p,
              const detail::ConstexprValue &q) { return bits(p) <=> bits(q); });
      if (order != 0)
        return order < 0;
      return std::lexicographical_compare(a.spec.begin(), a.spec.end(),
                                          b.spec.begin(), b.spec.end());
    }
  };
  struct Cache {
    mutable std::mutex mutex;
    std::condition_variable changed; // a slot became ready or failed
    std::atomic<int> traces{0};      // mlir(), emit(), info() in flight
    // Compiles of other specialisations go on while one is in flight.
    std::map<CacheKey, std::shared_ptr<detail::Slot>, KeyLess> entries;
  };

  /// Whether a launch that finds its specialisation compiled re-traces the
  /// kernel to check that it still traces the same.
  static bool checks_traces() {
    detail::TraceCheck mode = detail::traceCheck();
    return mode == detail::TraceCheck::All ||
           (mode == detail::TraceCheck::Stateful && !kStateless);
  }

  std::shared_ptr<detail::Executable>
  specialise(Device &device, std::span<const detail::ConstexprValue> constexprs,
             const Options &options, std::span<const uint8_t> spec) const {
    KeyView key{&device, constexprs, options.num_warps, options.num_stages,
                options.check_bounds, spec};
    std::unique_lock<std::mutex> lock(cache_->mutex);
    for (;;) {
      auto it = cache_->entries.find(key);
      if (it == cache_->entries.end())
        break;
      std::shared_ptr<detail::Slot> slot = it->second;
      if (slot->executable) {
        if (!checks_traces())
          return slot->executable;
        std::shared_ptr<detail::Executable> executable = slot->executable;
        uint64_t fingerprint = slot->fingerprint;
        lock.unlock();
        std::vector<detail::ConstexprValue> values(constexprs.begin(),
                                                   constexprs.end());
        uint64_t now = trace_with(
            constexpr_tuple(values, std::make_index_sequence<kNumParams>()),
            options, std::make_index_sequence<kNumParams>(),
            [](detail::Trace &trace) { return trace.fingerprint(); });
        if (now != fingerprint)
          detail::traceChanged(name_);
        return executable;
      }
      detail::waitFor(*slot, lock, cache_->changed, name_);
    }
    std::vector<detail::ConstexprValue> values(constexprs.begin(),
                                               constexprs.end());
    std::vector<uint8_t> specialisation(spec.begin(), spec.end());
    auto slot = std::make_shared<detail::Slot>();
    auto entry = cache_->entries.emplace(
        CacheKey{&device, values, options.num_warps, options.num_stages,
                 options.check_bounds, specialisation},
        slot).first;
    lock.unlock();
    std::shared_ptr<detail::Executable> executable;
    uint64_t fingerprint = 0;
    try {
      executable = trace_with(
          constexpr_tuple(values, std::make_index_sequence<kNumParams>()),
          options, std::make_index_sequence<kNumParams>(),
          [&](detail::Trace &trace) {
            {
              std::lock_guard<std::mutex> guard(cache_->mutex);
              slot->tracing = false; // out of the callable: compiling
            }
            fingerprint = trace.fingerprint();
            return detail::compile(trace, device, specialisation);
          });
    } catch (...) {
      lock.lock();
      cache_->entries.erase(entry); // a waiter tries again
      cache_->changed.notify_all();
      throw;
    }
    lock.lock();
    slot->fingerprint = fingerprint;
    slot->executable = executable;
    cache_->changed.notify_all();
    return executable;
  }

  /// The constexpr values as a tuple of the constexpr parameters' types.
  template <size_t... I>
  auto constexpr_tuple(const std::vector<detail::ConstexprValue> &values,
                       std::index_sequence<I...>) const {
    return std::tuple_cat(constexpr_element<I>(values)...);
  }
  template <size_t I>
  auto constexpr_element(const std::vector<detail::ConstexprValue> &values) const {
    using P = std::tuple_element_t<I, Params>;
    if constexpr (detail::is_runtime_v<P>) {
      return std::tuple<>();
    } else {
      const detail::ConstexprValue &v =
          values[detail::count_before<Params, I, false>()];
      if constexpr (std::is_floating_point_v<P>)
        return std::tuple<P>(static_cast<P>(v.f));
      else
        return std::tuple<P>(static_cast<P>(v.i));
    }
  }

  static constexpr void check_param_types() {
    []<size_t... I>(std::index_sequence<I...>) {
      static_assert(
          ((detail::is_runtime_v<std::tuple_element_t<I, Params>> ||
            detail::is_constexpr_type_v<std::tuple_element_t<I, Params>>) &&
           ...),
          "kernel parameters are ktc::Ptr<T> / ktc::Scalar<T> (runtime) or "
          "arithmetic C++ types (constexpr)");
    }(std::make_index_sequence<kNumParams>());
  }

  template <size_t I, typename Values>
  detail::ParamSpec spec(const Values &values) const {
    using P = std::tuple_element_t<I, Params>;
    detail::ParamSpec s;
    s.name = I < names_.size() ? names_[I] : "";
    if constexpr (detail::is_runtime_v<P>) {
      s.runtime = true;
      s.kind = P::kind;
    } else {
      constexpr size_t c = detail::count_before<Params, I, false>();
      s.value = detail::make_constexpr(
          static_cast<P>(std::get<c>(values)));
    }
    return s;
  }

  template <size_t I, typename Values>
  auto param(const detail::Trace &trace, const Values &values) const {
    using P = std::tuple_element_t<I, Params>;
    if constexpr (detail::is_runtime_v<P>) {
      return P(trace.arg(detail::count_before<Params, I, true>()));
    } else {
      constexpr size_t c = detail::count_before<Params, I, false>();
      return static_cast<P>(std::get<c>(values));
    }
  }

  template <typename Values, size_t... I, typename Finish>
  auto trace_with(const Values &values, const Options &options,
                  std::index_sequence<I...>, Finish finish) const {
    std::vector<detail::ParamSpec> specs{spec<I>(values)...};
    detail::Trace trace(name_, specs, defined_, options);
    fn_(param<I>(trace, values)...);
    return finish(trace);
  }

  std::vector<detail::ParamSpec> make_param_specs() const {
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return std::vector<detail::ParamSpec>{base_spec<I>()...};
    }(std::make_index_sequence<kNumParams>());
  }

  std::string name_;
  std::vector<std::string> names_;
  F fn_;
  std::source_location defined_;
  std::vector<detail::ParamSpec> params_ = make_param_specs();
  std::shared_ptr<Cache> cache_ = std::make_shared<Cache>();
};

template <typename F>
Kernel(std::string, F, std::source_location = std::source_location::current())
    -> Kernel<F>;
template <typename F>
Kernel(std::string, std::vector<std::string>, F,
       std::source_location = std::source_location::current()) -> Kernel<F>;

} // namespace ktc

#endif // KTC_KERNEL_H
