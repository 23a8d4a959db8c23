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

#include "ktc/Value.h"

#include <memory>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ktc {

namespace detail {

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
};

class TraceImpl;

/// Traces one specialisation of a kernel (one set of constexpr values) into
/// a module of the ktc dialect. One trace at a time per thread.
class Trace {
public:
  Trace(const std::string &kernel, const std::vector<ParamSpec> &params,
        std::source_location defined);
  ~Trace();
  Trace(const Trace &) = delete;
  Trace &operator=(const Trace &) = delete;

  /// The handle of runtime argument `index` (counting runtime ones only).
  Value arg(unsigned index) const;
  /// Verifies and simplifies the traced kernel; returns its MLIR text.
  std::string finish();

private:
  std::unique_ptr<TraceImpl> impl_;
};

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
  /// constexpr values, one per constexpr parameter, in order.
  template <typename... C> std::string mlir(C... constexprs) const {
    static_assert(sizeof...(C) == kNumConstexpr,
                  "pass one value per constexpr parameter of the kernel");
    auto values = std::make_tuple(constexprs...);
    return trace_with(values, std::make_index_sequence<kNumParams>());
  }

private:
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

  template <typename Values, size_t... I>
  std::string trace_with(const Values &values,
                         std::index_sequence<I...>) const {
    std::vector<detail::ParamSpec> specs{spec<I>(values)...};
    detail::Trace trace(name_, specs, defined_);
    fn_(param<I>(trace, values)...);
    return trace.finish();
  }

  std::string name_;
  std::vector<std::string> names_;
  F fn_;
  std::source_location defined_;
};

template <typename F>
Kernel(std::string, F, std::source_location = std::source_location::current())
    -> Kernel<F>;
template <typename F>
Kernel(std::string, std::vector<std::string>, F,
       std::source_location = std::source_location::current()) -> Kernel<F>;

} // namespace ktc

#endif // KTC_KERNEL_H
