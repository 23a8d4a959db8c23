//===- MmaTableTest.cpp - AMD matrix instructions' layouts vs their ISA ----===//
//
// dialect/MmaLayouts.cpp writes each AMD matrix instruction's operand
// placement as linear-map bases, and DotOpToLLVM.cpp passes B as the
// instruction's A and A as its B where the entry says swapAB (C^T, so that
// a lane holds a row's consecutive n). Here each instruction is modelled
// from the ISA's placement written as plain index formulas (RDNA3, RDNA4
// and gfx1250 "Wave Matrix Multiply Accumulate" operand tables; MFMA as
// AMD's Matrix Instruction Calculator prints it): A and B (integers, exact
// in any order) are spread over lanes and registers by the table's
// layouts, handed to the modelled instruction (swapped where the table
// says), and every register of its result must hold the element of A @ B
// the table's C layout names. gfx12's and gfx1250's WMMA (no AMD GPU or
// emulator of them here) are checked only this way; MFMA, which
// the gfx942 emulator runs, is the control.
//
//===----------------------------------------------------------------------===//

#include "dialect/MmaLayouts.h"

#include <gtest/gtest.h>

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <climits>
#include <functional>
#include <random>

using namespace mlir::ktc;

namespace {

/// Where the hardware puts an operand's register `r` of lane `l`: (row,
/// column) of its A (m x k), B (k x n) or D (m x n).
using Place = std::function<std::pair<int, int>(int l, int r)>;

struct Isa {
  const char *name;
  int m, n, k, lanes, aRegs, cRegs;
  Place a, b, d;
};

std::vector<Isa> isas() {
  return {
      // RDNA3: lanes l and l + 16 hold A row l % 16 (B column), all of K;
      // D row 2 j + l / 16, column l % 16.
      {"wmma16x16x16_f16", 16, 16, 16, 32, 16, 8,
       [](int l, int r) { return std::pair{l % 16, r}; },
       [](int l, int r) { return std::pair{r, l % 16}; },
       [](int l, int j) { return std::pair{2 * j + l / 16, l % 16}; }},
      // RDNA4: lane l holds A row l % 16, K 8 (l / 16) + r; D row
      // 8 (l / 16) + j, column l % 16.
      {"wmma16x16x16_f16_gfx12", 16, 16, 16, 32, 8, 8,
       [](int l, int r) { return std::pair{l % 16, 8 * (l / 16) + r}; },
       [](int l, int r) { return std::pair{8 * (l / 16) + r, l % 16}; },
       [](int l, int j) { return std::pair{8 * (l / 16) + j, l % 16}; }},
      {"wmma16x16x16_bf16_gfx12", 16, 16, 16, 32, 8, 8,
       [](int l, int r) { return std::pair{l % 16, 8 * (l / 16) + r}; },
       [](int l, int r) { return std::pair{8 * (l / 16) + r, l % 16}; },
       [](int l, int j) { return std::pair{8 * (l / 16) + j, l % 16}; }},
      // gfx1250, 16-bit A 16x32: registers 0-3 (halves 0-7) hold K
      // 8 (l / 16) + 0..7, registers 4-7 K 16 + 8 (l / 16) + 0..7.
      {"wmma16x16x32_f16_gfx1250", 16, 16, 32, 32, 16, 8,
       [](int l, int r) {
         return std::pair{l % 16, 16 * (r / 8) + 8 * (l / 16) + r % 8};
       },
       [](int l, int r) {
         return std::pair{16 * (r / 8) + 8 * (l / 16) + r % 8, l % 16};
       },
       [](int l, int j) { return std::pair{8 * (l / 16) + j, l % 16}; }},
      {"wmma16x16x32_bf16_gfx1250", 16, 16, 32, 32, 16, 8,
       [](int l, int r) {
         return std::pair{l % 16, 16 * (r / 8) + 8 * (l / 16) + r % 8};
       },
       [](int l, int r) {
         return std::pair{16 * (r / 8) + 8 * (l / 16) + r % 8, l % 16};
       },
       [](int l, int j) { return std::pair{8 * (l / 16) + j, l % 16}; }},
      // MFMA 32x32x8 (wave64): A row l % 32, K 4 (l / 32) + r; D row
      // 8 (j / 4) + 4 (l / 32) + j % 4, column l % 32.
      {"mfma32x32x8_f16", 32, 32, 8, 64, 4, 16,
       [](int l, int r) { return std::pair{l % 32, 4 * (l / 32) + r}; },
       [](int l, int r) { return std::pair{4 * (l / 32) + r, l % 32}; },
       [](int l, int j) {
         return std::pair{8 * (j / 4) + 4 * (l / 32) + j % 4, l % 32};
       }},
  };
}

TEST(MmaTable, AmdLayoutsMatchTheIsaWithSwappedOperands) {
  std::mt19937 rng(18);
  std::uniform_int_distribution<int> small(-8, 8);
  for (const Isa &isa : isas()) {
    SCOPED_TRACE(isa.name);
    const MmaInstr *instr = lookupMmaInstr(isa.name);
    ASSERT_NE(instr, nullptr);
    ASSERT_EQ(int(instr->m), isa.m);
    ASSERT_EQ(int(instr->n), isa.n);
    ASSERT_EQ(int(instr->k), isa.k);
    ASSERT_EQ(int(instr->waveSize), isa.lanes);
    ASSERT_EQ(instr->aRegisters(), isa.aRegs);
    ASSERT_EQ(instr->bRegisters(), isa.aRegs);
    ASSERT_EQ(instr->cRegisters(), isa.cRegs);
    // One tile, one wave: the table's layouts of A, B and C.
    int M = isa.m, N = isa.n, K = isa.k;
    LinearLayout la = mmaLayout(*instr, {1, 1}, 0, {M, K}),
                 lb = mmaLayout(*instr, {1, 1}, 1, {K, N}),
                 lc = mmaLayout(*instr, {1, 1}, -1, {M, N});
    std::vector<std::vector<long>> A(M, std::vector<long>(K)),
        B(K, std::vector<long>(N));
    for (auto &row : A)
      for (long &x : row)
        x = small(rng);
    for (auto &row : B)
      for (long &x : row)
        x = small(rng);
    // The registers each lane gives the instruction: the table's A and B
    // (B first where it swaps them).
    auto regs = [&](const LinearLayout &l, auto value) {
      std::vector<std::vector<long>> v(isa.lanes);
      for (int lane = 0; lane < isa.lanes; ++lane)
        for (int r = 0; r < isa.aRegs; ++r) {
          LinearLayout::Coord c = l.apply(r, lane, 0);
          v[lane].push_back(value(c[0], c[1]));
        }
      return v;
    };
    auto ra = regs(la, [&](int i, int j) { return A[i][j]; });
    auto rb = regs(lb, [&](int i, int j) { return B[i][j]; });
    if (instr->swapAB)
      std::swap(ra, rb);
    // The instruction as the ISA places its operands: X (m x k) @ Y (k x n).
    int hm = isa.m, hn = isa.n;
    std::vector<std::vector<long>> X(hm, std::vector<long>(K, LONG_MIN)),
        Y(K, std::vector<long>(hn, LONG_MIN));
    for (int lane = 0; lane < isa.lanes; ++lane)
      for (int r = 0; r < isa.aRegs; ++r) {
        auto [i, k] = isa.a(lane, r);
        auto [k2, j] = isa.b(lane, r);
        // Lanes that hold the same element (RDNA3) must agree.
        ASSERT_TRUE(X[i][k] == LONG_MIN || X[i][k] == ra[lane][r]);
        ASSERT_TRUE(Y[k2][j] == LONG_MIN || Y[k2][j] == rb[lane][r]);
        X[i][k] = ra[lane][r];
        Y[k2][j] = rb[lane][r];
      }
    for (int lane = 0; lane < isa.lanes; ++lane)
      for (int r = 0; r < isa.cRegs; ++r) {
        auto [i, j] = isa.d(lane, r);
        long got = 0;
        for (int k = 0; k < K; ++k)
          got += X[i][k] * Y[k][j];
        // What the table says register r of this lane holds.
        LinearLayout::Coord c = lc.apply(r, lane, 0);
        long want = 0;
        for (int k = 0; k < K; ++k)
          want += A[c[0]][k] * B[k][c[1]];
        ASSERT_EQ(got, want) << "lane " << lane << ", C register " << r
                             << " (" << c[0] << ", " << c[1] << ")";
      }
  }
}

TEST(MmaTable, Gfx1250TakesItsWmmaWhereKAllows) {
  mlir::MLIRContext ctx;
  mlir::Builder b(&ctx);
  for (const char *arch : {"gfx1250", "gfx1251"}) {
    const MmaInstr *f16 =
        chooseMmaInstr(arch, b.getF16Type(), false, 64, 64, 32, 4);
    ASSERT_NE(f16, nullptr) << arch;
    EXPECT_EQ(f16->name, "wmma16x16x32_f16_gfx1250");
    const MmaInstr *bf16 =
        chooseMmaInstr(arch, b.getBF16Type(), false, 16, 16, 64, 4);
    ASSERT_NE(bf16, nullptr) << arch;
    EXPECT_EQ(bf16->name, "wmma16x16x32_bf16_gfx1250");
    // No 16x16x16 form on gfx1250: K 16 takes the FMA path.
    EXPECT_EQ(chooseMmaInstr(arch, b.getF16Type(), false, 64, 64, 16, 4),
              nullptr);
  }
}

} // namespace
