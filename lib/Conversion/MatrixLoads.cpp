//===- MatrixLoads.cpp - reading shared memory as 8x8 matrices -------------===//
//
// See MatrixLoads.h.
//
//===----------------------------------------------------------------------===//

#include "MatrixLoads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ktc;

using Coord = LinearLayout::Coord;

std::optional<MatrixLoadPlan>
mlir::ktc::planMatrixLoads(const LinearLayout &read, Type element) {
  if (read.rank() != 2 || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() != 16 || read.numBits(LinearLayout::Lane) != 5 ||
      read.numRegisters() < 2)
    return std::nullopt;
  ArrayRef<Coord> reg = read.bases(LinearLayout::Register),
                  lane = read.bases(LinearLayout::Lane),
                  warp = read.bases(LinearLayout::Warp);
  auto is = [](const Coord &c, int32_t r, int32_t col) {
    return c[0] == r && c[1] == col;
  };
  MatrixLoadPlan plan;
  // Row t / 4, columns 2 (t % 4) + {0, 1}; or its transpose.
  if (is(reg[0], 0, 1) && is(lane[0], 0, 2) && is(lane[1], 0, 4) &&
      is(lane[2], 1, 0) && is(lane[3], 2, 0) && is(lane[4], 4, 0))
    plan.trans = false;
  else if (is(reg[0], 1, 0) && is(lane[0], 2, 0) && is(lane[1], 4, 0) &&
           is(lane[2], 0, 1) && is(lane[3], 0, 2) && is(lane[4], 0, 4))
    plan.trans = true;
  else
    return std::nullopt;
  // Every other basis keeps a matrix's columns 8 contiguous elements.
  for (const Coord &c : reg.drop_front())
    if (c[1] % 8)
      return std::nullopt;
  for (const Coord &c : warp)
    if (c[1] % 8)
      return std::nullopt;
  plan.num = std::min<int64_t>(4, read.numRegisters() / 2);
  unsigned skip = llvm::Log2_32(2 * plan.num); // registers within a call
  std::array<SmallVector<Coord>, LinearLayout::kNumIns> bases;
  bases[LinearLayout::Register].assign(reg.begin() + skip, reg.end());
  Coord zero{0, 0};
  bases[LinearLayout::Lane] = {Coord{1, 0}, Coord{2, 0}, Coord{4, 0},
                               plan.num >= 2 ? reg[1] : zero,
                               plan.num >= 4 ? reg[2] : zero};
  bases[LinearLayout::Warp].assign(warp.begin(), warp.end());
  plan.address = LinearLayout(read.shape(), std::move(bases));
  return plan;
}

void mlir::ktc::loadMatrixCall(OpBuilder &b, Location loc,
                               const LoweringState &state,
                               const MatrixLoadPlan &plan,
                               const TileCoords &rows,
                               const SharedLayout &shared, Type element,
                               int64_t offset, int64_t c,
                               SmallVectorImpl<Value> &out, Value base) {
  auto pair = VectorType::get({2}, element);
  Value index = rows.linear(b, loc, c, shared);
  if (offset)
    index = arith::AddIOp::create(b, loc, index, i32Const(b, loc, offset));
  if (base)
    index = arith::AddIOp::create(b, loc, index, base);
  Value at = sharedElement(b, loc, state, element, index);
  for (Value word :
       state.target->loadMatrices(b, loc, at, plan.num, plan.trans)) {
    Value v = LLVM::BitcastOp::create(b, loc, pair, word);
    for (int i = 0; i < 2; ++i)
      out.push_back(
          LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, i)));
  }
}
