//===- Trace.cpp - tracing a kernel's callable into the ktc dialect -------===//

#include "Trace.h"

#include "lib/Support/ThreadDiagnostics.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <cstdio>

using namespace mlir;

namespace ktc {

//===----------------------------------------------------------------------===//
// Error and DType
//===----------------------------------------------------------------------===//

static std::string located(const std::string &message,
                           const std::string &file, unsigned line,
                           unsigned column) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) +
         ": error: " + message;
}

Error::Error(const std::string &message, std::source_location where)
    : Error(message, where.file_name(), where.line(), where.column()) {}

Error::Error(const std::string &message, const std::string &file,
             unsigned line, unsigned column)
    : std::runtime_error(located(message, file, line, column)),
      message_(message), file_(file), line_(line), column_(column) {}

Error::Error(const std::string &message)
    : std::runtime_error("error: " + message), message_(message) {}

const char *name(DType type) {
  switch (type) {
  case DType::i1:
    return "i1";
  case DType::i32:
    return "i32";
  case DType::i64:
    return "i64";
  case DType::f16:
    return "f16";
  case DType::bf16:
    return "bf16";
  case DType::f32:
    return "f32";
  case DType::i8:
    return "i8";
  case DType::i16:
    return "i16";
  case DType::u8:
    return "u8";
  case DType::u16:
    return "u16";
  case DType::u32:
    return "u32";
  case DType::u64:
    return "u64";
  case DType::f64:
    return "f64";
  case DType::f8e4m3fn:
    return "f8e4m3fn";
  case DType::f8e5m2:
    return "f8e5m2";
  }
  return "?";
}

unsigned bit_width(DType type) {
  switch (type) {
  case DType::i1:
    return 1;
  case DType::i8:
  case DType::u8:
  case DType::f8e4m3fn:
  case DType::f8e5m2:
    return 8;
  case DType::i16:
  case DType::u16:
  case DType::f16:
  case DType::bf16:
    return 16;
  case DType::i32:
  case DType::u32:
  case DType::f32:
    return 32;
  case DType::i64:
  case DType::u64:
  case DType::f64:
    return 64;
  }
  return 0;
}

size_t size_in_bytes(DType type) {
  return type == DType::i1 ? 1 : bit_width(type) / 8;
}

namespace detail {

static std::atomic<MLIRContext &(*)()> contextProvider{nullptr};

void setGlobalContextProvider(MLIRContext &(*provider)()) {
  contextProvider = provider;
}

MLIRContext &globalContext() {
  if (auto provider = contextProvider.load())
    return provider();
  // No compiler linked in: a context with what the builder builds and the
  // tracer's clean-up needs, all loaded up front (tracing on many threads
  // then only reads the dialects).
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registry.insert<mlir::ktc::KtcDialect, arith::ArithDialect,
                    func::FuncDialect, math::MathDialect, scf::SCFDialect>();
    auto *ctx = new MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  return *context;
}

Type toMlir(DType dtype, MLIRContext *ctx) {
  Builder b(ctx);
  switch (dtype) {
  case DType::f16:
    return b.getF16Type();
  case DType::bf16:
    return b.getBF16Type();
  case DType::f32:
    return b.getF32Type();
  case DType::f64:
    return b.getF64Type();
  case DType::f8e4m3fn:
    return b.getType<Float8E4M3FNType>();
  case DType::f8e5m2:
    return b.getType<Float8E5M2Type>();
  default: // integers: signless, whatever their signedness
    return b.getIntegerType(bit_width(dtype));
  }
}

DType fromMlir(Type element, bool isUnsigned) {
  if (auto ptr = dyn_cast<mlir::ktc::PtrType>(element))
    element = ptr.getPointeeType();
  if (auto it = dyn_cast<IntegerType>(element)) {
    switch (it.getWidth()) {
    case 1:
      return DType::i1;
    case 8:
      return isUnsigned ? DType::u8 : DType::i8;
    case 16:
      return isUnsigned ? DType::u16 : DType::i16;
    case 32:
      return isUnsigned ? DType::u32 : DType::i32;
    default:
      return isUnsigned ? DType::u64 : DType::i64;
    }
  }
  if (element.isF16())
    return DType::f16;
  if (element.isBF16())
    return DType::bf16;
  if (element.isF64())
    return DType::f64;
  if (isa<Float8E4M3FNType>(element))
    return DType::f8e4m3fn;
  if (isa<Float8E5M2Type>(element))
    return DType::f8e5m2;
  return DType::f32;
}

std::string typeStr(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

//===----------------------------------------------------------------------===//
// TraceImpl
//===----------------------------------------------------------------------===//

static thread_local TraceImpl *currentTrace = nullptr;
static std::atomic<uint64_t> nextTraceId{1};

static Attribute constexprAttr(Builder &b, const ConstexprValue &v) {
  switch (v.kind) {
  case ConstexprValue::Kind::Bool:
    return b.getBoolAttr(v.i != 0);
  case ConstexprValue::Kind::Int:
    return b.getI64IntegerAttr(v.i);
  case ConstexprValue::Kind::Float:
    return b.getF64FloatAttr(v.f);
  }
  return {};
}

TraceImpl::TraceImpl(const std::string &kernel,
                     const std::vector<ParamSpec> &params,
                     std::source_location definedAt, const Options &options)
    : ctx(&globalContext()), b(ctx), id(nextTraceId++), defined(definedAt),
      options(options), previous(currentTrace) {
  if (currentTrace)
    fail(definedAt, "kernel '" + kernel +
                        "' is traced while another kernel is being traced "
                        "(kernels cannot be nested)");
  // An identifier: a digit first would make an invalid PTX name.
  if (kernel.empty() || isdigit(static_cast<unsigned char>(kernel[0])) ||
      !llvm::all_of(kernel, [](char c) { return isalnum(c) || c == '_'; }))
    fail(definedAt, "kernel name '" + kernel +
                        "' must be a non-empty identifier ([A-Za-z0-9_])");
  module = ModuleOp::create(loc(definedAt));

  SmallVector<Type> argTypes;
  SmallVector<NamedAttribute> constexprs;
  for (auto [i, p] : llvm::enumerate(params)) {
    if (p.runtime) {
      if (p.kind.pointer && p.kind.dtype == DType::i1)
        fail(definedAt, "parameter " + std::to_string(i) + " of kernel '" +
                            kernel +
                            "' is a Ptr<bool>: kernels take no boolean "
                            "pointers; use Ptr<uint8_t> (a Buffer<uint8_t> "
                            "of 0s and 1s) and compare with 0");
      Type t = toMlir(p.kind.dtype, ctx);
      argTypes.push_back(p.kind.pointer ? mlir::ktc::PtrType::get(t) : t);
    } else {
      std::string name = p.name.empty() ? "arg" + std::to_string(i) : p.name;
      constexprs.push_back(b.getNamedAttr(name, constexprAttr(b, p.value)));
    }
  }
  b.setInsertionPointToEnd(module->getBody());
  func = func::FuncOp::create(b, loc(definedAt), kernel,
                              b.getFunctionType(argTypes, {}));
  func->setAttr(mlir::ktc::KtcDialect::getKernelAttrName(), b.getUnitAttr());
  func->setAttr(mlir::ktc::KtcDialect::getNumWarpsAttrName(),
                b.getI32IntegerAttr(options.num_warps));
  if (options.num_stages != 1)
    func->setAttr(mlir::ktc::KtcDialect::getNumStagesAttrName(),
                  b.getI32IntegerAttr(options.num_stages));
  if (!constexprs.empty())
    func->setAttr(mlir::ktc::KtcDialect::getConstexprAttrName(),
                  b.getDictionaryAttr(constexprs));
  Block *entry = func.addEntryBlock();
  unsigned runtimeIndex = 0;
  for (const ParamSpec &p : params)
    if (p.runtime)
      markUnsigned(entry->getArgument(runtimeIndex++),
                   is_unsigned(p.kind.dtype));
  for (BlockArgument arg : entry->getArguments())
    args.push_back(wrap(arg));
  b.setInsertionPointToStart(entry);
  currentTrace = this;
}

TraceImpl::~TraceImpl() {
  if (currentTrace == this)
    currentTrace = previous;
}

TraceImpl *TraceImpl::active() { return currentTrace; }

void checkNotTracing(const std::string &kernel, std::source_location loc) {
  if (!currentTrace)
    return;
  std::string outer = currentTrace->func.getSymName().str();
  throw Error("kernel '" + kernel + "' is launched inside the body of " +
                  (outer == kernel ? "its own kernel"
                                   : "kernel '" + outer + "'") +
                  " while it is traced (kernels cannot be nested; launch "
                  "it after the launch of '" +
                  outer + "' returns)",
              loc);
}

InFlight::InFlight(std::atomic<int> &count, const std::string &kernel,
                   std::source_location loc)
    : count_(count) {
  constexpr int kMaxInFlight = 256;
  if (++count_ <= kMaxInFlight)
    return;
  --count_;
  throw Error("kernel '" + kernel + "' is being traced " +
                  std::to_string(kMaxInFlight) +
                  " times at once: does its body trace it (mlir(), emit(), "
                  "info()) on another thread? Kernels cannot be nested",
              loc);
}

static std::atomic<int64_t> nestedWaitMs{10000};

std::chrono::milliseconds nestedTraceWait() {
  return std::chrono::milliseconds(nestedWaitMs.load());
}

void setNestedTraceWait(std::chrono::milliseconds wait) {
  nestedWaitMs = wait.count();
}

TraceImpl &TraceImpl::current(std::source_location loc) {
  if (!currentTrace)
    throw Error("ktc operations can only be used inside a kernel being "
                "traced (a ktc::Kernel's callable)",
                loc);
  return *currentTrace;
}

void TraceImpl::fail(std::source_location loc,
                     const std::string &message) const {
  throw Error(message, loc);
}

Location TraceImpl::loc(std::source_location where) {
  return FileLineColLoc::get(ctx, where.file_name(), where.line(),
                             where.column());
}

mlir::Value TraceImpl::use(const Value &v, std::source_location loc) {
  if (!v.valid())
    fail(loc, "use of an empty ktc::Value (default-constructed, never "
              "assigned)");
  if (Access::trace(v) != id)
    fail(loc, "this value belongs to another kernel trace: values cannot be "
              "kept from one kernel (or specialisation) to another");
  mlir::Value raw = Access::raw(v);
  Region *here = b.getInsertionBlock()->getParent();
  if (!raw.getParentRegion()->isAncestor(here))
    fail(loc, "a value computed inside a for_range or if_ body is used "
              "outside it; carry it out in a ktc::Var");
  return raw;
}

void TraceImpl::checkBlockShape(llvm::ArrayRef<int64_t> shape,
                                std::source_location loc) {
  if (shape.empty() || int64_t(shape.size()) > mlir::ktc::kMaxBlockRank)
    fail(loc, "blocks have rank 1, 2 or 3, not " +
                  std::to_string(shape.size()));
  // The count is taken in 128 bits: 2^32 x 2^32 must not wrap to 0 and pass.
  constexpr int64_t kMaxElements = 1 << 20;
  unsigned __int128 elements = 1;
  for (int64_t d : shape) {
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      fail(loc, "block dimension " + std::to_string(d) +
                    " is not a power of two");
    elements *= static_cast<uint64_t>(d);
  }
  if (elements > kMaxElements) {
    std::string count = elements >> 64 ? "2^" + std::to_string(
                                                 64 + llvm::Log2_64(
                                                          uint64_t(elements >> 64)))
                                       : std::to_string(uint64_t(elements));
    fail(loc, "a block of " + count +
                  " elements is larger than ktc's limit of 1048576 (2^20)");
  }
}

std::string TraceImpl::finish() {
  ModuleOp m = finalize();
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os);
  return text;
}

ModuleOp TraceImpl::finalize() {
  if (finalized)
    return *module;
  finalized = true;
  // After return_if the insertion point is in an scf.if's else branch.
  b.setInsertionPointToEnd(&func.getBody().front());
  func::ReturnOp::create(b, loc(defined));
  std::string firstError;
  Location errorLoc = UnknownLoc::get(ctx);
  {
    ThreadDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error &&
          firstError.empty()) {
        firstError = diag.str();
        errorLoc = diag.getLocation();
      }
    });
    PassManager pm(ctx);
    pm.enableVerifier(true);
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createLoopInvariantCodeMotionPass());
    pm.addPass(createCSEPass());
    if (failed(verify(*module)) || failed(pm.run(*module))) {
      std::string message = "ktc internal error: invalid IR: " + firstError;
      if (auto file = dyn_cast<FileLineColLoc>(errorLoc))
        throw Error(message, file.getFilename().str(), file.getLine(),
                    file.getColumn());
      throw Error(message);
    }
  }
  if (currentTrace == this) // the callable is done: no more ops
    currentTrace = previous;
  return *module;
}

//===----------------------------------------------------------------------===//
// Trace (the public wrapper)
//===----------------------------------------------------------------------===//

Trace::Trace(const std::string &kernel, const std::vector<ParamSpec> &params,
             std::source_location defined, const Options &options)
    : impl_(std::make_unique<TraceImpl>(kernel, params, defined, options)) {}

Trace::~Trace() = default;

Value Trace::arg(unsigned index) const { return impl_->args.at(index); }
std::string Trace::finish() { return impl_->finish(); }

} // namespace detail

//===----------------------------------------------------------------------===//
// Value and Var
//===----------------------------------------------------------------------===//

using detail::Access;
using detail::TraceImpl;

static mlir::Type rawType(const Value &v) {
  if (!v.valid())
    throw Error("query of an empty ktc::Value");
  return Access::raw(v).getType();
}

bool Value::is_block() const { return isa<RankedTensorType>(rawType(*this)); }
bool Value::is_pointer() const {
  return isa<mlir::ktc::PtrType>(getElementTypeOrSelf(rawType(*this)));
}
DType Value::dtype() const {
  mlir::Type type = rawType(*this);
  TraceImpl *t = TraceImpl::active();
  if (t && Access::trace(*this) == t->id)
    return t->dtypeOf(Access::raw(*this));
  return detail::fromMlir(getElementTypeOrSelf(type));
}
std::vector<int64_t> Value::shape() const {
  auto shape = mlir::ktc::getShapeOrScalar(rawType(*this));
  return {shape.begin(), shape.end()};
}
std::string Value::type_str() const { return detail::typeStr(rawType(*this)); }

Value Value::to(DType type, std::source_location loc) const {
  return cast(*this, type, loc);
}

Var::Var(const Operand &init, std::source_location loc) : declared_(loc) {
  TraceImpl &t = TraceImpl::current(loc);
  if (!init.present())
    t.fail(loc, "a ktc::Var needs an initial value");
  value_ = t.wrap(t.resolve(init, {}, loc));
  t.vars.push_back(this);
}

Var::~Var() {
  TraceImpl *t = TraceImpl::active();
  if (t && Access::trace(value_) == t->id)
    llvm::erase(t->vars, this);
}

Var &Var::assign(const Operand &value) {
  std::source_location loc = value.loc();
  TraceImpl &t = TraceImpl::current(loc);
  mlir::Value current = t.use(value_, loc);
  mlir::Type type = current.getType();
  bool isUnsigned = t.isUnsigned(current);
  mlir::Value v =
      t.resolve(value, getElementTypeOrSelf(type), loc, isUnsigned);
  if (v.getType() != type && isa<RankedTensorType>(type) &&
      !isa<RankedTensorType>(v.getType()) &&
      v.getType() == getElementTypeOrSelf(type))
    v = t.broadcastTo(v, cast<RankedTensorType>(type).getShape(), loc);
  if (v.getType() != type) {
    std::string message =
        "cannot assign a value of type " + detail::typeStr(v.getType()) +
        " to a ktc::Var of type " + detail::typeStr(type) +
        " (declared at line " + std::to_string(declared_.line()) +
        "); a Var keeps its type";
    // Report where the assigned value was computed: operator= cannot take a
    // source location of its own.
    if (auto at = dyn_cast<FileLineColLoc>(v.getLoc()))
      throw Error(message, at.getFilename().str(), at.getLine(),
                  at.getColumn());
    t.fail(loc, message);
  }
  if (t.isUnsigned(v) != isUnsigned) // u32 into an i32 Var: an i32 now
    v = t.markUnsigned(
        mlir::arith::BitcastOp::create(t.b, t.loc(loc), v.getType(), v),
        isUnsigned);
  value_ = t.wrap(v);
  return *this;
}

} // namespace ktc
