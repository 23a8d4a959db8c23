//===- ktc/detail/Callable.h - a kernel callable's parameters ---*- C++ -*-===//
//
// What Kernel<F> reads off its callable at compile time: the parameter
// types, which of them are runtime arguments (Ptr<T>, Scalar<T>) and which
// constexprs (plain arithmetic C++ types), and a constexpr's C++ value as a
// ConstexprValue.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DETAIL_CALLABLE_H
#define KTC_DETAIL_CALLABLE_H

#include "ktc/Value.h"
#include "ktc/detail/LaunchArgs.h"

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace ktc::detail {

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

} // namespace ktc::detail

#endif // KTC_DETAIL_CALLABLE_H
