//===- MmaLayouts.cpp - the matrix instructions and their layouts ----------===//
//
// The per-instruction maps below are the ISA documents' operand tables
// written as bases (PTX ISA "Matrix Fragments for mma.m16n8k16"; AMD's
// "AMD Matrix Instruction Calculator" output for MFMA; RDNA3/RDNA4 ISA
// "Wave Matrix Multiply Accumulate" for WMMA). Each entry says, for
// register bit i or lane bit i, which (row, column) of the tile that bit
// moves to.
//
//===----------------------------------------------------------------------===//

#include "dialect/MmaLayouts.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktc;

using Coord = LinearLayout::Coord;
using Bases = SmallVector<Coord>;

namespace {

Bases rows(std::initializer_list<int32_t> steps) { // along dimension 0
  Bases b;
  for (int32_t s : steps)
    b.push_back({s, 0});
  return b;
}
Bases cols(std::initializer_list<int32_t> steps) { // along dimension 1
  Bases b;
  for (int32_t s : steps)
    b.push_back({0, s});
  return b;
}
Bases operator+(Bases a, const Bases &b) {
  a.append(b.begin(), b.end());
  return a;
}

std::vector<MmaInstr> makeTable() {
  std::vector<MmaInstr> t;
  // mma.sync.m16n8k16 (sm_80+): a thread of group g = lane / 4, index
  // t = lane % 4 holds A (g | g+8, 2t + {0,1} | +8), B (2t + {0,1} | +8, g)
  // and C (g | g+8, 2t + {0,1}).
  for (bool bf16 : {false, true}) {
    MmaInstr i;
    i.name = bf16 ? "mma16816_bf16" : "mma16816_f16";
    i.family = MmaInstr::NvMma;
    i.m = 16, i.n = 8, i.k = 16, i.waveSize = 32, i.bf16 = bf16;
    i.intrinsic = bf16 ? "llvm.nvvm.mma.m16n8k16.row.col.bf16"
                       : "llvm.nvvm.mma.m16n8k16.row.col.f32.f32";
    i.aReg = Bases{{0, 1}, {8, 0}, {0, 8}};
    i.aLane = cols({2, 4}) + rows({1, 2, 4});
    i.bReg = rows({1, 8});
    i.bLane = rows({2, 4}) + cols({1, 2, 4});
    i.cReg = Bases{{0, 1}, {8, 0}};
    i.cLane = cols({2, 4}) + rows({1, 2, 4});
    t.push_back(i);
  }
  // mma.sync.m16n8k8 tf32: A (g | g+8, t | t+4), B (t | t+4, g), C as
  // m16n8k16's; one 32-bit element a register.
  {
    MmaInstr i;
    i.name = "mma1688_tf32";
    i.family = MmaInstr::NvMma;
    i.m = 16, i.n = 8, i.k = 8, i.waveSize = 32, i.tf32 = true;
    i.intrinsic = "llvm.nvvm.mma.m16n8k8.row.col.tf32";
    i.aReg = Bases{{8, 0}, {0, 4}};
    i.aLane = cols({1, 2}) + rows({1, 2, 4});
    i.bReg = rows({4});
    i.bLane = rows({1, 2}) + cols({1, 2, 4});
    i.cReg = Bases{{0, 1}, {8, 0}};
    i.cLane = cols({2, 4}) + rows({1, 2, 4});
    t.push_back(i);
  }
  // mma.sync.m16n8k32 s8 (sm_80+): four i8 a 32-bit register; A (g | g+8,
  // 4t + {0..3} | +16), B (4t + {0..3} | +16, g), C (i32) as m16n8k16's.
  {
    MmaInstr i;
    i.name = "mma16832_s8";
    i.family = MmaInstr::NvMma;
    i.m = 16, i.n = 8, i.k = 32, i.waveSize = 32, i.int8 = true;
    i.intrinsic = "llvm.nvvm.mma.m16n8k32.row.col.s8";
    i.aReg = Bases{{0, 1}, {0, 2}, {8, 0}, {0, 16}};
    i.aLane = cols({4, 8}) + rows({1, 2, 4});
    i.bReg = rows({1, 2, 16});
    i.bLane = rows({4, 8}) + cols({1, 2, 4});
    i.cReg = Bases{{0, 1}, {8, 0}};
    i.cLane = cols({2, 4}) + rows({1, 2, 4});
    t.push_back(i);
  }
  // wgmma.m64nNk16 (sm_90a): the 4 warps of a warpgroup each hold 16 rows
  // of C as mma.sync's m16n8 tile, repeated along N: register 4 j + i of
  // lane (g, t) is row g (+8 for i >= 2), column 8 j + 2 t + i % 2. A and B
  // are read from shared memory through descriptors; their layouts here
  // (A per warp as mma.sync's, B replicated over the warps) are what the
  // operands are staged from when they do not come from a buffer slot.
  static llvm::BumpPtrAllocator storage;
  static llvm::StringSaver saver(storage);
  for (int32_t n : {16, 32, 64, 128, 256})
    for (bool bf16 : {false, true}) {
      MmaInstr i;
      std::string type = bf16 ? "bf16" : "f16";
      i.name = saver.save("wgmma64x" + std::to_string(n) + "x16_" + type);
      i.family = MmaInstr::NvWgmma;
      i.m = 64, i.n = unsigned(n), i.k = 16, i.waveSize = 32, i.bf16 = bf16;
      i.waves = 4;
      i.intrinsic = saver.save("wgmma.mma_async.sync.aligned.m64n" +
                               std::to_string(n) + "k16.f32." + type + "." +
                               type);
      Bases alongN;
      for (int32_t s = 8; s < n; s *= 2)
        alongN.push_back({0, s});
      i.aReg = Bases{{0, 1}, {8, 0}, {0, 8}};
      i.aLane = cols({2, 4}) + rows({1, 2, 4});
      i.aWarp = rows({16, 32});
      i.bReg = rows({1, 8}) + alongN;
      i.bLane = rows({2, 4}) + cols({1, 2, 4});
      i.bWarp = Bases{{0, 0}, {0, 0}};
      i.cReg = Bases{{0, 1}, {8, 0}} + alongN;
      i.cLane = cols({2, 4}) + rows({1, 2, 4});
      i.cWarp = rows({16, 32});
      t.push_back(i);
    }
  // MFMA (wave64). 32x32xK: lane l holds A row l % 32, columns
  // K/2 * (l / 32) + {0 .. K/2-1}; B likewise by column; C column l % 32,
  // rows 8 g + 4 (l / 32) + j in register 4 g + j. 16x16xK: rows (columns)
  // l % 16, K/4 * (l / 16) + ...; C rows 4 (l / 16) + j.
  struct Mfma {
    const char *name, *intrinsic;
    unsigned m, k;
    bool bf16, int8 = false;
  };
  for (Mfma f : {Mfma{"mfma32x32x8_f16", "llvm.amdgcn.mfma.f32.32x32x8f16",
                      32, 8, false},
                 Mfma{"mfma32x32x8_bf16",
                      "llvm.amdgcn.mfma.f32.32x32x8bf16.1k", 32, 8, true},
                 Mfma{"mfma16x16x16_f16", "llvm.amdgcn.mfma.f32.16x16x16f16",
                      16, 16, false},
                 Mfma{"mfma16x16x16_bf16",
                      "llvm.amdgcn.mfma.f32.16x16x16bf16.1k", 16, 16, true},
                 Mfma{"mfma32x32x16_f16", "llvm.amdgcn.mfma.f32.32x32x16.f16",
                      32, 16, false},
                 Mfma{"mfma32x32x16_bf16",
                      "llvm.amdgcn.mfma.f32.32x32x16.bf16", 32, 16, true},
                 Mfma{"mfma16x16x32_f16", "llvm.amdgcn.mfma.f32.16x16x32.f16",
                      16, 32, false},
                 Mfma{"mfma16x16x32_bf16",
                      "llvm.amdgcn.mfma.f32.16x16x32.bf16", 16, 32, true},
                 // i8 -> i32: gfx90a's (4 i8 a lane; not on gfx940+),
                 // gfx942's (8; gfx950 too), gfx950's (16); each lane's k
                 // consecutive, as above.
                 Mfma{"mfma32x32x8_i8", "llvm.amdgcn.mfma.i32.32x32x8i8", 32,
                      8, false, true},
                 Mfma{"mfma16x16x16_i8", "llvm.amdgcn.mfma.i32.16x16x16i8",
                      16, 16, false, true},
                 Mfma{"mfma32x32x16_i8", "llvm.amdgcn.mfma.i32.32x32x16.i8",
                      32, 16, false, true},
                 Mfma{"mfma16x16x32_i8", "llvm.amdgcn.mfma.i32.16x16x32.i8",
                      16, 32, false, true},
                 Mfma{"mfma32x32x32_i8", "llvm.amdgcn.mfma.i32.32x32x32.i8",
                      32, 32, false, true},
                 Mfma{"mfma16x16x64_i8", "llvm.amdgcn.mfma.i32.16x16x64.i8",
                      16, 64, false, true}}) {
    MmaInstr i;
    i.name = f.name;
    i.family = MmaInstr::AmdMfma;
    i.m = i.n = f.m, i.k = f.k, i.waveSize = 64, i.bf16 = f.bf16;
    i.int8 = f.int8;
    i.intrinsic = f.intrinsic;
    unsigned groups = 64 / f.m;   // lane groups along K
    unsigned per = f.k / groups;  // consecutive K a lane holds
    Bases inK, lanesOut, lanesK;
    for (unsigned s = 1; s < per; s *= 2)
      inK.push_back({int32_t(s), 0});
    for (unsigned s = 1; s < f.m; s *= 2)
      lanesOut.push_back({int32_t(s), 0});
    for (unsigned s = per; s < f.k; s *= 2)
      lanesK.push_back({int32_t(s), 0});
    auto swap = [](Bases b) { // (k, x) -> (x, k)
      for (Coord &c : b)
        std::swap(c[0], c[1]);
      return b;
    };
    i.aReg = swap(inK);
    i.aLane = lanesOut + swap(lanesK);
    i.bReg = inK;
    i.bLane = swap(lanesOut) + lanesK;
    // C transposed (Triton's isTransposed): the instruction is given B as
    // its A and A as its B, so it computes C^T, and a lane holds runs of 4
    // consecutive n (rows of C^T) instead of m: vector stores of C along
    // n. A and B keep their layouts (MFMA's A and B are alike).
    i.swapAB = true;
    if (f.m == 32) {
      i.cReg = cols({1, 2, 8, 16});
      i.cLane = rows({1, 2, 4, 8, 16}) + cols({4});
    } else {
      i.cReg = cols({1, 2});
      i.cLane = rows({1, 2, 4, 8}) + cols({4, 8});
    }
    t.push_back(i);
  }
  // WMMA 16x16x16 (wave32). RDNA3 (gfx11): lanes l and l + 16 both hold
  // A row l % 16 (B column), all 16 of K; C row 2 j + l / 16, column
  // l % 16 in register j. RDNA4 (gfx12): lane l holds A row l % 16, K
  // 8 (l / 16) + {0 .. 7}; the instruction's C row 8 (l / 16) + j, column
  // l % 16 (C^T here: swapAB below).
  // iu8 (i8 -> i32, signed operands): the same placements, 16 (gfx11) or
  // 8 (gfx12) i8 a lane in 32-bit registers.
  for (bool gfx12 : {false, true})
    for (int type : {0, 1, 2}) { // f16, bf16, i8
      bool bf16 = type == 1, int8 = type == 2;
      static const char *names[2][3] = {
          {"wmma16x16x16_f16", "wmma16x16x16_bf16", "wmma16x16x16_i8"},
          {"wmma16x16x16_f16_gfx12", "wmma16x16x16_bf16_gfx12",
           "wmma16x16x16_i8_gfx12"}};
      MmaInstr i;
      i.name = names[gfx12][type];
      i.family = MmaInstr::AmdWmma;
      i.m = i.n = i.k = 16, i.waveSize = 32, i.bf16 = bf16, i.int8 = int8;
      i.intrinsic = int8   ? "llvm.amdgcn.wmma.i32.16x16x16.iu8"
                    : bf16 ? "llvm.amdgcn.wmma.f32.16x16x16.bf16"
                           : "llvm.amdgcn.wmma.f32.16x16x16.f16";
      if (!gfx12) {
        i.aReg = cols({1, 2, 4, 8});
        i.aLane = rows({1, 2, 4, 8}) + Bases{{0, 0}};
        i.bReg = rows({1, 2, 4, 8});
        i.bLane = cols({1, 2, 4, 8}) + Bases{{0, 0}};
        i.cReg = rows({2, 4, 8});
        i.cLane = cols({1, 2, 4, 8}) + rows({1});
      } else {
        i.aReg = cols({1, 2, 4});
        i.aLane = rows({1, 2, 4, 8}) + cols({8});
        i.bReg = rows({1, 2, 4});
        i.bLane = cols({1, 2, 4, 8}) + rows({8});
        // C transposed, as MFMA's (swapAB; Triton's isTranspose): the
        // instruction is given B as its A and A as its B (gfx12's A and B
        // are alike), so a lane holds 8 consecutive n of one row of C, not
        // 8 rows of one column: C is stored 16 bytes (f16) at a time.
        i.swapAB = true;
        i.cReg = cols({1, 2, 4});
        i.cLane = rows({1, 2, 4, 8}) + cols({8});
      }
      t.push_back(i);
    }
  // WMMA 16x16x32 f16/bf16 on gfx1250 (GFX12.5, wave32; the only 16-bit
  // WMMA it has): gfx12's placement with K doubled in registers. Lane l
  // holds A row l % 16, K 8 (l / 16) + {0 .. 7} and 16 + 8 (l / 16) +
  // {0 .. 7} (Triton's wmmaDotOperandToLinearLayout, version 3, kWidth 8);
  // C as gfx12's, transposed likewise. The intrinsic takes neg modifiers
  // for A, B and C and reuse hints (DotOpToLLVM.cpp), and bf16 operands as
  // bfloat vectors.
  for (bool bf16 : {false, true}) {
    MmaInstr i;
    i.name = bf16 ? "wmma16x16x32_bf16_gfx1250" : "wmma16x16x32_f16_gfx1250";
    i.family = MmaInstr::AmdWmma;
    i.m = i.n = 16, i.k = 32, i.waveSize = 32, i.bf16 = bf16;
    i.intrinsic = bf16 ? "llvm.amdgcn.wmma.f32.16x16x32.bf16"
                       : "llvm.amdgcn.wmma.f32.16x16x32.f16";
    i.aReg = cols({1, 2, 4, 16});
    i.aLane = rows({1, 2, 4, 8}) + cols({8});
    i.bReg = rows({1, 2, 4, 16});
    i.bLane = cols({1, 2, 4, 8}) + rows({8});
    i.swapAB = true;
    i.cReg = cols({1, 2, 4});
    i.cLane = rows({1, 2, 4, 8}) + cols({8});
    t.push_back(i);
  }
  return t;
}

const std::vector<MmaInstr> &table() {
  static const std::vector<MmaInstr> t = makeTable();
  return t;
}

/// The architecture's number: 90 for sm_90 (and sm_90a), 0x942 for gfx942;
/// 0 otherwise.
unsigned archNumber(StringRef arch, StringRef prefix, unsigned radix) {
  unsigned v = 0;
  if (!arch.consume_front(prefix))
    return 0;
  if (prefix == "sm_" && (arch.ends_with("a") || arch.ends_with("f")))
    arch = arch.drop_back();
  if (arch.getAsInteger(radix, v))
    return 0;
  return v;
}

/// How a wgmma dot of an m x n block spreads `numWarps` warps: warpgroups
/// along M (64 rows each) while M has room, the rest along N; and the
/// instruction's n (a warpgroup's columns, at most 256). None when the
/// block is too small or the warps are not whole warpgroups.
struct WgmmaShape {
  unsigned alongM = 0, alongN = 0;
  int64_t n = 0;
};
std::optional<WgmmaShape> wgmmaShape(int64_t m, int64_t n, unsigned numWarps) {
  if (numWarps < 4 || numWarps % 4 || m < 64)
    return std::nullopt;
  WgmmaShape s;
  unsigned groups = numWarps / 4;
  s.alongM = 1;
  while (s.alongM * 2 <= groups && 64 * int64_t(s.alongM) * 2 <= m)
    s.alongM *= 2;
  s.alongN = groups / s.alongM;
  s.n = std::min<int64_t>(256, n / s.alongN);
  if (s.n < 16)
    return std::nullopt;
  return s;
}

} // namespace

ArrayRef<MmaInstr> mlir::ktc::allMmaInstrs() { return table(); }

const MmaInstr *mlir::ktc::lookupMmaInstr(StringRef name) {
  for (const MmaInstr &i : table())
    if (i.name == name)
      return &i;
  return nullptr;
}

const MmaInstr *mlir::ktc::chooseMmaInstr(StringRef arch, Type element,
                                          bool tf32, int64_t m, int64_t n,
                                          int64_t k, unsigned numWarps) {
  arch = arch.split(':').first; // gfx942:sramecc+:xnack- is a gfx942
  auto fits = [&](const MmaInstr *i) {
    return i && m >= i->m && n >= i->n && k >= i->k ? i : nullptr;
  };
  if (element.isF32()) {
    // Exact f32 products are FMAs everywhere; tf32 ones are tensor-core
    // work on NVIDIA (AMD's xf32 MFMA rounds its own way: FMA there too).
    unsigned sm = archNumber(arch, "sm_", 10);
    return tf32 && sm >= 80 ? fits(lookupMmaInstr("mma1688_tf32")) : nullptr;
  }
  if (element.isInteger(8)) {
    // i8 -> i32: mma.sync m16n8k32 (also on sm_90a: no wgmma s8 here);
    // MFMA's i8 forms per CDNA generation; WMMA iu8 on gfx11 and gfx12.
    auto get = [&](const char *name) { return fits(lookupMmaInstr(name)); };
    if (unsigned sm = archNumber(arch, "sm_", 10))
      return sm >= 80 ? get("mma16832_s8") : nullptr;
    unsigned gfx = archNumber(arch, "gfx", 16);
    bool big = m >= 32 && n >= 32;
    const MmaInstr *i = nullptr;
    if (gfx == 0x950)
      i = get(big ? "mfma32x32x32_i8" : "mfma16x16x64_i8");
    if (!i && (gfx == 0x942 || gfx == 0x950))
      i = get(big ? "mfma32x32x16_i8" : "mfma16x16x32_i8");
    if (!i && gfx == 0x90a) // gfx940 dropped these two
      i = big ? get("mfma32x32x8_i8") : nullptr;
    if (!i && gfx == 0x90a)
      i = get("mfma16x16x16_i8");
    if (!i && gfx >= 0x1100 && gfx < 0x1200)
      i = get("wmma16x16x16_i8");
    if (!i && gfx >= 0x1200 && gfx < 0x1250)
      i = get("wmma16x16x16_i8_gfx12");
    return i;
  }
  if (!element.isF16() && !element.isBF16())
    return nullptr;
  bool bf16 = element.isBF16();
  auto named = [&](const Twine &base) {
    return fits(lookupMmaInstr((base + (bf16 ? "_bf16" : "_f16")).str()));
  };
  if (unsigned sm = archNumber(arch, "sm_", 10)) {
    if (sm == 90 && arch.ends_with("a") && k >= 16)
      if (std::optional<WgmmaShape> s = wgmmaShape(m, n, numWarps))
        if (const MmaInstr *i =
                named("wgmma64x" + std::to_string(s->n) + "x16"))
          return i;
    return sm >= 80 ? named("mma16816") : nullptr;
  }
  unsigned gfx = archNumber(arch, "gfx", 16);
  if (gfx == 0x90a || gfx == 0x942 || gfx == 0x950) {
    // The 32x32 forms where the block has room (fewer instructions, fewer
    // LDS reads per flop), else 16x16; gfx950's doubled K where K allows.
    const MmaInstr *i = nullptr;
    if (gfx == 0x950)
      i = m >= 32 && n >= 32 ? named("mfma32x32x16") : named("mfma16x16x32");
    if (!i)
      i = m >= 32 && n >= 32 ? named("mfma32x32x8") : nullptr;
    return i ? i : named("mfma16x16x16");
  }
  if (gfx >= 0x1100 && gfx < 0x1200)
    return named("wmma16x16x16");
  if (gfx >= 0x1200 && gfx < 0x1250)
    return fits(lookupMmaInstr(
        bf16 ? "wmma16x16x16_bf16_gfx12" : "wmma16x16x16_f16_gfx12"));
  if (gfx == 0x1250 || gfx == 0x1251) // K >= 32; else FMA (no 16x16x16)
    return fits(lookupMmaInstr(bf16 ? "wmma16x16x32_bf16_gfx1250"
                                    : "wmma16x16x32_f16_gfx1250"));
  return nullptr;
}

SmallVector<unsigned, 2> mlir::ktc::mmaWarps(const MmaInstr &instr, int64_t m,
                                             int64_t n, unsigned numWarps) {
  if (instr.family == MmaInstr::NvWgmma) {
    std::optional<WgmmaShape> s = wgmmaShape(m, n, numWarps);
    if (s)
      return {4 * s->alongM, s->alongN};
    return {numWarps, 1}; // not chosen for this shape: replicas
  }
  SmallVector<unsigned, 2> w{1, 1};
  for (unsigned left = numWarps; left > 1; left /= 2) {
    int64_t tilesM = m / (int64_t(instr.m) * w[0]);
    int64_t tilesN = n / (int64_t(instr.n) * w[1]);
    if (tilesM >= tilesN && tilesM > 1)
      w[0] *= 2;
    else if (tilesN > 1)
      w[1] *= 2;
    else
      w[0] *= 2; // past the shape: replicas
  }
  return w;
}

LinearLayout mlir::ktc::mmaLayout(const MmaInstr &instr,
                                  ArrayRef<unsigned> warps, int opIdx,
                                  ArrayRef<int64_t> shape) {
  // Dimension 0 and 1 of the operand: which of M, N, K, and the tile.
  bool isA = opIdx == 0, isB = opIdx == 1;
  int64_t tileM = instr.m, tileN = instr.n, tileK = instr.k;
  int64_t rowsIn = isB ? tileK : tileM, colsIn = isA ? tileK : tileN;
  // Waves that fit along M and N (the rest replicate); along M, in units
  // of the instruction's own waves (a wgmma warpgroup).
  int64_t extentM = isB ? tileM : shape[0], extentN = isA ? tileN : shape[1];
  unsigned groupsM = std::max(1u, warps[0] / instr.waves);
  unsigned wm = std::min<int64_t>(groupsM, std::max<int64_t>(1, extentM / tileM));
  unsigned wn = std::min<int64_t>(warps[1], std::max<int64_t>(1, extentN / tileN));
  std::array<Bases, LinearLayout::kNumIns> b;
  b[LinearLayout::Register] = isA ? instr.aReg : isB ? instr.bReg : instr.cReg;
  b[LinearLayout::Lane] = isA ? instr.aLane : isB ? instr.bLane : instr.cLane;
  b[LinearLayout::Warp] = isA ? instr.aWarp : isB ? instr.bWarp : instr.cWarp;
  auto unit = [](unsigned dim, int64_t v) {
    Coord c{0, 0};
    c[dim] = int32_t(v);
    return c;
  };
  Bases &warp = b[LinearLayout::Warp];
  for (unsigned s = 1; s < groupsM; s *= 2) // M waves: A and C move
    warp.push_back(s < wm && !isB ? unit(0, tileM * s) : Coord{0, 0});
  for (unsigned s = 1; s < warps[1]; s *= 2) // N waves: B and C move
    warp.push_back(s < wn && !isA ? unit(1, tileN * s) : Coord{0, 0});
  Bases &reg = b[LinearLayout::Register];
  auto repeat = [&](unsigned dim, int64_t from, int64_t extent) {
    for (int64_t s = from; s < extent; s *= 2)
      reg.push_back(unit(dim, s));
  };
  if (isA) {
    repeat(1, tileK, shape[1]);
    repeat(0, tileM * wm, shape[0]);
  } else if (isB) {
    repeat(0, tileK, shape[0]);
    repeat(1, tileN * wn, shape[1]);
  } else {
    repeat(1, tileN * wn, shape[1]);
    repeat(0, tileM * wm, shape[0]);
  }
  // A block smaller than the tile: its coordinates wrap (copies).
  for (Bases &in : b)
    for (Coord &c : in)
      for (unsigned d = 0; d < 2; ++d)
        c[d] &= int32_t(shape[d] - 1);
  (void)rowsIn, (void)colsIn;
  return LinearLayout(shape, std::move(b));
}

LinearLayout mlir::ktc::fmaOperandLayout(const LinearLayout &result, int opIdx,
                                         ArrayRef<int64_t> shape) {
  // `result` over [m, 1] (A) or [1, n] (B): its lanes and waves along the
  // other dimension are already replicas. K goes in registers, first.
  unsigned kDim = opIdx == 0 ? 1 : 0;
  std::array<Bases, LinearLayout::kNumIns> b;
  for (int64_t s = 1; s < shape[kDim]; s *= 2) {
    Coord c{0, 0};
    c[kDim] = int32_t(s);
    b[LinearLayout::Register].push_back(c);
  }
  for (unsigned in = 0; in < LinearLayout::kNumIns; ++in)
    for (const Coord &c : result.bases(LinearLayout::In(in))) {
      Coord copy = c;
      copy[kDim] = 0;
      if (in != LinearLayout::Register || copy != Coord{0, 0})
        b[in].push_back(copy);
    }
  return LinearLayout(shape, std::move(b));
}
