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

#include "ktc/Options.h"
#include "ktc/Runtime.h"
#include "ktc/Value.h"
#include "ktc/detail/Callable.h"
#include "ktc/detail/KernelImpl.h"
#include "ktc/detail/LaunchArgs.h"
#include "ktc/detail/Trace.h"

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <source_location>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ktc {

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

  /// emit() for the kernel as launch(grid, args...) compiles it: `args` are
  /// a launch's, one per parameter in order (Buffer<T> or AnyBuffer<T> for
  /// Ptr<T>, numbers for scalars and constexprs; Options last, optionally),
  /// checked as a launch checks them, and the runtime ones specialise the
  /// kernel by the launch's own rule (detail::specialisation: buffers
  /// aligned to 16 bytes, integers divisible by 16 or equal to 1; see
  /// docs/specialisation.md). emit() and info() specialise nothing.
  ///   k.emit_as_launched("asm", "gfx942", AnyBuffer<half>(), ..., M, K, 1,
  ///                      ..., 128, Options{.num_warps = 8});
  template <typename... A>
  std::string emit_as_launched(const Stage &what, const std::string &target,
                               const A &...args) const {
    return as_launched(
        what.loc,
        [&](detail::Trace &trace, std::span<const uint8_t> spec) {
          return detail::emit(trace, what.what, target, what.loc, spec);
        },
        args...);
  }

  /// info() for the kernel as launch(grid, args...) compiles it (the
  /// arguments as for emit_as_launched()).
  template <typename... A>
  KernelInfo info_as_launched(const Stage &target, const A &...args) const {
    return as_launched(
        target.loc,
        [&](detail::Trace &trace, std::span<const uint8_t> spec) {
          return detail::info(trace, target.what, target.loc, spec);
        },
        args...);
  }

  /// The same for one device of this process, as its launches compile.
  template <typename... A>
  KernelInfo info_as_launched(Device &device, const A &...args) const {
    return as_launched(
        defined_,
        [&](detail::Trace &trace, std::span<const uint8_t> spec) {
          return detail::info(trace, device, spec);
        },
        args...);
  }

  /// Runs the kernel over `grid`, one argument per parameter, in order:
  /// Buffer<T> or View<T> for Ptr<T>, numbers for scalars and constexprs;
  /// then Options, optionally. It runs on the device of its buffers (on the
  /// grid's Stream when it has one: `Grid(n).on(stream)`). Each new set of
  /// constexpr values, options, argument specialisation and target arch is
  /// compiled once and kept; each device that launches it loads it once.
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

  /// How many specialisations have been compiled so far: once per target
  /// arch, however many devices of it launch them.
  size_t num_compiled() const { return impl_->numCompiled(); }
  /// How many loads of them there are: one per specialisation and device
  /// that launched it.
  size_t num_loaded() const { return impl_->numLoaded(); }

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
          Options used = options;
          used.debug |= detail::debugFromEnvironment();
          detail::InFlight inFlight(impl_->traces(), name_, loc);
          return trace_with(std::make_tuple(values...), used,
                            std::make_index_sequence<kNumParams>(), finish);
        },
        constexprs...);
  }

  /// The kernel traced with the constexprs of a launch's arguments `args`
  /// (Options last, optionally; all checked as launch() checks them, errors
  /// at `loc`), then `finish(trace, spec)` with the launch's argument
  /// specialisation.
  template <typename Finish, typename... A>
  auto as_launched(std::source_location loc, Finish finish,
                   const A &...args) const {
    return detail::split_options(
        [&](const Options &options, const auto &...rest) {
          const std::array<detail::LaunchArg, sizeof...(rest)> all{
              detail::LaunchArg(rest)...};
          detail::checkOptions(options, loc);
          std::vector<detail::ConstexprValue> constexprs =
              detail::checkConstexprs(name_, params_, all, loc);
          detail::checkRuntimeArgs(params_, all, loc);
          std::vector<uint8_t> spec(kNumParams);
          detail::specialisation(params_, all, spec);
          Options used = options; // as launch() uses them
          used.check_bounds |= detail::checkBoundsFromEnvironment();
          used.debug |= detail::debugFromEnvironment();
          detail::InFlight inFlight(impl_->traces(), name_, loc);
          return trace_with(
              constexpr_tuple(constexprs,
                              std::make_index_sequence<kNumParams>()),
              used, std::make_index_sequence<kNumParams>(),
              [&](detail::Trace &trace) { return finish(trace, spec); });
        },
        args...);
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

  /// The launch order and the cache are KernelImpl's; this stack holds the
  /// launch's constexprs and specialisation, and the callable's trace.
  void launch_with(const Grid &grid, const Options &options,
                   std::span<const detail::LaunchArg> launchArgs) const {
    std::array<detail::ConstexprValue, kNumParams + 1> constexprs;
    std::array<uint8_t, kNumParams + 1> spec{};
    impl_->launch(name_, params_, grid, options, launchArgs, constexprs, spec,
                  trace_fn());
  }

  /// Traces the callable for KernelImpl (see detail::TraceFn).
  auto trace_fn() const {
    return [this](std::span<const detail::ConstexprValue> values,
                  const Options &options,
                  detail::FunctionRef<void(detail::Trace &)> finish) {
      trace_with(
          constexpr_tuple(values, std::make_index_sequence<kNumParams>()),
          options, std::make_index_sequence<kNumParams>(), finish);
    };
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

  /// The constexpr values as a tuple of the constexpr parameters' types.
  template <size_t... I>
  auto constexpr_tuple(std::span<const detail::ConstexprValue> values,
                       std::index_sequence<I...>) const {
    return std::tuple_cat(constexpr_element<I>(values)...);
  }
  template <size_t I>
  auto constexpr_element(std::span<const detail::ConstexprValue> values) const {
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
  // Shared by the Kernel's copies.
  std::shared_ptr<detail::KernelImpl> impl_ =
      std::make_shared<detail::KernelImpl>(kStateless);
};

template <typename F>
Kernel(std::string, F, std::source_location = std::source_location::current())
    -> Kernel<F>;
template <typename F>
Kernel(std::string, std::vector<std::string>, F,
       std::source_location = std::source_location::current()) -> Kernel<F>;

} // namespace ktc

#endif // KTC_KERNEL_H
