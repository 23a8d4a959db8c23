//===- SharedBuffers.cpp - a kernel's shared memory: scratch and buffers ---===//
//
// See SharedBuffers.h.
//
//===----------------------------------------------------------------------===//

#include "SharedBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktc;

SharedLayout mlir::ktc::bufferLayout(LocalAllocOp alloc) {
  SharedLayout l;
  l.pad = int64_t(alloc.getPad());
  l.vec = int64_t(alloc.getVec());
  l.perPhase = int64_t(alloc.getPerPhase());
  l.maxPhase = int64_t(alloc.getMaxPhase());
  l.split = int64_t(alloc.getSplit());
  return l;
}

int64_t mlir::ktc::slotElements(LocalAllocOp alloc) {
  ArrayRef<int64_t> shape = alloc.getType().getSlotShape();
  int64_t rows = 1;
  for (int64_t d : shape.drop_back())
    rows *= d;
  return rows * (shape.back() + int64_t(alloc.getPad()));
}

int64_t mlir::ktc::bufferBytes(LocalAllocOp alloc) {
  SharedBufferType type = alloc.getType();
  return type.getNumSlots() * slotElements(alloc) *
         sharedBytes(type.getElementType());
}

Value mlir::ktc::slotStart(OpBuilder &b, Location loc,
                           const LoweringState &state, LocalAllocOp alloc,
                           Value slot) {
  int64_t bytes = sharedBytes(alloc.getType().getElementType());
  int64_t first = state.bufferOffsets.lookup(alloc) / bytes;
  Value start = arith::MulIOp::create(b, loc, slot,
                                      i32Const(b, loc, slotElements(alloc)));
  return arith::AddIOp::create(b, loc, start, i32Const(b, loc, first));
}

/// The widest access (elements) that stays within one chunk of `shared`
/// and aligned to its size, for rows of `cols` elements.
static int64_t widestAccess(const SharedLayout &shared, int64_t cols) {
  if (shared.maxPhase > 1)
    return shared.vec;
  int64_t row = shared.split ? std::min(cols, shared.split) : cols + shared.pad;
  return int64_t(1) << llvm::countr_zero(uint64_t(row));
}

SharedPlan mlir::ktc::slotReadPlan(const LinearLayout &to, Type element,
                                   const SharedLayout &shared,
                                   bool matrixLoads) {
  SharedPlan plan;
  plan.shared = shared;
  int64_t bytes = sharedBytes(element);
  bool packable =
      element.isIntOrFloat() && element.getIntOrFloatBitWidth() >= 8;
  int64_t widest = widestAccess(shared, to.shape().back());
  plan.readVector = std::min(vectorOf(to, bytes, packable), widest);
  if (matrixLoads && widest >= 8)
    if ((plan.matrix = planMatrixLoads(to, element)))
      plan.readVector = 8;
  return plan;
}

int64_t mlir::ktc::asyncCopyVector(const LinearLayout &from,
                                   int64_t elementBytes,
                                   const SharedLayout &shared, int64_t width) {
  int64_t v = std::min({vectorOf(from, elementBytes, true), width,
                        widestAccess(shared, from.shape().back())});
  v = int64_t(1) << llvm::Log2_64(std::max<int64_t>(v, 1));
  return v * elementBytes >= 4 ? v : 0;
}

LinearLayout mlir::ktc::dotOperandLayout(DotOp dot, unsigned idx) {
  auto type = cast<RankedTensorType>(dot->getOperand(idx).getType());
  return toLinearLayout(DotOperandEncodingAttr::get(
                            dot.getContext(), idx, dot.getType().getEncoding()),
                        type.getShape());
}

LocalLoadOp mlir::ktc::bufferOperand(DotOp dot, unsigned idx) {
  return dot->getOperand(idx).getDefiningOp<LocalLoadOp>();
}

const MmaInstr *mlir::ktc::wgmmaOf(DotOp dot) {
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(dot.getType().getEncoding());
  if (!mma)
    return nullptr;
  const MmaInstr *instr = lookupMmaInstr(mma.getInstr());
  return instr && instr->family == MmaInstr::NvWgmma ? instr : nullptr;
}

SharedLayout mlir::ktc::wgmmaOperandLayout(const MmaInstr &instr, unsigned idx,
                                           ArrayRef<int64_t> shape,
                                           int64_t elementBytes) {
  // A's rows run along K, B's along N (one instruction spans instr.n).
  int64_t cols = shape.back();
  int64_t width = std::min<int64_t>({128, cols * elementBytes,
                                     idx == 0 ? 128 : instr.n * elementBytes});
  SharedLayout l;
  l.vec = 16 / elementBytes;
  l.perPhase = 128 / width;
  l.maxPhase = width / 16;
  l.split = width / elementBytes;
  return l;
}

BufferLifetimes::BufferLifetimes(Operation *scope) {
  DenseMap<Block *, SmallVector<LocalAllocOp>> allocs;
  scope->walk([&](LocalAllocOp a) { allocs[a->getBlock()].push_back(a); });
  for (auto &[block, list] : allocs) {
    // Every use of a buffer (or a dot reading one, or its wait), as the op
    // of `block` holding it.
    Operation *last = nullptr;
    auto note = [&](Operation *op) {
      Operation *top = block->findAncestorOpInBlock(*op);
      if (!top)
        return false;
      if (!last || last->isBeforeInBlock(top))
        last = top;
      return true;
    };
    bool contained = true;
    for (LocalAllocOp a : list) {
      note(a);
      for (Operation *user : a->getUsers())
        contained &= note(user);
    }
    // (Nested in `block`, these always have an op of it holding them.)
    block->walk([&](Operation *op) {
      if (isa<DotWaitOp, LocalLoadOp, AsyncCopyOp, AsyncCommitOp>(op) ||
          (isa<DotOp>(op) && op->hasAttr(kDotPendingAttr)))
        note(op);
    });
    if (!contained || !last)
      continue;
    for (Operation *o = last->getNextNode(); o; o = o->getNextNode())
      if (auto wait = dyn_cast<AsyncWaitOp>(o)) {
        fences[block] = wait;
        break;
      }
  }
}

bool BufferLifetimes::after(Operation *op) const {
  for (auto &[block, fence] : fences)
    if (Operation *top = block->findAncestorOpInBlock(*op))
      return top != fence && fence->isBeforeInBlock(top);
  return false;
}

int64_t mlir::ktc::scratchBytes(Operation *scope, const TargetInfo &target,
                                unsigned numWarps, Operation **largest,
                                function_ref<bool(Operation *)> skip) {
  int64_t most = 0;
  GpuTypeConverter elements(scope->getContext());
  auto need = [&](Operation *op, int64_t bytes) {
    if (bytes <= most)
      return;
    most = bytes;
    if (largest)
      *largest = op;
  };
  scope->walk([&](Operation *op) {
    if (skip && skip(op))
      return;
    if (auto reduce = dyn_cast<ReduceOp>(op))
      if (reduce.getSrc().getType().getRank() >= 2)
        need(op, reductionSharedBytes(reduce, target));
    if (auto dot = dyn_cast<DotOp>(op))
      need(op, dotSharedBytes(dot, target));
    if (auto r = dyn_cast<ReduceWithOp>(op))
      need(op, reduceWithSharedBytes(r, target));
    if (auto scan = dyn_cast<ScanOp>(op))
      need(op, scanSharedBytes(scan));
    if (isa<AtomicRMWOp, AtomicCASOp>(op))
      need(op, atomicSharedBytes(op, numWarps, target.waveSize()));
    if (isa<ExpandDimsOp, BroadcastOp, ConvertLayoutOp, TransOp, ReshapeOp>(
            op)) {
      auto src = cast<RankedTensorType>(op->getOperand(0).getType());
      need(op, conversionSharedBytes(
                   relayoutSource(op), relayoutNeeds(op),
                   elements.convertType(src.getElementType()), target));
    }
  });
  return most;
}
