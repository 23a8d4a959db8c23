//===- ktc/Aot.h - exporting kernels ahead of time ---------------*- C++ -*-===//
//
// The export list of ktc_add_kernels (cmake/ktcAot.cmake): a source file
// that includes the kernels, as JIT code does, and says which
// specialisations to compile ahead of time:
//
//   #include "kernels.h"     // inline const auto vector_add = ktc::Kernel(...)
//   #include "ktc/Aot.h"
//
//   KTC_AOT_EXPORTS(exports) {
//     exports.add("vector_add", vector_add, 1024);          // BLOCK = 1024
//     exports.add("softmax_1024", softmax, 1024,
//                 ktc::Options{.num_warps = 8});
//   }
//
// Each add() names one exported kernel (a C identifier: its launch function
// and its symbol) and gives the kernel's constexpr values, in order, and
// optionally Options. ktc_add_kernels builds this file into a generator
// (linked with ktc and lib/Aot's main) and runs it at build time: each
// export is traced here, compiled for every target listed, and written as a
// header with one typed launch function per export, a C++ source with the
// GPU code objects embedded, and an archive of the host's object code. The
// program that uses them links ktc::aot-runtime only (include/ktc/aot/
// Runtime.h). Pointer arguments are compiled as aligned to 16 bytes (checked
// at each launch); integer arguments are not specialised. docs/aot.md.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_AOT_H
#define KTC_AOT_H

#include "ktc/Kernel.h"

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ktc::aot {

/// One exported specialisation, traced.
struct Export {
  std::string name;   // the launch function and the kernel's symbol
  std::string kernel; // the Kernel's own name
  std::string mlir;   // the kernel traced with its constexpr values
  std::vector<detail::ParamSpec> params; // all parameters, in order
  Options options;
  /// Launches the kernel with its constexprs through the JIT, `runtime`
  /// holding the runtime arguments in order (the JIT fallback of
  /// ktc_add_kernels(... JIT_FALLBACK): lib/Aot/JitFallback.cpp).
  std::function<void(const ktc::Grid &,
                     std::span<const detail::LaunchArg> runtime)>
      launch;
};

class Exports {
public:
  /// `trace`: whether add() traces each export (the generator); the JIT
  /// fallback only launches them.
  explicit Exports(bool trace = true) : trace_(trace) {}

  /// Exports `kernel` traced with `constexprs` (one value per constexpr
  /// parameter, in order; Options last, optionally) as `name`.
  template <typename F, typename... C>
  void add(const std::string &name, const Kernel<F> &kernel,
           const C &...constexprs) {
    Export e;
    e.name = name;
    e.kernel = kernel.name();
    e.params = kernel.param_specs();
    detail::split_options(
        [&](const Options &options, const auto &...values) {
          e.options = options;
          if (trace_)
            e.mlir = kernel.mlir(values..., options);
          std::vector<detail::LaunchArg> fixed{detail::LaunchArg(values)...};
          // The kernels of an export list are globals: kept by address.
          e.launch = [k = &kernel, fixed = std::move(fixed), options,
                      params = e.params](
                         const ktc::Grid &grid,
                         std::span<const detail::LaunchArg> runtime) {
            std::vector<detail::LaunchArg> all;
            size_t r = 0, c = 0;
            for (const detail::ParamSpec &p : params)
              all.push_back(p.runtime ? runtime[r++] : fixed[c++]);
            launchAll(*k, grid, all, options,
                      std::make_index_sequence<Kernel<F>::kNumRuntime +
                                               Kernel<F>::kNumConstexpr>());
          };
        },
        constexprs...);
    all_.push_back(std::move(e));
  }

  const std::vector<Export> &all() const { return all_; }

private:
  template <typename F, size_t... I>
  static void launchAll(const Kernel<F> &kernel, const ktc::Grid &grid,
                        const std::vector<detail::LaunchArg> &all,
                        const Options &options, std::index_sequence<I...>) {
    kernel.launch(grid, all[I]..., options);
  }

  bool trace_;
  std::vector<Export> all_;
};

} // namespace ktc::aot

/// Defined by the export list (KTC_AOT_EXPORTS); called by the generator.
void ktc_aot_exports(ktc::aot::Exports &exports);

#define KTC_AOT_EXPORTS(exports) void ktc_aot_exports(::ktc::aot::Exports &exports)

#endif // KTC_AOT_H
