//===- Atomics.cpp - atomic_add, atomic_max, ..., atomic_cas ----------------===//
//
// The builder's side of ktc.atomic_rmw and ktc.atomic_cas: the operands
// checked and converted at the user's line (the pointee type decides,
// as for store), then pointers, values and mask broadcast to one shape.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using mlir::ktc::AtomicKind;
using mlir::ktc::PtrType;

namespace ktc {

using detail::TraceImpl;
using detail::typeStr;

namespace {

mlir::ktc::MemSem toMlir(MemSem sem) {
  switch (sem) {
  case MemSem::relaxed:
    return mlir::ktc::MemSem::Relaxed;
  case MemSem::acquire:
    return mlir::ktc::MemSem::Acquire;
  case MemSem::release:
    return mlir::ktc::MemSem::Release;
  case MemSem::acq_rel:
    break;
  }
  return mlir::ktc::MemSem::AcqRel;
}

mlir::ktc::MemScope toMlir(MemScope scope) {
  switch (scope) {
  case MemScope::cta:
    return mlir::ktc::MemScope::Cta;
  case MemScope::sys:
    return mlir::ktc::MemScope::Sys;
  case MemScope::gpu:
    break;
  }
  return mlir::ktc::MemScope::Gpu;
}

/// The operands of an atomic, checked and broadcast to one shape.
struct Operands {
  mlir::Value ptr, cmp, val, mask;
};

Operands atomicOperands(TraceImpl &t, const std::string &what,
                        const Operand &ptr, const Operand *cmp,
                        const Operand &val, const Operand &mask,
                        bool intsOnly, Loc loc) {
  Operands o;
  if (!ptr.present())
    t.fail(loc, what + " needs a pointer");
  if (ptr.kind() != Operand::Kind::Value)
    t.fail(loc, what + " needs a pointer or a block of pointers, not a "
                       "literal");
  o.ptr = t.resolve(ptr, {}, loc);
  auto ptrType = dyn_cast<PtrType>(getElementTypeOrSelf(o.ptr.getType()));
  if (!ptrType)
    t.fail(loc, what + " needs a pointer or a block of pointers, got " +
                    typeStr(o.ptr.getType()));
  Type pointee = ptrType.getPointeeType();
  bool isInt = pointee.isInteger(32) || pointee.isInteger(64);
  if (!isInt && !(pointee.isF32() && !intsOnly))
    t.fail(loc, what + " does not take " + typeStr(ptrType) +
                    (intsOnly ? " (i32 and i64 pointees only)"
                              : " (i32, i64 and f32 pointees only)"));
  // Values (and the compare value) take the pointee type, as in store.
  auto number = [&](const Operand &x, const char *name) {
    if (!x.present())
      t.fail(loc, what + " needs " + name);
    mlir::Value v = t.resolve(x, pointee, loc);
    Type e = getElementTypeOrSelf(v.getType());
    if (isa<PtrType>(e) || e.isInteger(1) ||
        isa<FloatType>(e) != isa<FloatType>(pointee))
      t.fail(loc, what + ": " + name + " of type " + typeStr(v.getType()) +
                      " does not go through " + typeStr(ptrType) +
                      "; convert it with .to()");
    return t.castTo(v, pointee, loc);
  };
  if (cmp)
    o.cmp = number(*cmp, "a compare value");
  o.val = number(val, "a value");
  if (mask.present()) {
    o.mask = t.resolve(mask, t.b.getI1Type(), loc);
    if (!getElementTypeOrSelf(o.mask.getType()).isInteger(1))
      t.fail(loc, what + " mask must be boolean (i1), got " +
                      typeStr(o.mask.getType()) + "; compare to get one");
  }
  SmallVector<int64_t> shape;
  try {
    shape = t.broadcastShape(o.ptr.getType(), o.val.getType(), loc);
    for (mlir::Value v : {o.cmp, o.mask})
      if (v)
        shape = t.broadcastShape(
            RankedTensorType::get(shape, t.b.getI1Type()), v.getType(), loc);
  } catch (const Error &) {
    std::string types = "pointers " + typeStr(o.ptr.getType()) + ", value " +
                        typeStr(o.val.getType());
    if (o.cmp)
      types += ", compare value " + typeStr(o.cmp.getType());
    if (o.mask)
      types += ", mask " + typeStr(o.mask.getType());
    t.fail(loc, what + ": " + types + " do not broadcast to one shape");
  }
  if (!isa<RankedTensorType>(o.ptr.getType()) && !shape.empty())
    t.fail(loc, what + ": a block of values or mask bits needs a block of "
                       "pointers, got " +
                    typeStr(o.ptr.getType()));
  for (mlir::Value *v : {&o.ptr, &o.cmp, &o.val, &o.mask})
    if (*v)
      *v = t.broadcastTo(*v, shape, loc);
  return o;
}

Value rmw(AtomicKind kind, const char *name, const Operand &ptr,
          const Operand &val, const Operand &mask, MemSem sem, MemScope scope,
          Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  bool intsOnly = kind == AtomicKind::And || kind == AtomicKind::Or ||
                  kind == AtomicKind::Xor;
  Operands o = atomicOperands(t, name, ptr, nullptr, val, mask, intsOnly, loc);
  // Through a u32/u64 pointer, max and min compare as unsigned.
  if (t.isUnsigned(o.ptr) && kind == AtomicKind::Max)
    kind = AtomicKind::UMax;
  else if (t.isUnsigned(o.ptr) && kind == AtomicKind::Min)
    kind = AtomicKind::UMin;
  return t.wrap(mlir::ktc::AtomicRMWOp::create(
      t.b, t.loc(loc), o.val.getType(),
      mlir::ktc::AtomicKindAttr::get(t.ctx, kind), o.ptr, o.val, o.mask,
      mlir::ktc::MemSemAttr::get(t.ctx, toMlir(sem)),
      mlir::ktc::MemScopeAttr::get(t.ctx, toMlir(scope))));
}

} // namespace

Value atomic_add(const Operand &ptr, const Operand &val, const Operand &mask,
                 MemSem sem, MemScope scope, Loc loc) {
  return rmw(AtomicKind::Add, "atomic_add", ptr, val, mask, sem, scope, loc);
}
Value atomic_max(const Operand &ptr, const Operand &val, const Operand &mask,
                 MemSem sem, MemScope scope, Loc loc) {
  return rmw(AtomicKind::Max, "atomic_max", ptr, val, mask, sem, scope, loc);
}
Value atomic_min(const Operand &ptr, const Operand &val, const Operand &mask,
                 MemSem sem, MemScope scope, Loc loc) {
  return rmw(AtomicKind::Min, "atomic_min", ptr, val, mask, sem, scope, loc);
}
Value atomic_xchg(const Operand &ptr, const Operand &val, const Operand &mask,
                  MemSem sem, MemScope scope, Loc loc) {
  return rmw(AtomicKind::Xchg, "atomic_xchg", ptr, val, mask, sem, scope,
             loc);
}
Value atomic_and(const Operand &ptr, const Operand &val, const Operand &mask,
                 MemSem sem, MemScope scope, Loc loc) {
  return rmw(AtomicKind::And, "atomic_and", ptr, val, mask, sem, scope, loc);
}
Value atomic_or(const Operand &ptr, const Operand &val, const Operand &mask,
                MemSem sem, MemScope scope, Loc loc) {
  return rmw(AtomicKind::Or, "atomic_or", ptr, val, mask, sem, scope, loc);
}
Value atomic_xor(const Operand &ptr, const Operand &val, const Operand &mask,
                 MemSem sem, MemScope scope, Loc loc) {
  return rmw(AtomicKind::Xor, "atomic_xor", ptr, val, mask, sem, scope, loc);
}

Value atomic_cas(const Operand &ptr, const Operand &cmp, const Operand &val,
                 const Operand &mask, MemSem sem, MemScope scope, Loc loc) {
  TraceImpl &t = TraceImpl::current(loc);
  Operands o =
      atomicOperands(t, "atomic_cas", ptr, &cmp, val, mask, false, loc);
  return t.wrap(mlir::ktc::AtomicCASOp::create(
      t.b, t.loc(loc), o.val.getType(), o.ptr, o.cmp, o.val, o.mask,
      mlir::ktc::MemSemAttr::get(t.ctx, toMlir(sem)),
      mlir::ktc::MemScopeAttr::get(t.ctx, toMlir(scope))));
}

} // namespace ktc
