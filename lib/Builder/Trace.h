//===- Trace.h - the state of one kernel trace (builder-internal) -*- C++ -*-===//
//
// While a kernel's callable runs, a TraceImpl holds the module being built,
// the insertion point and the live ktc::Vars. Handles (ktc::Value) are
// mlir::Values tagged with the id of the trace that made them.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_BUILDER_TRACE_H
#define KTC_LIB_BUILDER_TRACE_H

#include "ktc/Kernel.h"
#include "ktc/Ops.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace ktc::detail {

/// Friend access to the handles' internals.
struct Access {
  static mlir::Value raw(const Value &v) {
    return mlir::Value::getFromOpaquePointer(v.impl_);
  }
  static uint64_t trace(const Value &v) { return v.trace_; }
  static Value make(mlir::Value v, uint64_t trace) {
    Value h;
    h.impl_ = v.getAsOpaquePointer();
    h.trace_ = trace;
    return h;
  }
  static void set(Var &var, const Value &v) { var.value_ = v; }
  static std::source_location declared(const Var &var) {
    return var.declared_;
  }
};

/// The MLIR context every trace uses (ktc, arith, math, scf, func loaded).
mlir::MLIRContext &globalContext();
/// Makes globalContext() answer `provider()`: the runtime installs the
/// compiler's context (every dialect a compile loads, lib/Compiler), so
/// that kernels are traced and compiled in one context. Set before main.
void setGlobalContextProvider(mlir::MLIRContext &(*provider)());

mlir::Type toMlir(DType dtype, mlir::MLIRContext *ctx);
/// The DType of a scalar element type (pointers: of their pointee); an
/// integer is unsigned when `isUnsigned` says so (TraceImpl::isUnsigned).
DType fromMlir(mlir::Type element, bool isUnsigned = false);

class TraceImpl {
public:
  TraceImpl(const std::string &kernel, const std::vector<ParamSpec> &params,
            std::source_location defined, const Options &options);
  ~TraceImpl();

  /// The trace running on this thread; an Error at `loc` when there is none.
  static TraceImpl &current(std::source_location loc);
  static TraceImpl *active();

  [[noreturn]] void fail(std::source_location loc,
                         const std::string &message) const;

  mlir::Location loc(std::source_location where);
  /// The mlir::Value of a handle, checked: from this trace, and visible at
  /// the insertion point (not from inside a finished loop or branch body).
  mlir::Value use(const Value &v, std::source_location loc);
  Value wrap(mlir::Value v) const {
    isUnsigned(v); // settled now, while its operands are known
    return Access::make(v, id);
  }

  /// An operand as an mlir::Value. Literals take the element type `like`
  /// (or i1/i32/f32 when null) and stay scalars.
  mlir::Value resolve(const Operand &op, mlir::Type like,
                      std::source_location loc, bool likeUnsigned = false);
  /// Two operands as mlir::Values, a literal taking the other's element
  /// type and signedness (the first's when both are values or literals).
  std::pair<mlir::Value, mlir::Value>
  resolvePair(const Operand &a, const Operand &b, std::source_location loc);
  /// A scalar constant of element type `type` from a literal operand
  /// (range-checked as unsigned when `isUnsigned`).
  mlir::Value literal(const Operand &op, mlir::Type type,
                      std::source_location loc, bool isUnsigned = false);

  // Shape and type helpers, each failing with a message at `loc`.
  /// Converts to `element`; the result is unsigned when `toUnsigned` says
  /// so, else (nullopt) signed unless it is `v` itself. Integers extend by
  /// v's signedness; floats become integers with saturation (Arith.cpp).
  mlir::Value castTo(mlir::Value v, mlir::Type element,
                     std::source_location loc,
                     std::optional<bool> toUnsigned = std::nullopt);
  /// The same to a DType (unsigned for u8..u64).
  mlir::Value castTo(mlir::Value v, DType to, std::source_location loc);

  // Signedness (docs/builder.md#element-types). The IR's integers are
  // signless; a value is unsigned when it was marked so (a u32 argument, a
  // cast to u32, a u32 constant) or, unmarked, when an operand of the same
  // element type that made it is (x + y, load(p), a Var carried by a loop).
  bool isUnsigned(mlir::Value v) const;
  mlir::Value markUnsigned(mlir::Value v, bool isUnsigned) const {
    signedness[v] = isUnsigned;
    return v;
  }
  /// v's DType, unsigned ones included.
  DType dtypeOf(mlir::Value v) const;
  mlir::Value broadcastTo(mlir::Value v, llvm::ArrayRef<int64_t> shape,
                          std::source_location loc);
  /// The shape a and b broadcast to (numpy rules, ranks 0-3).
  llvm::SmallVector<int64_t> broadcastShape(mlir::Type a, mlir::Type b,
                                            std::source_location loc);
  void checkBlockShape(llvm::ArrayRef<int64_t> shape,
                       std::source_location loc);

  /// Ends the kernel, verifies and simplifies it (once); the module stays
  /// owned by the trace.
  mlir::ModuleOp finalize();
  std::string finish();

  mlir::MLIRContext *ctx;
  mlir::OpBuilder b;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  uint64_t id;
  std::vector<Value> args;
  /// Live Vars, in declaration order.
  std::vector<Var *> vars;
  std::source_location defined;
  /// The launch options it is traced for (num_warps is also on the func).
  Options options;
  TraceImpl *previous;
  bool finalized = false;
  /// The open exits of return_if, outermost first: scf.ifs whose else
  /// branch holds the rest of their body, with the live Vars' values where
  /// each was opened (lib/Builder/EarlyExit.cpp).
  struct OpenExit {
    mlir::Operation *op;
    std::vector<std::pair<Var *, Value>> saved;
  };
  std::vector<OpenExit> exits;
  /// Signedness known so far (true: unsigned); see isUnsigned().
  mutable llvm::DenseMap<mlir::Value, bool> signedness;
};

enum class IntDivision { Div, Rem, CeilDiv };
/// Signed integer division of two operands of one type and shape, defined
/// for every divisor (Arith.cpp says how); never a trap.
mlir::Value integerDivision(TraceImpl &t, IntDivision kind, mlir::Value x,
                            mlir::Value y, std::source_location loc);

/// "f32", "tensor<256xf32>", ... for messages.
std::string typeStr(mlir::Type type);

} // namespace ktc::detail

#endif // KTC_LIB_BUILDER_TRACE_H
