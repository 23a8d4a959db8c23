//===- ktc/detail/FunctionRef.h - a callable, borrowed ----------*- C++ -*-===//
//
// FunctionRef<R(A...)>: a pointer to a callable and a function that calls
// it, like llvm::function_ref (the public headers do not include LLVM).
// Passing a lambda through it allocates nothing, unlike std::function; it
// must not outlive the callable it refers to.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_DETAIL_FUNCTIONREF_H
#define KTC_DETAIL_FUNCTIONREF_H

#include <memory>
#include <type_traits>
#include <utility>

namespace ktc::detail {

template <typename Fn> class FunctionRef;

template <typename R, typename... A> class FunctionRef<R(A...)> {
public:
  template <typename C,
            std::enable_if_t<
                !std::is_same_v<std::remove_cvref_t<C>, FunctionRef>, int> = 0>
  FunctionRef(C &&callable)
      : callable_(const_cast<void *>(
            static_cast<const void *>(std::addressof(callable)))),
        call_([](void *c, A... args) -> R {
          return (*static_cast<std::remove_reference_t<C> *>(c))(
              std::forward<A>(args)...);
        }) {}

  R operator()(A... args) const {
    return call_(callable_, std::forward<A>(args)...);
  }

private:
  void *callable_;
  R (*call_)(void *, A...);
};

} // namespace ktc::detail

#endif // KTC_DETAIL_FUNCTIONREF_H
