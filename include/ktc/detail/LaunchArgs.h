//===- ktc/detail/LaunchArgs.h - a launch's arguments, checked --*- C++ -*-===//
//
// What Kernel::launch() makes of its arguments before anything is compiled:
// each one as a LaunchArg (on the stack), the kernel's parameters as
// ParamSpecs, and the checks and the specialisation that lib/Runtime/
// Launch.cpp derives from them (errors at the caller's line).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DETAIL_LAUNCHARGS_H
#define KTC_DETAIL_LAUNCHARGS_H

#include "ktc/Options.h"
#include "ktc/Runtime.h"
#include "ktc/Value.h"

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ktc::detail {

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

/// One argument of a launch, before it is checked against its parameter.
struct LaunchArg {
  enum class Kind : uint8_t { Buffer, Int, Float, Bool, Null, AnyBuffer } kind;
  DType dtype = DType::i32;               // a buffer's element type
  const Allocation *memory = nullptr;     // a buffer's memory
  size_t count = 0;                       // a buffer's element count
  int64_t i = 0;
  double f = 0;
  bool huge = false; // an unsigned integer above INT64_MAX (`i` its bits)
  bool view = false; // a View (the application's memory), not a Buffer

  template <typename T>
  LaunchArg(const Buffer<T> &b)
      : kind(Kind::Buffer), dtype(Buffer<T>::dtype), memory(b.memory()),
        count(b.size()) {}
  template <typename T>
  LaunchArg(const View<T> &v)
      : kind(Kind::Buffer), dtype(View<T>::dtype), memory(v.memory()),
        count(v.size()), view(true) {}
  template <typename T>
  LaunchArg(const AnyBuffer<T> &)
      : kind(Kind::AnyBuffer), dtype(AnyBuffer<T>::dtype) {}
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

/// A kernel compiled for one device (see lib/Runtime).
class Executable;

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
/// The device the launch runs on: the one holding the buffer arguments,
/// which must be the stream's when the grid has one (else the stream's,
/// else Device::get()).
Device &launchDevice(const std::string &kernel,
                     const std::vector<ParamSpec> &params,
                     std::span<const LaunchArg> args, const Grid &grid);
/// Checks the runtime arguments as a launch does, without a device: a
/// Buffer<T> (holding memory) or an AnyBuffer<T> for each Ptr<T>, a number
/// that fits each scalar (Kernel::emit_as_launched and info_as_launched).
void checkRuntimeArgs(const std::vector<ParamSpec> &params,
                      std::span<const LaunchArg> args,
                      std::source_location loc);
/// How the runtime arguments specialise the kernel (Triton's rules): 16 for
/// a buffer whose address is 16-byte aligned (an AnyBuffer is) or an
/// integer divisible by 16,
/// kEqualToOne for an integer equal to 1 (it becomes a constant), 1
/// otherwise; one entry per parameter (constexprs: 0).
constexpr uint8_t kEqualToOne = 255;
/// Written to `out` (one entry per parameter).
void specialisation(const std::vector<ParamSpec> &params,
                    std::span<const LaunchArg> args, std::span<uint8_t> out);
/// Checks the runtime arguments and the grid, marshals and launches.
void launch(Executable &executable, const std::string &kernel,
            const std::vector<ParamSpec> &params,
            std::span<const LaunchArg> args, const Grid &grid);

} // namespace ktc::detail

#endif // KTC_DETAIL_LAUNCHARGS_H
