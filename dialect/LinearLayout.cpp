//===- LinearLayout.cpp - tile layouts as linear maps over GF(2) ----------===//

#include "dialect/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <map>

using namespace mlir;
using namespace mlir::ktc;

using Coord = LinearLayout::Coord;

static Coord unit(unsigned rank, unsigned dim, int64_t value) {
  Coord c(rank, 0);
  c[dim] = int32_t(value);
  return c;
}

static bool isZero(ArrayRef<int32_t> c) {
  return llvm::all_of(c, [](int32_t v) { return v == 0; });
}

LinearLayout LinearLayout::blocked(ArrayRef<int64_t> shape,
                                   ArrayRef<unsigned> sizePerThread,
                                   ArrayRef<unsigned> threadsPerWarp,
                                   ArrayRef<unsigned> warpsPerCTA,
                                   ArrayRef<unsigned> order) {
  unsigned rank = shape.size();
  std::array<SmallVector<Coord>, kNumIns> bases;
  // Bits of `count` copies along `dim`, starting at stride `from`: bases
  // from, 2 from, 4 from, ... wrapped to the shape (zero past it).
  auto add = [&](In in, unsigned dim, int64_t from, int64_t count) {
    for (int64_t s = from; s < from * count; s *= 2)
      bases[in].push_back(unit(rank, dim, s < shape[dim] ? s : 0));
  };
  for (unsigned d : order)
    add(Register, d, 1, sizePerThread[d]);
  for (unsigned d : order)
    add(Lane, d, sizePerThread[d], threadsPerWarp[d]);
  for (unsigned d : order)
    add(Warp, d, int64_t(sizePerThread[d]) * threadsPerWarp[d],
        warpsPerCTA[d]);
  // Repeats of the tile, fastest dimension first.
  for (unsigned d : order) {
    int64_t tile =
        int64_t(sizePerThread[d]) * threadsPerWarp[d] * warpsPerCTA[d];
    if (shape[d] > tile)
      add(Register, d, tile, shape[d] / tile);
  }
  return LinearLayout(shape, std::move(bases)).canonical();
}

int64_t LinearLayout::numElements() const {
  int64_t n = 1;
  for (int64_t s : shape_)
    n *= s;
  return n;
}

Coord LinearLayout::applyIn(In in, int64_t index) const {
  Coord c(rank(), 0);
  for (unsigned i = 0; i < numBits(in); ++i)
    if (index >> i & 1)
      for (unsigned d = 0; d < rank(); ++d)
        c[d] ^= bases_[in][i][d];
  return c;
}

Coord LinearLayout::apply(int64_t reg, int64_t lane, int64_t warp) const {
  Coord c = applyIn(Register, reg);
  Coord l = applyIn(Lane, lane), w = applyIn(Warp, warp);
  for (unsigned d = 0; d < rank(); ++d)
    c[d] ^= l[d] ^ w[d];
  return c;
}

LinearLayout LinearLayout::dropDim(unsigned dim) const {
  SmallVector<int64_t, 3> shape(shape_);
  shape.erase(shape.begin() + dim);
  std::array<SmallVector<Coord>, kNumIns> bases;
  for (unsigned in = 0; in < kNumIns; ++in)
    for (const Coord &b : bases_[in]) {
      Coord c(b);
      c.erase(c.begin() + dim);
      bases[in].push_back(std::move(c));
    }
  return LinearLayout(shape, std::move(bases));
}

LinearLayout LinearLayout::insertDim(unsigned dim) const {
  SmallVector<int64_t, 3> shape(shape_);
  shape.insert(shape.begin() + dim, 1);
  std::array<SmallVector<Coord>, kNumIns> bases;
  for (unsigned in = 0; in < kNumIns; ++in)
    for (const Coord &b : bases_[in]) {
      Coord c(b);
      c.insert(c.begin() + dim, 0);
      bases[in].push_back(std::move(c));
    }
  return LinearLayout(shape, std::move(bases));
}

LinearLayout LinearLayout::wrapTo(ArrayRef<int64_t> shape) const {
  std::array<SmallVector<Coord>, kNumIns> bases;
  for (unsigned in = 0; in < kNumIns; ++in)
    for (const Coord &b : bases_[in]) {
      Coord c(b);
      for (unsigned d = 0; d < rank(); ++d)
        c[d] &= int32_t(shape[d] - 1);
      bases[in].push_back(std::move(c));
    }
  return LinearLayout(shape, std::move(bases));
}

LinearLayout LinearLayout::permute(ArrayRef<int32_t> perm) const {
  SmallVector<int64_t, 3> shape;
  for (int32_t p : perm)
    shape.push_back(shape_[p]);
  std::array<SmallVector<Coord>, kNumIns> bases;
  for (unsigned in = 0; in < kNumIns; ++in)
    for (const Coord &b : bases_[in]) {
      Coord c;
      for (int32_t p : perm)
        c.push_back(b[p]);
      bases[in].push_back(std::move(c));
    }
  return LinearLayout(shape, std::move(bases));
}

LinearLayout LinearLayout::reshape(ArrayRef<int64_t> shape) const {
  auto flatten = [&](const Coord &c) {
    int64_t index = 0;
    for (unsigned d = 0; d < rank(); ++d)
      index = index * shape_[d] + c[d];
    return index;
  };
  auto split = [&](int64_t index) {
    Coord c(shape.size(), 0);
    for (unsigned d = shape.size(); d-- > 0;) {
      c[d] = int32_t(index % shape[d]);
      index /= shape[d];
    }
    return c;
  };
  std::array<SmallVector<Coord>, kNumIns> bases;
  for (unsigned in = 0; in < kNumIns; ++in)
    for (const Coord &b : bases_[in])
      bases[in].push_back(split(flatten(b)));
  return LinearLayout(shape, std::move(bases));
}

LinearLayout LinearLayout::canonical() const {
  LinearLayout out = *this;
  llvm::erase_if(out.bases_[Register],
                 [](const Coord &c) { return isZero(c); });
  return out;
}

bool LinearLayout::isDisjoint() const {
  SmallVector<int32_t, 3> seen(rank(), 0);
  for (unsigned in = 0; in < kNumIns; ++in)
    for (const Coord &b : bases_[in]) {
      unsigned nonzero = 0;
      for (unsigned d = 0; d < rank(); ++d) {
        if (!b[d])
          continue;
        if (++nonzero > 1 || !llvm::isPowerOf2_32(b[d]) || (seen[d] & b[d]))
          return false;
        seen[d] |= b[d];
      }
    }
  return true;
}

int64_t LinearLayout::contiguousRegisters(unsigned dim) const {
  int64_t run = 1;
  for (const Coord &b : bases_[Register]) {
    if (b != unit(rank(), dim, run))
      break;
    run *= 2;
  }
  return run;
}

unsigned LinearLayout::fastestDim() const {
  for (unsigned d = 0; d < rank(); ++d)
    if (numBits(Register) && bases_[Register][0] == unit(rank(), d, 1))
      return d;
  return rank() - 1;
}

uint64_t LinearLayout::bitsAlong(In in, unsigned dim, bool *pure) const {
  uint64_t mask = 0;
  if (pure)
    *pure = true;
  for (unsigned i = 0; i < numBits(in); ++i) {
    const Coord &b = bases_[in][i];
    if (!b[dim])
      continue;
    mask |= uint64_t(1) << i;
    if (pure)
      for (unsigned d = 0; d < rank(); ++d)
        if (d != dim && b[d])
          *pure = false;
  }
  return mask;
}

uint64_t LinearLayout::zeroBits(In in) const {
  uint64_t mask = 0;
  for (unsigned i = 0; i < numBits(in); ++i)
    if (isZero(bases_[in][i]))
      mask |= uint64_t(1) << i;
  return mask;
}

static void printCoord(llvm::raw_ostream &os, ArrayRef<int32_t> c) {
  os << '[';
  llvm::interleaveComma(c, os);
  os << ']';
}

std::string LinearLayout::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  const char *names[] = {"register", "lane", "warp"};
  os << "shape [";
  llvm::interleaveComma(shape_, os);
  os << ']';
  for (unsigned in = 0; in < kNumIns; ++in) {
    os << ", " << names[in] << " = [";
    llvm::interleaveComma(bases_[in], os,
                          [&](const Coord &c) { printCoord(os, c); });
    os << ']';
  }
  return s;
}

std::string LinearLayout::table() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  std::map<SmallVector<Coord>, std::string> seen;
  for (int64_t w = 0; w < numWarps(); ++w)
    for (int64_t l = 0; l < numLanes(); ++l) {
      SmallVector<Coord> row;
      for (int64_t r = 0; r < numRegisters(); ++r)
        row.push_back(apply(r, l, w));
      std::string name =
          "w" + std::to_string(w) + " l" + std::to_string(l);
      os << name << ":";
      for (const Coord &c : row) {
        os << ' ';
        llvm::interleave(c, os, ",");
      }
      auto [it, inserted] = seen.try_emplace(row, name);
      if (!inserted)
        os << "  (= " << it->second << ")";
      os << '\n';
    }
  return s;
}
