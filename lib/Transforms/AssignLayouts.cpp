//===- AssignLayouts.cpp - the ktc-assign-layouts pass ---------------------===//
//
// See KtcAssignLayouts in KtcPasses.td. Blocks that must share a layout
// (operands and results of elementwise ops, a load's pointers and result, a
// store's pointers and value, a broadcast's source and result, loop-carried
// values) form classes (LayoutClasses.h). The classes of the highest rank
// get #ktc.blocked layouts from their shape and the widest access of it
// (the axis analysis); a class that is reduced from, or expanded into, a
// class of higher rank gets that class's #ktc.slice along the axis, so that
// reductions, expand_dims and broadcasts move no data. Where one value
// would need two layouts an explicit ktc.convert_layout is inserted.
// Cheap blocks (aranges, splats, constants and elementwise trees of them)
// used in several places are first copied per use, so that each copy can
// take the layout its use wants.
//
//===----------------------------------------------------------------------===//

#include "AxisInfo.h"
#include "CheapBlocks.h"
#include "DefaultLayouts.h"
#include "LayoutClasses.h"
#include "PairLayouts.h"
#include "ThreadShares.h"

#include "dialect/KtcPasses.h"
#include "dialect/LinearLayout.h"
#include "dialect/MmaLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <map>

namespace mlir::ktc {
#define GEN_PASS_DEF_KTCASSIGNLAYOUTS
#include "dialect/KtcPasses.h.inc"
} // namespace mlir::ktc

using namespace mlir;
using namespace mlir::ktc;

namespace {

struct KtcAssignLayoutsPass
    : mlir::ktc::impl::KtcAssignLayoutsBase<KtcAssignLayoutsPass> {
  using Base::Base;

  /// The default layout of a block of `shape` (DefaultLayouts.h).
  BlockedEncodingAttr layoutFor(ArrayRef<int64_t> shape, int64_t vector,
                                unsigned fast, int64_t rowRun = 1,
                                int64_t minRun = 1) {
    return defaultBlockedLayout(&getContext(), shape, vector, fast, waveSize,
                                numWarps, rowRun, minRun);
  }

  void runOnOperation() override {
    if (waveSize != 32 && waveSize != 64) {
      getOperation().emitError("ktc-assign-layouts: wave-size must be 32 or "
                               "64, got ")
          << waveSize;
      return signalPassFailure();
    }
    if (!isValidNumWarps(numWarps)) {
      getOperation().emitError("ktc-assign-layouts: num-warps must be a "
                               "power of two from 1 to ")
          << kMaxNumWarps << ", got " << numWarps;
      return signalPassFailure();
    }
    getOperation().walk([&](func::FuncOp func) {
      if (!func->hasAttr(KtcDialect::getKernelAttrName()))
        return;
      assign(func);
      if (failed(checkThreadShares(func, numWarps, waveSize)))
        signalPassFailure();
    });
  }

  void assign(func::FuncOp func);
  /// The #ktc.mma layouts of the classes of dot results that `arch` has a
  /// matrix instruction for (every dot of the class agreeing).
  template <typename Classes>
  DenseMap<Value, Attribute> dotLayouts(func::FuncOp func, Classes &classes);
};

} // namespace


template <typename Classes>
DenseMap<Value, Attribute>
KtcAssignLayoutsPass::dotLayouts(func::FuncOp func, Classes &classes) {
  DenseMap<Value, Attribute> layouts;
  DenseSet<Value> mixed; // classes whose dots want different layouts
  func.walk([&](DotOp dot) {
    RankedTensorType a = dot.getA().getType(), b = dot.getB().getType();
    const MmaInstr *instr =
        chooseMmaInstr(arch, a.getElementType(),
                       dot.getInputPrecision() == InputPrecision::TF32,
                       a.getDimSize(0), b.getDimSize(1), a.getDimSize(1),
                       numWarps);
    Value rep = classes.find(dot.getResult());
    Attribute layout;
    if (instr && instr->waveSize == waveSize)
      layout = MmaEncodingAttr::get(
          &getContext(), instr->name,
          mmaWarps(*instr, a.getDimSize(0), b.getDimSize(1), numWarps));
    auto [it, inserted] = layouts.try_emplace(rep, layout);
    if (!inserted && it->second != layout)
      mixed.insert(rep);
  });
  for (Value rep : mixed)
    layouts.erase(rep);
  // Dots on the FMA path keep the class's blocked layout.
  SmallVector<Value> fma;
  for (auto &[rep, layout] : layouts)
    if (!layout)
      fma.push_back(rep);
  for (Value rep : fma)
    layouts.erase(rep);
  return layouts;
}

void KtcAssignLayoutsPass::assign(func::FuncOp func) {
  copyCheapBlocksPerUse(func);
  AxisAnalysis axis(func);
  // Each access's dimension: the one its pointers are most contiguous
  // along (the last on a tie; coalescing), and the widest vector along it.
  // Per shape, the widest along the last dimension (for blocks no access
  // of their own decides).
  struct Access {
    int64_t contiguity = 0;
    int64_t width = 1;
    unsigned dim = 0;
  };
  auto accessOf = [&](Operation *op) {
    auto type = cast<RankedTensorType>(op->getOperand(0).getType());
    AxisInfos info = axis.getAll(op->getOperand(0));
    Access a{0, 1, unsigned(type.getRank() - 1)};
    for (unsigned d = type.getRank(); d-- > 0;)
      if (std::min<int64_t>(info[d].contiguity, type.getDimSize(d)) >
          a.contiguity)
        a = Access{std::min<int64_t>(info[d].contiguity, type.getDimSize(d)),
                   1, d};
    a.width = axis.vectorWidth(op, a.dim);
    return a;
  };
  std::map<SmallVector<int64_t>, int64_t> widths;
  func.walk([&](Operation *op) {
    if (!isa<LoadOp, StoreOp>(op))
      return;
    auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    if (!type)
      return;
    SmallVector<int64_t> shape(type.getShape());
    int64_t &w = widths[shape];
    w = std::max(w, axis.vectorWidth(op));
  });

  // Classes of blocks that share a layout, and the classes sliced from
  // others (LayoutClasses.h).
  LayoutClasses classes;
  SmallVector<std::pair<Value, LayoutDerivation>> derivations =
      joinLayoutClasses(func, classes);

  // Each class's access: its widest. A store whose value's class is read
  // along another dimension than the store writes (a transpose) converts
  // the value; any other store shares its value's layout.
  auto accessesOfClasses = [&] {
    DenseMap<Value, Access> best;
    func.walk([&](Operation *op) {
      if (!isa<LoadOp, StoreOp>(op) ||
          !isa<RankedTensorType>(op->getOperand(0).getType()))
        return;
      Access a = accessOf(op);
      Access &b = best[classes.find(op->getOperand(0))];
      if (a.contiguity > b.contiguity ||
          (a.contiguity == b.contiguity && a.width > b.width))
        b = a;
    });
    return best;
  };
  DenseMap<Value, Access> accesses = accessesOfClasses();
  SmallVector<StoreOp> converted;
  // NVIDIA: a dot's result stored (an epilogue) gets, on the pointers'
  // side, 16-byte runs over the dot's own warp tiles: 4-byte stores become
  // 16-byte ones (the conversion's shared memory reuses a pipelined loop's
  // slots: BufferLifetimes).
  SmallVector<std::pair<DotOp, Attribute>> dotsLaidOut;
  if (StringRef(arch).starts_with("sm_")) {
    DenseMap<Value, Attribute> early = dotLayouts(func, classes);
    func.walk([&](DotOp dot) {
      if (Attribute l = early.lookup(classes.find(dot.getResult())))
        dotsLaidOut.push_back({dot, l});
    });
  }
  SmallVector<std::pair<StoreOp, BlockedEncodingAttr>> epilogues;
  func.walk([&](StoreOp store) {
    if (!isa<RankedTensorType>(store.getValue().getType()))
      return;
    auto p = accesses.find(classes.find(store.getPtr()));
    auto v = accesses.find(classes.find(store.getValue()));
    for (auto [dot, mma] : dotsLaidOut) {
      if (p == accesses.end() || p->second.dim != 1 ||
          classes.find(dot.getResult()) != classes.find(store.getValue()))
        continue;
      if (BlockedEncodingAttr b = warpLocalStoreLayout(
              mma, cast<RankedTensorType>(store.getValue().getType()).getShape(),
              p->second.width)) {
        epilogues.push_back({store, b});
        converted.push_back(store);
        return;
      }
    }
    if (p != accesses.end() && v != accesses.end() &&
        p->second.dim != v->second.dim && p->second.contiguity > 1 &&
        v->second.contiguity > 1) {
      converted.push_back(store);
      return;
    }
    classes.join(store.getPtr(), store.getValue());
  });
  accesses = accessesOfClasses();

  // Every block value, and its class's largest shape and rank.
  SmallVector<Value> blocks;
  DenseMap<Value, SmallVector<int64_t>> classShape;
  auto note = [&](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return;
    blocks.push_back(v);
    SmallVector<int64_t> &shape = classShape[classes.find(v)];
    if (shape.empty() ||
        type.getNumElements() > RankedTensorType::get(shape, type.getElementType())
                                    .getNumElements())
      shape.assign(type.getShape().begin(), type.getShape().end());
  };
  func.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          note(arg);
    for (Value v : op->getResults())
      note(v);
  });

  // Layouts, the highest rank first: a class derived from one of higher
  // rank takes its slice (a reduction's first), the others a blocked one.
  DenseMap<Value, SmallVector<LayoutDerivation>> derived;
  for (auto &[v, d] : derivations)
    derived[classes.find(v)].push_back(d);
  SmallVector<Value> reps;
  for (auto &[rep, shape] : classShape)
    reps.push_back(rep);
  llvm::stable_sort(reps, [&](Value a, Value b) {
    return classShape[a].size() > classShape[b].size();
  });
  DenseMap<Value, Attribute> layouts = dotLayouts(func, classes);
  for (auto [store, b] : epilogues)
    layouts.try_emplace(classes.find(store.getPtr()), b);
  // An AMD matrix instruction's B operand holds a run of consecutive k per
  // lane, but B is read from memory along n. The dot stores it transposed
  // in LDS (k fastest) so that the instruction's reads are vectors; a
  // thread that loads that many rows writes its k runs as vectors too
  // (Triton's in-thread transpose). NVIDIA reads B with ldmatrix.trans.
  DenseMap<Value, int64_t> kRuns;
  func.walk([&](DotOp dot) {
    auto mma = dyn_cast_or_null<MmaEncodingAttr>(
        layouts.lookup(classes.find(dot.getResult())));
    const MmaInstr *instr = mma ? lookupMmaInstr(mma.getInstr()) : nullptr;
    if (!instr || instr->family == MmaInstr::NvMma)
      return;
    int64_t run = 1;
    for (const LinearLayout::Coord &c : instr->bReg)
      if (c[0] == run && c[1] == 0)
        run *= 2;
    int64_t &k = kRuns[classes.find(dot.getB())];
    k = std::max(k, run);
  });
  // Blocks joined into or split along a last dimension of size 2 hold
  // each pair in a thread (PairLayouts.h). A row reshaped from or into
  // them (interleave; a split of a loaded row) takes its own layout first,
  // with even runs along its last dimension, and the pairs its registers.
  DenseSet<Value> pairs;
  for (auto &[v, d] : derivations)
    if (isPairAxis(classShape.lookup(classes.find(d.parent)), d.axis))
      pairs.insert(classes.find(d.parent));
  auto widthOf = [&](ArrayRef<int64_t> shape) {
    auto w = widths.find(SmallVector<int64_t>(shape));
    return w == widths.end() ? int64_t(1) : w->second;
  };
  func.walk([&](ReshapeOp r) {
    Value p = classes.find(r.getSrc()), row = classes.find(r.getResult());
    if (!pairs.count(p))
      std::swap(p, row);
    ArrayRef<int64_t> shape = classShape[row];
    if (!pairs.count(p) || pairs.count(row) || layouts.count(p) ||
        layouts.count(row) || derived.count(p) || derived.count(row) ||
        !isPairRow(classShape[p], shape))
      return;
    unsigned last = shape.size() - 1;
    int64_t width = widthOf(shape);
    if (auto a = accesses.find(row); a != accesses.end()) {
      if (a->second.dim != last)
        return; // the row's accesses want another layout: converted
      width = a->second.width;
    }
    auto layout = layoutFor(shape, width, last, kRuns.lookup(row), 2);
    if (BlockedEncodingAttr split = splitRowIntoPairs(layout)) {
      layouts[row] = layout;
      layouts[p] = split;
    }
  });
  for (Value rep : reps) {
    if (layouts.count(rep))
      continue; // a dot's matrix-instruction layout, or a pair's row
    ArrayRef<int64_t> shape = classShape[rep];
    Attribute layout;
    auto it = derived.find(rep);
    if (it != derived.end()) {
      const LayoutDerivation *pick = &it->second.front();
      for (const LayoutDerivation &d : it->second)
        if (d.fromReduce) {
          pick = &d;
          break;
        }
      Attribute parent = layouts.lookup(classes.find(pick->parent));
      if (parent && getLayoutRank(parent) == shape.size() + 1)
        layout = SliceEncodingAttr::get(&getContext(), pick->axis, parent);
    }
    auto a = accesses.find(rep);
    if (!layout && pairs.count(rep) &&
        (a == accesses.end() || a->second.dim + 1 == shape.size())) {
      // The pairs' leading dimensions as a block of their own.
      ArrayRef<int64_t> lead = shape.drop_back();
      layout = appendPairDim(layoutFor(lead, widthOf(lead), lead.size() - 1));
    }
    if (!layout) {
      if (a != accesses.end()) {
        layout = layoutFor(shape, a->second.width, a->second.dim,
                           kRuns.lookup(rep));
      } else {
        layout = layoutFor(shape, widthOf(shape), shape.size() - 1);
      }
    }
    layouts[rep] = layout;
  }

  // Types, then conversions where a value's layout is not what its use
  // needs.
  auto withLayout = [](Type t, Attribute layout) -> Type {
    auto tensor = cast<RankedTensorType>(t);
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                 layout);
  };
  for (Value v : blocks)
    v.setType(withLayout(v.getType(), layouts[classes.find(v)]));
  func.walk([&](Operation *op) {
    // Constants keep their value in the new type.
    if (auto c = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
        if (dense.getType() != c.getType())
          c.setValueAttr(dense.reshape(cast<ShapedType>(c.getType())));
  });
  func.walk([&](Operation *op) {
    OpBuilder b(op);
    if (auto e = dyn_cast<ExpandDimsOp>(op)) {
      Attribute want = SliceEncodingAttr::get(
          &getContext(), e.getAxis(), e.getType().getEncoding());
      Value src = e.getSrc();
      if (cast<RankedTensorType>(src.getType()).getEncoding() != want)
        e.getSrcMutable().assign(ConvertLayoutOp::create(
            b, e.getLoc(), withLayout(src.getType(), want), src));
    } else if (isa<ReduceOp, ReduceWithOp>(op)) {
      // Each result in the slice of its source's layout (ktc.reduce_with:
      // of the blocks' one layout), converted after where it is not.
      // (A 1-D source reduces to scalars: no slice of it exists.)
      auto src = cast<RankedTensorType>(op->getOperand(0).getType());
      int32_t axis = cast<IntegerAttr>(op->getAttr("axis")).getInt();
      b.setInsertionPointAfter(op);
      for (Value v : op->getResults()) {
        auto result = dyn_cast<RankedTensorType>(v.getType());
        if (!result)
          continue;
        Attribute want =
            SliceEncodingAttr::get(&getContext(), axis, src.getEncoding());
        if (result.getEncoding() == want)
          continue;
        v.setType(withLayout(result, want));
        auto convert = ConvertLayoutOp::create(b, op->getLoc(), result, v);
        v.replaceAllUsesExcept(convert, convert);
      }
    }
  });
  // A dot's operands keep their own layouts: the dot stages them through
  // shared memory itself, reading each instruction's registers just before
  // it (lib/Conversion/DotOpToLLVM.cpp).
  for (StoreOp store : converted) {
    OpBuilder b(store);
    Attribute want =
        cast<RankedTensorType>(store.getPtr().getType()).getEncoding();
    Value value = store.getValue();
    store.getValueMutable().assign(ConvertLayoutOp::create(
        b, store.getLoc(), withLayout(value.getType(), want), value));
  }
}

