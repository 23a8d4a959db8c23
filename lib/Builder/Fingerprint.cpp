//===- Fingerprint.cpp - does a kernel still trace the same? --------------===//
//
// A kernel is traced once per specialisation; a callable that reads state
// besides its parameters (a variable captured by reference, a pointer, a
// global) can trace differently later, and the compiled code would silently
// use the old values. The launcher re-traces such kernels on cache hits and
// compares fingerprints of the raw traces (docs/builder.md#captured-state).
//
//===----------------------------------------------------------------------===//

#include "Trace.h"
#include "lib/Support/Env.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdlib>

using namespace mlir;

namespace ktc::detail {

namespace {
/// Hashes ops in order: names, properties and attributes (uniqued in the
/// one global context, so compared by address), types, and operands by the
/// order in which their values were defined. Locations are left out.
struct Hasher {
  llvm::DenseMap<mlir::Value, unsigned> ids;
  llvm::hash_code h = llvm::hash_value(0);

  void define(mlir::Value v) {
    ids.try_emplace(v, ids.size());
    h = llvm::hash_combine(h, v.getType().getAsOpaquePointer());
  }
  void op(Operation *o) {
    h = llvm::hash_combine(h, o->getName().getAsOpaquePointer(),
                           o->getPropertiesAsAttribute().getAsOpaquePointer(),
                           o->getDiscardableAttrDictionary().getAsOpaquePointer(),
                           o->getNumOperands(), o->getNumRegions());
    for (mlir::Value v : o->getOperands()) {
      auto it = ids.find(v);
      h = llvm::hash_combine(h, it == ids.end() ? ~0u : it->second);
    }
    for (mlir::Value v : o->getResults())
      define(v);
    for (Region &r : o->getRegions()) {
      h = llvm::hash_combine(h, r.getBlocks().size());
      for (Block &b : r) {
        for (BlockArgument a : b.getArguments())
          define(a);
        for (Operation &inner : b)
          op(&inner);
      }
    }
  }
};
} // namespace

uint64_t Trace::fingerprint() {
  Hasher hasher;
  hasher.op(impl_->module->getOperation());
  return static_cast<uint64_t>(static_cast<size_t>(hasher.h));
}

TraceCheck traceCheck() {
  static const TraceCheck mode = [] {
    std::optional<std::string> v = env::word("KTC_CHECK_TRACES");
    if (!v || *v == "stateful")
      return TraceCheck::Stateful;
    if (*v == "all")
      return TraceCheck::All;
    if (std::optional<bool> on = env::parseFlag(*v))
      return *on ? TraceCheck::All : TraceCheck::Off;
    env::warnOnce("KTC_CHECK_TRACES", *v,
                  "is not stateful, all or a switch (1/0, on/off, "
                  "true/false, yes/no); using stateful");
    return TraceCheck::Stateful;
  }();
  return mode;
}

void traceChanged(const std::string &kernel) {
  throw Error("kernel '" + kernel +
                  "' now traces differently than when this specialisation "
                  "was compiled: its callable reads state that changed since "
                  "(a variable captured by reference, a pointer, a global). "
                  "ktc traces a kernel once per set of constexprs; pass such "
                  "values as arguments (a runtime scalar, or a constexpr "
                  "parameter)");
}

} // namespace ktc::detail
