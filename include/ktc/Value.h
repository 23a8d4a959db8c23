//===- ktc/Value.h - value-semantic handles for kernel code -----*- C++ -*-===//
//
// A kernel body is ordinary C++ run once per specialisation; each ktc::Value
// it computes is a handle on a value in the kernel being traced: a scalar or
// a block (a 1-D, 2-D or 3-D power-of-two tensor), of numbers, booleans or
// pointers. Operators build the ktc dialect and record the user's file:line.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_VALUE_H
#define KTC_VALUE_H

#include "ktc/DType.h"
#include "ktc/Error.h"

#include <cstdint>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

namespace ktc {

class Var;
namespace detail {
class Trace;
struct Access;
} // namespace detail

/// A handle on a value of the kernel being traced. Cheap to copy; only valid
/// while that kernel is being traced.
class Value {
public:
  Value() = default;

  /// True for a block (tensor), false for a scalar.
  bool is_block() const;
  bool is_pointer() const;
  /// The element type; for pointers, the type pointed to.
  DType dtype() const;
  /// The block's shape ({} for a scalar).
  std::vector<int64_t> shape() const;
  /// The MLIR type, e.g. "tensor<1024x!ktc.ptr<f32>>".
  std::string type_str() const;

  /// Converts to another element type (numbers only).
  Value to(DType type,
           std::source_location loc = std::source_location::current()) const;

  bool valid() const { return impl_ != nullptr; }

private:
  friend struct detail::Access;
  void *impl_ = nullptr;
  uint64_t trace_ = 0;
};

/// Anything a ktc operation accepts as an operand: a Value, a Var, or a C++
/// literal (bool, integer, floating point), with the user's source location
/// (captured where the conversion happens, i.e. in the user's expression).
/// Literals take the type of the other operand where there is one (`x * 2`
/// keeps x's type), else i1, i32 or f32.
class Operand {
public:
  enum class Kind : uint8_t { None, Value, Bool, Int, Float };

  Operand(std::source_location loc = std::source_location::current())
      : loc_(loc) {}
  Operand(const Value &v,
          std::source_location loc = std::source_location::current())
      : kind_(Kind::Value), value_(v), loc_(loc) {}
  Operand(const Var &v,
          std::source_location loc = std::source_location::current());
  template <typename T,
            std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Operand(T literal,
          std::source_location loc = std::source_location::current())
      : loc_(loc) {
    if constexpr (std::is_same_v<T, bool>) {
      kind_ = Kind::Bool;
      int_ = literal;
    } else if constexpr (std::is_integral_v<T>) {
      kind_ = Kind::Int;
      int_ = static_cast<int64_t>(literal);
    } else {
      kind_ = Kind::Float;
      float_ = static_cast<double>(literal);
    }
  }

  Kind kind() const { return kind_; }
  bool present() const { return kind_ != Kind::None; }
  const Value &value() const { return value_; }
  int64_t int_value() const { return int_; }
  double float_value() const { return float_; }
  std::source_location loc() const { return loc_; }

private:
  Kind kind_ = Kind::None;
  Value value_;
  int64_t int_ = 0;
  double float_ = 0;
  std::source_location loc_;
};

/// A mutable kernel variable. Vars assigned inside `for_range` or `if_`
/// bodies become the values those carry out (scf iter_args / results), which
/// is how the online softmax carries its running max and sum. A Var keeps
/// the type it was initialised with.
class Var {
public:
  Var(const Operand &init,
      std::source_location loc = std::source_location::current());
  // `Var m = -INFINITY;` and `Var v = load(p);` (one conversion each).
  Var(const Value &init,
      std::source_location loc = std::source_location::current())
      : Var(Operand(init, loc), loc) {}
  template <typename T,
            std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Var(T init, std::source_location loc = std::source_location::current())
      : Var(Operand(init, loc), loc) {}
  Var(const Var &) = delete;
  ~Var();

  // Assignment keeps the Var's type (a literal converts to it, a scalar
  // splats to a block Var). A mismatch is reported at the line where the
  // assigned value was computed.
  Var &operator=(const Var &other) { return assign(other.get()); }
  Var &operator=(const Value &value) { return assign(value); }
  template <typename T,
            std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Var &operator=(T literal) {
    return assign(Operand(literal, declared_));
  }

  Value get() const { return value_; }
  operator Value() const { return value_; }

  bool is_block() const { return value_.is_block(); }
  DType dtype() const { return value_.dtype(); }
  std::vector<int64_t> shape() const { return value_.shape(); }

private:
  friend struct detail::Access;
  Var &assign(const Operand &value);

  Value value_;
  std::source_location declared_;
};

inline Operand::Operand(const Var &v, std::source_location loc)
    : kind_(Kind::Value), value_(v.get()), loc_(loc) {}

// Arithmetic follows C++: `/` and `%` on integers truncate. Mixed operands
// promote (i1 < i8 < i16 < i32 < i64 < f16/bf16 < f32 < f64; at equal width
// unsigned wins, as in Triton) and broadcast (scalars splat, size-1
// dimensions stretch). Unsigned values (u8..u64) divide, compare, shift and
// convert as unsigned. A pointer plus or minus an integer advances it by
// elements.
Value operator+(const Operand &a, const Operand &b);
Value operator-(const Operand &a, const Operand &b);
Value operator*(const Operand &a, const Operand &b);
Value operator/(const Operand &a, const Operand &b);
Value operator%(const Operand &a, const Operand &b);
Value operator<(const Operand &a, const Operand &b);
Value operator<=(const Operand &a, const Operand &b);
Value operator>(const Operand &a, const Operand &b);
Value operator>=(const Operand &a, const Operand &b);
Value operator==(const Operand &a, const Operand &b);
Value operator!=(const Operand &a, const Operand &b);
/// Bitwise on integers, logical on booleans (masks).
Value operator&(const Operand &a, const Operand &b);
Value operator|(const Operand &a, const Operand &b);
Value operator^(const Operand &a, const Operand &b);
/// Shifts of integers (Math.cpp): `>>` is arithmetic on signed integers and
/// logical on unsigned ones. A shift by a negative amount or by the width or
/// more gives 0 (`<<`, unsigned `>>`) or the sign (signed `>>`) on every
/// target.
Value operator<<(const Operand &a, const Operand &b);
Value operator>>(const Operand &a, const Operand &b);
Value operator-(const Operand &a);
Value operator!(const Operand &a);
Value operator~(const Operand &a);

//===----------------------------------------------------------------------===//
// Typed kernel arguments: the parameter types of a kernel's C++ callable.
// Any other parameter type (int, bool, float, ...) is a constexpr.
//===----------------------------------------------------------------------===//

namespace detail {
/// What a runtime kernel argument is: a scalar of `dtype`, or a pointer to
/// `dtype`.
struct ArgKind {
  DType dtype;
  bool pointer;
};
} // namespace detail

/// Base of the typed argument handles.
class Arg : public Value {
public:
  using Value::Value;
  explicit Arg(const Value &v) : Value(v) {}
};

/// A global pointer to elements of T (any type with a dtype_of: the
/// integers, half, bfloat16, float, double, the fp8 types; not bool).
template <typename T> class Ptr : public Arg {
public:
  using element_type = T;
  static constexpr detail::ArgKind kind{dtype_of<T>::value, true};
  using Arg::Arg;
};

/// A scalar argument of C++ type T.
template <typename T> class Scalar : public Arg {
public:
  using element_type = T;
  static constexpr detail::ArgKind kind{dtype_of<T>::value, false};
  using Arg::Arg;
};

using Int = Scalar<int32_t>;
using Long = Scalar<int64_t>;
using Float = Scalar<float>;
using Bool = Scalar<bool>;

} // namespace ktc

#endif // KTC_VALUE_H
