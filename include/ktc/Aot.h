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

#include <string>
#include <vector>

namespace ktc::aot {

/// One exported specialisation, traced.
struct Export {
  std::string name;   // the launch function and the kernel's symbol
  std::string kernel; // the Kernel's own name
  std::string mlir;   // the kernel traced with its constexpr values
  std::vector<detail::ParamSpec> params; // all parameters, in order
  Options options;
};

class Exports {
public:
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
          e.mlir = kernel.mlir(values..., options);
        },
        constexprs...);
    all_.push_back(std::move(e));
  }

  const std::vector<Export> &all() const { return all_; }

private:
  std::vector<Export> all_;
};

} // namespace ktc::aot

/// Defined by the export list (KTC_AOT_EXPORTS); called by the generator.
void ktc_aot_exports(ktc::aot::Exports &exports);

#define KTC_AOT_EXPORTS(exports) void ktc_aot_exports(::ktc::aot::Exports &exports)

#endif // KTC_AOT_H
