//===- AtomicEmit.h - one element of a ktc atomic as LLVM ops ----*- C++ -*-===//
//
// The scalar core shared by the GPU lowering (AtomicOpToLLVM.cpp) and the
// host's (lib/Target/CPU/HostAtomics.cpp): one llvm.atomicrmw or
// llvm.cmpxchg on one address, returning the old value. Header-only so
// that the host target needs no GPU library.
//
// Float max and min are Triton's: the bits, read as sign and magnitude,
// are a total order (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN), so
// a value with the sign bit clear takes a signed integer max (min) and one
// with it set an unsigned integer min (max) -- the same one instruction
// per element on every target.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_ATOMICEMIT_H
#define KTC_LIB_CONVERSION_ATOMICEMIT_H

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>

namespace mlir::ktc {

inline LLVM::AtomicOrdering atomicOrdering(MemSem sem) {
  switch (sem) {
  case MemSem::Relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case MemSem::Acquire:
    return LLVM::AtomicOrdering::acquire;
  case MemSem::Release:
    return LLVM::AtomicOrdering::release;
  case MemSem::AcqRel:
    break;
  }
  return LLVM::AtomicOrdering::acq_rel;
}

/// What an atomic needs besides its operands.
struct AtomicSpec {
  MemSem sem = MemSem::AcqRel;
  StringRef syncScope; // LLVM's: "" is the system
  std::function<void(Operation *)> mark; // may be empty
  /// The target's own read-modify-write (TargetInfo::atomicRMW); may be
  /// empty or return null for llvm.atomicrmw.
  std::function<Value(OpBuilder &, Location, LLVM::AtomicBinOp, Value ptr,
                      Value val)>
      custom;
};

/// `old <kind> val` at `ptr` (an !llvm.ptr), atomically; returns old.
/// `val` is i32, i64 or f32.
inline Value emitAtomicRMW(OpBuilder &b, Location loc, AtomicKind kind,
                           Value ptr, Value val, const AtomicSpec &spec) {
  Type type = val.getType();
  bool isFloat = isa<FloatType>(type);
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  auto rmw = [&](OpBuilder &b, Location loc, LLVM::AtomicBinOp op,
                 Value v) -> Value {
    if (spec.custom)
      if (Value r = spec.custom(b, loc, op, ptr, v))
        return r;
    auto a = LLVM::AtomicRMWOp::create(b, loc, op, ptr, v,
                                       atomicOrdering(spec.sem),
                                       spec.syncScope, bits / 8);
    if (spec.mark)
      spec.mark(a);
    return a.getRes();
  };
  using Bin = LLVM::AtomicBinOp;
  if (!isFloat || kind == AtomicKind::Add) {
    Bin op = Bin::xchg;
    switch (kind) {
    case AtomicKind::Add:
      op = isFloat ? Bin::fadd : Bin::add;
      break;
    case AtomicKind::Max:
      op = Bin::max;
      break;
    case AtomicKind::Min:
      op = Bin::min;
      break;
    case AtomicKind::UMax:
      op = Bin::umax;
      break;
    case AtomicKind::UMin:
      op = Bin::umin;
      break;
    case AtomicKind::Xchg:
      op = Bin::xchg;
      break;
    case AtomicKind::And:
      op = Bin::_and;
      break;
    case AtomicKind::Or:
      op = Bin::_or;
      break;
    case AtomicKind::Xor:
      op = Bin::_xor;
      break;
    }
    return rmw(b, loc, op, val);
  }
  // Floats other than add work on the bits.
  Value v = LLVM::BitcastOp::create(b, loc, intType, val);
  Value old;
  if (kind == AtomicKind::Xchg) {
    old = rmw(b, loc, Bin::xchg, v);
  } else {
    bool isMax = kind == AtomicKind::Max;
    Value negative = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt, v,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(intType, 0)));
    old = scf::IfOp::create(
              b, loc, negative,
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(
                    b, loc, rmw(b, loc, isMax ? Bin::umin : Bin::umax, v));
              },
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(
                    b, loc, rmw(b, loc, isMax ? Bin::max : Bin::min, v));
              })
              .getResult(0);
  }
  return LLVM::BitcastOp::create(b, loc, type, old);
}

/// If the bits at `ptr` equal those of `cmp`, writes `val`, atomically;
/// returns the old value. i32, i64 or f32.
inline Value emitAtomicCAS(OpBuilder &b, Location loc, Value ptr, Value cmp,
                           Value val, const AtomicSpec &spec) {
  Type type = val.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  if (type != intType) {
    cmp = LLVM::BitcastOp::create(b, loc, intType, cmp);
    val = LLVM::BitcastOp::create(b, loc, intType, val);
  }
  LLVM::AtomicOrdering failure =
      spec.sem == MemSem::Acquire || spec.sem == MemSem::AcqRel
          ? LLVM::AtomicOrdering::acquire
          : LLVM::AtomicOrdering::monotonic;
  auto cas = LLVM::AtomicCmpXchgOp::create(b, loc, ptr, cmp, val,
                                           atomicOrdering(spec.sem), failure,
                                           spec.syncScope, bits / 8);
  if (spec.mark)
    spec.mark(cas);
  Value old = LLVM::ExtractValueOp::create(b, loc, cas.getRes(), 0);
  if (type != intType)
    old = LLVM::BitcastOp::create(b, loc, type, old);
  return old;
}

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_ATOMICEMIT_H
