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

/// The size of the last (fastest) dimension: what the runs are counted
/// along (the whole block for 1-D blocks, 1 for scalars).
int64_t lastDimSize(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return tensor.getRank() == 0 ? 1 : tensor.getShape().back();
  return 1;
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

} // namespace

AxisAnalysis::AxisAnalysis(FunctionOpInterface func) {
  for (BlockArgument arg : func.getArguments()) {
    AxisInfo a;
    if (auto d = func.getArgAttrOfType<IntegerAttr>(
            arg.getArgNumber(), KtcDialect::getDivisibilityAttrName()))
      a.divisibility = d.getInt();
    info[arg] = a;
  }
  func->walk<WalkOrder::PreOrder>([&](Operation *op) { visit(op); });
}

AxisInfo AxisAnalysis::get(Value v) const {
  auto it = info.find(v);
  return it == info.end() ? AxisInfo() : it->second;
}

void AxisAnalysis::visit(Operation *op) {
  auto set = [&](AxisInfo a) { info[op->getResult(0)] = a; };
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    // i = lb + k * step: divisible by what both are divisible by.
    AxisInfo iv;
    iv.divisibility = std::gcd(get(forOp.getLowerBound()).divisibility,
                               get(forOp.getStep()).divisibility);
    info[forOp.getInductionVar()] = iv;
    return; // iter_args and results: nothing known
  }
  if (op->getNumResults() != 1)
    return;
  Type type = op->getResult(0).getType();
  int64_t n = lastDimSize(type);

  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    AxisInfo a;
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (dense && !dense.isSplat())
      return set(a); // a list of values: nothing known
    a.constancy = n;
    APInt value;
    if (matchPattern(op->getResult(0), m_ConstantInt(&value)))
      a.divisibility = highestPow2Dividing(value.getSExtValue());
    return set(a);
  }
  if (auto r = dyn_cast<ArangeOp>(op)) {
    AxisInfo a;
    a.contiguity = n;
    a.divisibility = highestPow2Dividing(r.getStart());
    return set(a);
  }
  if (auto s = dyn_cast<SplatOp>(op)) {
    AxisInfo a = get(s.getSrc());
    a.contiguity = 1;
    a.constancy = n;
    return set(a);
  }
  if (auto e = dyn_cast<ExpandDimsOp>(op)) {
    AxisInfo a = get(e.getSrc());
    if (e.getAxis() == 0)
      return set(a); // 1 x N: the runs stay along the last dimension
    // N x 1: every element starts a run of one.
    AxisInfo r;
    r.divisibility = divisibilityAt(a, 1);
    return set(r);
  }
  if (auto b = dyn_cast<BroadcastOp>(op)) {
    AxisInfo a = get(b.getSrc());
    if (lastDimSize(b.getSrc().getType()) != 1)
      return set(a); // the last dimension is not stretched
    // Each element repeated along the last dimension.
    AxisInfo r;
    r.divisibility = a.divisibility;
    r.constancy = n;
    return set(r);
  }
  if (auto p = dyn_cast<AddPtrOp>(op)) {
    Type pointee =
        cast<PtrType>(getElementTypeOrSelf(p.getPtr().getType())).getPointeeType();
    return set(addInfo(get(p.getPtr()), get(p.getOffset()), false,
                       elementBytes(pointee)));
  }
  if (isa<arith::AddIOp>(op))
    return set(addInfo(get(op->getOperand(0)), get(op->getOperand(1)), false));
  if (isa<arith::SubIOp>(op))
    return set(addInfo(get(op->getOperand(0)), get(op->getOperand(1)), true));
  if (isa<arith::MulIOp>(op)) {
    AxisInfo a = get(op->getOperand(0)), b = get(op->getOperand(1)), r;
    r.divisibility = std::min(divisibilityAt(a, 1) * divisibilityAt(b, 1),
                              kMaxDivisibility);
    r.constancy = std::gcd(a.constancy, b.constancy);
    return set(r);
  }
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp>(
          op))
    return set(get(op->getOperand(0)));
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    // x < n over runs of consecutive x: constant over aligned chunks that
    // both the run and n divide.
    AxisInfo a = get(cmp.getLhs()), b = get(cmp.getRhs()), r;
    r.constancy = std::gcd(a.constancy, b.constancy);
    if (b.constancy == n && a.contiguity > 1)
      r.constancy = std::max(
          r.constancy,
          std::gcd(a.contiguity, std::gcd(a.divisibility, b.divisibility)));
    return set(r);
  }
  if (isa<arith::AndIOp, arith::OrIOp, arith::SelectOp>(op)) {
    AxisInfo r;
    r.constancy = n;
    for (Value v : op->getOperands())
      r.constancy = std::gcd(r.constancy, get(v).constancy);
    return set(r);
  }
  set(AxisInfo()); // nothing known
}

int64_t AxisAnalysis::vectorWidth(Operation *memoryOp) const {
  Value ptr, mask;
  if (auto load = dyn_cast<LoadOp>(memoryOp)) {
    ptr = load.getPtr();
    mask = load.getMask();
  } else {
    auto store = cast<StoreOp>(memoryOp);
    ptr = store.getPtr();
    mask = store.getMask();
  }
  Type pointee =
      cast<PtrType>(getElementTypeOrSelf(ptr.getType())).getPointeeType();
  int64_t bytes = elementBytes(pointee);
  AxisInfo p = get(ptr);
  int64_t width = std::min<int64_t>(16 / bytes, p.contiguity);
  width = std::min(width, std::max<int64_t>(1, p.divisibility / bytes));
  if (mask)
    width = std::min(width, get(mask).constancy);
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
