//===- AxisInfo.cpp - contiguity, divisibility, constancy ------------------===//

#include "AxisInfo.h"

#include "dialect/KtcPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <numeric>

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCTESTAXISINFO
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

namespace {

int64_t highestPow2Dividing(int64_t v) {
  if (v == 0)
    return AxisAnalysis::kMaxDivisibility;
  return std::min<int64_t>(int64_t(1) << llvm::countr_zero(uint64_t(v)),
                           AxisAnalysis::kMaxDivisibility);
}

int64_t elementBytes(Type pointee) {
  return pointee.isInteger(1) ? 1 : pointee.getIntOrFloatBitWidth() / 8;
}

/// What divides the starts of runs of `contiguity` values cut from `a`'s
/// runs: `a`'s divisibility only holds for the start of each of its runs
/// (x, x+1, ... are not all divisible by it).
int64_t divisibilityAt(AxisInfo a, int64_t contiguity) {
  if (a.contiguity <= contiguity)
    return a.divisibility;
  return std::gcd(a.divisibility, contiguity);
}

/// a + b (or a - b): runs of consecutive values survive next to runs of
/// constants.
AxisInfo addInfo(AxisInfo a, AxisInfo b, bool subtract, int64_t bScale = 1) {
  AxisInfo r;
  r.contiguity = std::gcd(a.contiguity, b.constancy);
  if (!subtract)
    r.contiguity = std::max(r.contiguity, std::gcd(b.contiguity, a.constancy));
  r.divisibility = std::gcd(divisibilityAt(a, r.contiguity),
                            divisibilityAt(b, r.contiguity) * bScale);
  r.constancy = std::gcd(a.constancy, b.constancy);
  return r;
}

/// Whether every element of `v` is >= 0, from how it was computed: grid
/// indices, aranges and constants >= 0, and sums, products, quotients and
/// remainders of such values (i32 offsets are assumed not to overflow, as
/// everywhere in ktc).
bool knownNonNegative(Value v, int depth = 0) {
  if (depth > 16)
    return false;
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return !value.isNegative();
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (isa<ProgramIdOp, NumProgramsOp>(op))
    return true;
  if (auto r = dyn_cast<ArangeOp>(op))
    return r.getStart() >= 0;
  if (isa<SplatOp, ExpandDimsOp, BroadcastOp, arith::ExtUIOp, arith::ExtSIOp>(
          op))
    return knownNonNegative(op->getOperand(0), depth + 1);
  if (isa<arith::RemUIOp>(op))
    return true;
  if (isa<arith::AddIOp, arith::MulIOp, arith::DivSIOp, arith::RemSIOp,
          arith::MinSIOp, arith::MaxSIOp>(op))
    return llvm::all_of(op->getOperands(), [&](Value x) {
      return knownNonNegative(x, depth + 1);
    });
  return false;
}

} // namespace

/// The sizes of `t`'s dimensions (a scalar: one of size 1).
static SmallVector<int64_t, 3> dimSizes(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    if (tensor.getRank() > 0)
      return SmallVector<int64_t, 3>(tensor.getShape());
  return {1};
}

AxisAnalysis::AxisAnalysis(FunctionOpInterface func) {
  for (BlockArgument arg : func.getArguments()) {
    AxisInfos a(dimSizes(arg.getType()).size());
    if (auto d = func.getArgAttrOfType<IntegerAttr>(
            arg.getArgNumber(), KtcDialect::getDivisibilityAttrName()))
      for (AxisInfo &x : a)
        x.divisibility = d.getInt();
    info[arg] = a;
  }
  visitRegions(func);
}

/// What both `a` and `b` keep (all three are powers of two).
static AxisInfos meet(const AxisInfos &a, const AxisInfos &b) {
  if (a.size() != b.size())
    return AxisInfos(a.size());
  AxisInfos r(a.size());
  for (unsigned d = 0; d < a.size(); ++d)
    r[d] = AxisInfo{std::gcd(a[d].contiguity, b[d].contiguity),
                    std::gcd(a[d].divisibility, b[d].divisibility),
                    std::gcd(a[d].constancy, b[d].constancy)};
  return r;
}

static bool same(const AxisInfos &a, const AxisInfos &b) {
  return llvm::equal(a, b, [](const AxisInfo &x, const AxisInfo &y) {
    return x.contiguity == y.contiguity && x.divisibility == y.divisibility &&
           x.constancy == y.constancy;
  });
}

void AxisAnalysis::visitRegions(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &inner : block)
        visitNested(&inner);
}

void AxisAnalysis::visitNested(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return visitFor(loop);
  visit(op); // before its regions, which may read its results' facts
  visitRegions(op);
}

void AxisAnalysis::visitFor(scf::ForOp loop) {
  // i = lb + k * step: divisible by what both are divisible by.
  AxisInfo iv;
  iv.divisibility = std::gcd(get(loop.getLowerBound()).divisibility,
                             get(loop.getStep()).divisibility);
  info[loop.getInductionVar()] = {iv};
  // Each carried value: what its start has, then what it keeps through an
  // iteration, until nothing changes (each round only lowers powers of two;
  // a few rounds settle the loops kernels have, and after the last one
  // nothing is assumed).
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<AxisInfos> carried;
  for (Value init : loop.getInitArgs())
    carried.push_back(getAll(init));
  constexpr int kRounds = 4;
  for (int round = 0;; ++round) {
    for (auto [arg, a] : llvm::zip(loop.getRegionIterArgs(), carried))
      info[arg] = a;
    visitRegions(loop);
    bool changed = false;
    for (auto [a, next] : llvm::zip(carried, yield.getOperands())) {
      AxisInfos kept = meet(a, getAll(next));
      changed |= !same(kept, a);
      a = kept;
    }
    if (!changed)
      break;
    if (round + 1 == kRounds) {
      for (auto [arg, a] : llvm::zip(loop.getRegionIterArgs(), carried))
        info[arg] = a = AxisInfos(a.size());
      visitRegions(loop);
      break;
    }
  }
  for (auto [result, a] : llvm::zip(loop.getResults(), carried))
    info[result] = a;
}

AxisInfos AxisAnalysis::getAll(Value v) const {
  auto it = info.find(v);
  if (it != info.end())
    return it->second;
  return AxisInfos(dimSizes(v.getType()).size());
}

AxisInfo AxisAnalysis::get(Value v) const { return getAll(v).back(); }

/// What divides every element of a value: the starts of its runs along
/// each dimension, cut to runs of one.
static int64_t everyElement(const AxisInfos &a) {
  int64_t d = AxisAnalysis::kMaxDivisibility;
  for (const AxisInfo &x : a)
    d = std::min(d, divisibilityAt(x, 1));
  return d;
}

void AxisAnalysis::visit(Operation *op) {
  visitOp(op);
  // The user's hints (multiple_of, max_contiguous; verified by the
  // dialect: one power of two per dimension) raise what was proven.
  auto multipleOf = op->getAttrOfType<DenseI64ArrayAttr>(
      KtcDialect::getMultipleOfAttrName());
  auto maxContiguous = op->getAttrOfType<DenseI64ArrayAttr>(
      KtcDialect::getMaxContiguousAttrName());
  auto maxConstancy = // tl.max_constancy (lib/Builder/Hints.cpp)
      op->getAttrOfType<DenseI64ArrayAttr>("ktc.max_constancy");
  if ((!multipleOf && !maxContiguous && !maxConstancy) ||
      op->getNumResults() != 1)
    return;
  Value result = op->getResult(0);
  AxisInfos a = getAll(result);
  SmallVector<int64_t, 3> sizes = dimSizes(result.getType());
  for (unsigned d = 0; d < a.size(); ++d) {
    if (multipleOf && d < multipleOf.size())
      a[d].divisibility = std::min(
          std::max(a[d].divisibility, multipleOf[d]), kMaxDivisibility);
    if (maxContiguous && d < maxContiguous.size())
      a[d].contiguity = std::min(std::max(a[d].contiguity, maxContiguous[d]),
                                 sizes[d]);
    if (maxConstancy && d < maxConstancy.size())
      a[d].constancy = std::min(std::max(a[d].constancy, maxConstancy[d]),
                                sizes[d]);
  }
  info[result] = a;
}

void AxisAnalysis::visitOp(Operation *op) {
  if (op->getNumResults() != 1)
    return;
  Type type = op->getResult(0).getType();
  SmallVector<int64_t, 3> sizes = dimSizes(type);
  unsigned rank = sizes.size();
  auto set = [&](AxisInfos a) { info[op->getResult(0)] = a; };
  // The same rule along every dimension.
  auto each = [&](auto rule) {
    AxisInfos r(rank);
    for (unsigned d = 0; d < rank; ++d)
      r[d] = rule(d, sizes[d]);
    set(r);
  };
  auto operand = [&](unsigned i, unsigned d) {
    AxisInfos a = getAll(op->getOperand(i));
    return a.size() == rank ? a[d] : a.back(); // a scalar operand
  };

  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (dense && !dense.isSplat())
      return set(AxisInfos(rank)); // a list of values: nothing known
    int64_t div = 1;
    APInt value;
    if (matchPattern(op->getResult(0), m_ConstantInt(&value)))
      div = highestPow2Dividing(value.getSExtValue());
    return each([&](unsigned, int64_t n) {
      return AxisInfo{1, div, n};
    });
  }
  if (auto r = dyn_cast<ArangeOp>(op))
    return set({AxisInfo{sizes[0], highestPow2Dividing(r.getStart()), 1}});
  if (auto s = dyn_cast<SplatOp>(op)) {
    int64_t div = get(s.getSrc()).divisibility;
    return each([&](unsigned, int64_t n) { return AxisInfo{1, div, n}; });
  }
  if (auto e = dyn_cast<ExpandDimsOp>(op)) {
    AxisInfos a = getAll(e.getSrc());
    // The unit dimension: every element starts a run of one.
    a.insert(a.begin() + e.getAxis(), AxisInfo{1, everyElement(a), 1});
    return set(a);
  }
  if (auto b = dyn_cast<BroadcastOp>(op)) {
    AxisInfos a = getAll(b.getSrc());
    SmallVector<int64_t, 3> from = dimSizes(b.getSrc().getType());
    for (unsigned d = 0; d < rank; ++d)
      if (from[d] == 1 && sizes[d] != 1)
        a[d] = AxisInfo{1, everyElement(a), sizes[d]}; // repeated along d
    return set(a);
  }
  if (auto t = dyn_cast<TransOp>(op)) {
    // Result dimension i is the source's dimension perm[i].
    AxisInfos a = getAll(t.getSrc()), r;
    for (int32_t p : t.getPerm())
      r.push_back(a[p]);
    return set(r);
  }
  if (auto p = dyn_cast<AddPtrOp>(op)) {
    Type pointee =
        cast<PtrType>(getElementTypeOrSelf(p.getPtr().getType())).getPointeeType();
    return each([&](unsigned d, int64_t) {
      return addInfo(operand(0, d), operand(1, d), false, elementBytes(pointee));
    });
  }
  if (isa<arith::AddIOp>(op))
    return each([&](unsigned d, int64_t) {
      return addInfo(operand(0, d), operand(1, d), false);
    });
  if (isa<arith::SubIOp>(op))
    return each([&](unsigned d, int64_t) {
      return addInfo(operand(0, d), operand(1, d), true);
    });
  if (isa<arith::MulIOp>(op))
    return each([&](unsigned d, int64_t) {
      AxisInfo a = operand(0, d), b = operand(1, d), r;
      r.divisibility = std::min(divisibilityAt(a, 1) * divisibilityAt(b, 1),
                                kMaxDivisibility);
      r.constancy = std::gcd(a.constancy, b.constancy);
      return r;
    });
  if (isa<arith::RemSIOp, arith::RemUIOp, arith::DivSIOp, arith::DivUIOp>(op))
    return each([&](unsigned d, int64_t) {
      // x % n and x / n, n the same along d: cut x's runs of consecutive
      // values into chunks whose starts are multiples of g, g dividing n.
      // A multiple of n (where x % n wraps and x / n steps) can only be a
      // chunk's start, so x % n runs on within a chunk and x / n stays
      // put. Signed: only for x, n known >= 0 (C's % and / truncate toward
      // zero, so below zero a chunk [-8, -5] % 4 is 0, -3, -2, -1).
      AxisInfo a = operand(0, d), b = operand(1, d), r;
      r.constancy = std::gcd(a.constancy, b.constancy);
      bool isSigned = isa<arith::RemSIOp, arith::DivSIOp>(op);
      if (a.contiguity == 1 ||
          (isSigned && !knownNonNegative(op->getOperand(0))))
        return r;
      // The builder's guarded divisor, select(n == 0 | n == -1, 1, n): the
      // quotient or remainder by 1 is only kept where n == -1 (n == 0
      // selects x or -1 after it), and an n divisible by 2 or more is
      // never -1. (n's sign is no matter: x % -n == x % n, x / -n is
      // -(x / n).)
      if (auto guard = op->getOperand(1).getDefiningOp<arith::SelectOp>())
        if (matchPattern(guard.getTrueValue(), m_One())) {
          AxisInfos n = getAll(guard.getFalseValue());
          AxisInfo y = n.size() == rank ? n[d] : n.back();
          if (y.divisibility >= 2)
            b = y;
        }
      int64_t g = std::gcd(std::gcd(a.contiguity, b.constancy),
                           std::gcd(a.divisibility, b.divisibility));
      if (isa<arith::RemSIOp, arith::RemUIOp>(op)) {
        r.contiguity = g;
        r.divisibility = std::gcd(divisibilityAt(a, g), b.divisibility);
      } else {
        r.constancy = std::max(r.constancy, g);
      }
      return r;
    });
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp>(
          op))
    return set(getAll(op->getOperand(0)));
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return each([&](unsigned d, int64_t n) {
      // x < n and x >= n over runs of consecutive x, n the same over them:
      // constant over aligned chunks that both the run and n divide (a
      // chunk lies wholly below n or wholly at or above it). Not x == n,
      // x <= n or x > n: a chunk starting at n holds both answers. With
      // the operands the other way round, n > x and n <= x are the sound
      // ones.
      using P = arith::CmpIPredicate;
      AxisInfo a = operand(0, d), b = operand(1, d), r;
      r.constancy = std::gcd(a.constancy, b.constancy);
      P pred = cmp.getPredicate();
      bool lhsRuns = pred == P::slt || pred == P::ult || pred == P::sge ||
                     pred == P::uge;
      bool rhsRuns = pred == P::sgt || pred == P::ugt || pred == P::sle ||
                     pred == P::ule;
      if (rhsRuns)
        std::swap(a, b);
      if ((lhsRuns || rhsRuns) && b.constancy == n && a.contiguity > 1)
        r.constancy = std::max(
            r.constancy,
            std::gcd(a.contiguity, std::gcd(a.divisibility, b.divisibility)));
      return r;
    });
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && !getElementTypeOrSelf(select.getType()).isInteger(1))
    return each([&](unsigned d, int64_t) {
      // Over chunks where the condition holds one value, each chunk is a
      // piece of one of the two: what both have in common.
      AxisInfo c = operand(0, d), t = operand(1, d), f = operand(2, d), r;
      r.constancy = std::gcd(c.constancy, std::gcd(t.constancy, f.constancy));
      r.contiguity =
          std::gcd(c.constancy, std::gcd(t.contiguity, f.contiguity));
      r.divisibility = std::gcd(divisibilityAt(t, r.contiguity),
                                divisibilityAt(f, r.contiguity));
      return r;
    });
  if (isa<arith::AndIOp, arith::OrIOp, arith::SelectOp>(op))
    return each([&](unsigned d, int64_t n) {
      AxisInfo r;
      r.constancy = n;
      for (unsigned i = 0; i < op->getNumOperands(); ++i)
        r.constancy = std::gcd(r.constancy, operand(i, d).constancy);
      return r;
    });
  set(AxisInfos(rank)); // nothing known
}

int64_t AxisAnalysis::vectorWidth(Operation *memoryOp, int dim) const {
  Value ptr, mask;
  if (auto load = dyn_cast<LoadOp>(memoryOp)) {
    ptr = load.getPtr();
    mask = load.getMask();
  } else if (auto copy = dyn_cast<AsyncCopyOp>(memoryOp)) {
    ptr = copy.getPtr();
    mask = copy.getMask();
  } else {
    auto store = cast<StoreOp>(memoryOp);
    ptr = store.getPtr();
    mask = store.getMask();
  }
  Type pointee =
      cast<PtrType>(getElementTypeOrSelf(ptr.getType())).getPointeeType();
  int64_t bytes = elementBytes(pointee);
  AxisInfos all = getAll(ptr);
  unsigned d = dim < 0 ? all.size() - 1 : unsigned(dim);
  AxisInfo p = all[d];
  int64_t width = std::min<int64_t>(16 / bytes, p.contiguity);
  width = std::min(width, std::max<int64_t>(1, p.divisibility / bytes));
  if (mask)
    width = std::min(width, getAll(mask)[d].constancy);
  return std::max<int64_t>(1, highestPow2Dividing(width) == width
                                  ? width
                                  : int64_t(1) << llvm::Log2_64(width));
}

namespace {
struct KtcTestAxisInfoPass
    : mlir::ktc::impl::KtcTestAxisInfoBase<KtcTestAxisInfoPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    AxisAnalysis analysis(func);
    func->walk([&](Operation *op) {
      if (isa<LoadOp, StoreOp>(op)) {
        op->emitRemark() << "vector = " << analysis.vectorWidth(op);
        return;
      }
      if (op->getNumResults() != 1 ||
          !isa<IntegerType, PtrType>(
              getElementTypeOrSelf(op->getResult(0).getType())))
        return;
      AxisInfo a = analysis.get(op->getResult(0));
      op->emitRemark() << "contiguity = " << a.contiguity
                       << ", divisibility = " << a.divisibility
                       << ", constancy = " << a.constancy;
    });
  }
};
} // namespace
