//===- InlineAsmTest.cpp - inline_asm_elementwise ---------------------------===//
//
// The public API end to end on Device("cpu") (or KTC_SHAPES_DEVICE's
// device: cuda on a GPU machine), the assembly chosen per target by
// InlineAsmByTarget: x86-64 on the host, PTX on CUDA, AMDGPU assembly on
// HIP. Random data of odd sizes in masked blocks, outputs poisoned before
// the run and a poisoned guard after them, exact references. Then the
// errors, at the user's line: the builder's, and the compile's (no
// assembly for the target, assembly the target's assembler rejects).
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "TestDevice.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

int at = 0; // the line an error must point to (set while tracing)

/// (x & 0x1f) << 3 on each byte, four bytes to a 32-bit register: each
/// byte stays within its own, so the assembly is elementwise.
const InlineAsmByTarget kMaskShift = {
    {"host", {"andl $$0x1f1f1f1f, $0\n\tshll $$3, $0", "=r,0"}},
    {"nvptx", {"and.b32 $0, $1, 0x1F1F1F1F;\n\tshl.b32 $0, $0, 3;", "=r,r"}},
    {"amdgpu",
     {"v_and_b32 $0, 0x1f1f1f1f, $1\n\tv_lshlrev_b32 $0, 3, $0", "=v,v"}},
};

/// a + b and a - b of i32 (wrapping): two results.
const InlineAsmByTarget kSumDiff = {
    {"host",
     {"movl $2, $0\n\taddl $3, $0\n\tmovl $2, $1\n\tsubl $3, $1",
      "=&r,=&r,r,r"}},
    {"nvptx", {"add.s32 $0, $2, $3;\n\tsub.s32 $1, $2, $3;", "=r,=r,r,r"}},
    {"amdgpu",
     {"v_add3_u32 $0, $2, $3, 0\n\tv_not_b32 $1, $3\n\t"
      "v_add3_u32 $1, $2, $1, 1",
      "=&v,=&v,v,v"}},
};

/// a * b of f32, correctly rounded, two elements a run (pack 2): the
/// registers are a0, a1, b0, b1 after the results r0, r1.
const InlineAsmByTarget kMul2 = {
    {"host", {"mulss $4, $0\n\tmulss $5, $1", "=x,=x,0,1,x,x"}},
    {"nvptx",
     {"mul.rn.f32 $0, $2, $4;\n\tmul.rn.f32 $1, $3, $5;", "=f,=f,f,f,f,f"}},
    {"amdgpu",
     {"v_mul_f32 $0, $2, $4\n\tv_mul_f32 $1, $3, $5", "=&v,=&v,v,v,v,v"}},
};

void maskShiftKernel(Ptr<int8_t> x, Ptr<int8_t> y, Int n, int B) {
  auto offs = program_id(0) * B + arange(0, B);
  auto v = load(x + offs, offs < n, 0);
  store(y + offs, inline_asm_elementwise(kMaskShift, {v}, DType::i8, true, 4),
        offs < n);
}

TEST(InlineAsm, PackedBytesOddSizes) {
  auto kernel = Kernel("asm_bytes", maskShiftKernel);
  std::mt19937 gen(7);
  for (int n : {1, 3, 97, 1000, 4099}) {
    for (int B : {4, 16, 512, 1024}) {
      SCOPED_TRACE("n " + std::to_string(n) + " B " + std::to_string(B));
      std::vector<int8_t> hx(n);
      for (int8_t &v : hx)
        v = int8_t(gen());
      hx[0] = -128; // edges: 0x80, 0x7f, 0xff, 0
      if (n > 3) {
        hx[1] = 127;
        hx[2] = -1;
        hx[3] = 0;
      }
      Buffer<int8_t> x(testDevice(), hx);
      // 0x5a is no multiple of 8: never a result.
      Buffer<int8_t> y(testDevice(), std::vector<int8_t>(n + 9, 0x5a));
      kernel.launch({int(cdiv(n, B))}, x, y, n, B);
      std::vector<int8_t> got = y.to_host();
      for (int i = 0; i < n; ++i)
        ASSERT_EQ(uint8_t(got[i]), uint8_t((uint8_t(hx[i]) & 0x1f) << 3))
            << "at " << i << " (x = " << int(hx[i]) << ")";
      for (size_t i = n; i < got.size(); ++i)
        ASSERT_EQ(got[i], 0x5a) << "written past the end at " << i;
    }
  }
}

void sumDiffKernel(Ptr<int32_t> a, Ptr<int32_t> b, Ptr<int32_t> sum,
                   Ptr<int32_t> diff, Int n, int B) {
  auto offs = program_id(0) * B + arange(0, B);
  auto m = offs < n;
  auto r = inline_asm_elementwise(kSumDiff, {load(a + offs, m), load(b + offs, m)},
                                  {DType::i32, DType::i32}, true, 1);
  store(sum + offs, r[0], m);
  store(diff + offs, r[1], m);
}

TEST(InlineAsm, TwoResults) {
  auto kernel = Kernel("asm_pair", sumDiffKernel);
  std::mt19937 gen(11);
  constexpr int32_t kPoison = 0x7eadbeef;
  for (int n : {1, 5, 255, 1001}) {
    for (int B : {1, 64, 256}) {
      SCOPED_TRACE("n " + std::to_string(n) + " B " + std::to_string(B));
      std::vector<int32_t> ha(n), hb(n);
      for (int i = 0; i < n; ++i)
        ha[i] = int32_t(gen()), hb[i] = int32_t(gen());
      ha[0] = std::numeric_limits<int32_t>::min(); // wraps both ways
      hb[0] = n > 1 ? 1 : -1;
      if (n > 1)
        ha[1] = std::numeric_limits<int32_t>::max(), hb[1] = -1;
      Buffer<int32_t> a(testDevice(), ha), b(testDevice(), hb);
      Buffer<int32_t> s(testDevice(), std::vector<int32_t>(n + 5, kPoison));
      Buffer<int32_t> d(testDevice(), std::vector<int32_t>(n + 5, kPoison));
      kernel.launch({int(cdiv(n, B))}, a, b, s, d, n, B);
      std::vector<int32_t> gs = s.to_host(), gd = d.to_host();
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(gs[i], int32_t(uint32_t(ha[i]) + uint32_t(hb[i]))) << i;
        ASSERT_EQ(gd[i], int32_t(uint32_t(ha[i]) - uint32_t(hb[i]))) << i;
      }
      for (int i = n; i < n + 5; ++i) {
        ASSERT_EQ(gs[i], kPoison) << "written past the end at " << i;
        ASSERT_EQ(gd[i], kPoison) << "written past the end at " << i;
      }
    }
  }
}

void mulKernel(Ptr<float> a, Ptr<float> b, Ptr<float> out, Int n, int B) {
  auto offs = program_id(0) * B + arange(0, B);
  auto m = offs < n;
  store(out + offs,
        inline_asm_elementwise(kMul2, {load(a + offs, m), load(b + offs, m)},
                               DType::f32, true, 2),
        m);
}

TEST(InlineAsm, FloatProductsPackOfTwo) {
  auto kernel = Kernel("asm_mul", mulKernel);
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  const float inf = std::numeric_limits<float>::infinity();
  const float edges[] = {NAN,     inf,      -inf,   0.0f,    -0.0f,
                         1e-45f,  -1e-45f,  1e-38f, 1.17e-38f, 3e38f,
                         -3e38f,  1.0f,     -1.0f,  0.5f,    65504.0f};
  for (int n : {2, 17, 333, 2049}) {
    for (int B : {2, 128, 1024}) {
      SCOPED_TRACE("n " + std::to_string(n) + " B " + std::to_string(B));
      std::vector<float> ha(n), hb(n);
      for (int i = 0; i < n; ++i) {
        ha[i] = dist(gen) * std::ldexp(1.0f, int(gen() % 200) - 100);
        hb[i] = dist(gen) * std::ldexp(1.0f, int(gen() % 200) - 100);
      }
      // Every pair of edge values where the size allows.
      for (size_t i = 0; i < std::size(edges) * std::size(edges) &&
                         i < size_t(n);
           ++i) {
        ha[i] = edges[i / std::size(edges)];
        hb[i] = edges[i % std::size(edges)];
      }
      Buffer<float> a(testDevice(), ha), b(testDevice(), hb);
      // A signalling-looking NaN payload no product gives.
      float poison;
      uint32_t bits = 0x7fa5a5a5;
      std::memcpy(&poison, &bits, 4);
      Buffer<float> out(testDevice(), std::vector<float>(n + 7, poison));
      kernel.launch({int(cdiv(n, B))}, a, b, out, n, B);
      std::vector<float> got = out.to_host();
      for (int i = 0; i < n; ++i) {
        float want = float(double(ha[i]) * double(hb[i]));
        if (std::isnan(want)) {
          uint32_t g;
          std::memcpy(&g, &got[i], 4);
          ASSERT_TRUE(std::isnan(got[i]) && g != bits)
              << ha[i] << " * " << hb[i] << " at " << i;
        } else {
          ASSERT_EQ(std::memcmp(&got[i], &want, 4), 0)
              << ha[i] << " * " << hb[i] << " = " << want << ", got "
              << got[i] << " at " << i;
        }
      }
      for (int i = n; i < n + 7; ++i) {
        uint32_t g;
        std::memcpy(&g, &got[i], 4);
        ASSERT_EQ(g, bits) << "written past the end at " << i;
      }
    }
  }
}

/// A scalar argument and a literal broadcast with a block: x + n + 7.
const InlineAsmByTarget kAdd3 = {
    {"host", {"addl $2, $0\n\taddl $3, $0", "=r,0,r,r"}},
    {"nvptx", {"add.s32 $0, $1, $2;\n\tadd.s32 $0, $0, $3;", "=r,r,r,r"}},
    {"amdgpu", {"v_add3_u32 $0, $1, $2, $3", "=v,v,v,v"}},
};

void add3Kernel(Ptr<int32_t> x, Ptr<int32_t> y, Int n) {
  auto offs = arange(0, 64);
  auto m = offs < n;
  store(y + offs,
        inline_asm_elementwise(kAdd3, {load(x + offs, m), n, 7}, DType::i32,
                               true, 1),
        m);
}

TEST(InlineAsm, BroadcastsScalarsAndLiterals) {
  auto kernel = Kernel("asm_add3", add3Kernel);
  for (int n : {1, 37, 64}) {
    std::vector<int32_t> hx(n);
    for (int i = 0; i < n; ++i)
      hx[i] = i * 1000003 - 77;
    Buffer<int32_t> x(testDevice(), hx);
    Buffer<int32_t> y(testDevice(), std::vector<int32_t>(n + 3, -5));
    kernel.launch({1}, x, y, n);
    std::vector<int32_t> got = y.to_host();
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(got[i], hx[i] + n + 7) << "n " << n << " at " << i;
    for (int i = n; i < n + 3; ++i)
      ASSERT_EQ(got[i], -5) << "written past the end at " << i;
  }
}

TEST(InlineAsm, PureIsRemovedWhenUnusedOthersStay) {
  auto kernel = Kernel("asm_unused", [](Ptr<int32_t> x, bool pure) {
    auto v = load(x + arange(0, 16));
    inline_asm_elementwise(kAdd3, {v, v, v}, DType::i32, pure, 1);
    store(x + arange(0, 16), v);
  });
  EXPECT_EQ(kernel.mlir(true).find("inline_asm_elementwise"),
            std::string::npos);
  EXPECT_NE(kernel.mlir(false).find("inline_asm_elementwise"),
            std::string::npos);
}

TEST(InlineAsm, BuilderErrorsAtTheUsersLine) {
  auto expect = [](auto body, const std::string &message) {
    test::expectErrorAt(
        [&] { Kernel("bad", {"p"}, body).emit("mlir", "host"); }, message,
        __FILE__, at);
  };
  expect(
      [](Ptr<int8_t> p) {
        auto x = load(p + arange(0, 16));
        at = __LINE__ + 1;
        inline_asm_elementwise(kMaskShift, {x}, DType::i8, true, 3);
      },
      "inline_asm_elementwise(): pack must be a power of two, got 3");
  expect(
      [](Ptr<int8_t> p) {
        auto x = load(p + arange(0, 2));
        at = __LINE__ + 1;
        inline_asm_elementwise(kMaskShift, {x}, DType::i8, true, 4);
      },
      "inline_asm_elementwise(): pack 4 does not divide the 2 elements of "
      "'tensor<2xi8>'");
  expect(
      [](Ptr<int32_t> p) {
        auto x = load(p + arange(0, 16));
        at = __LINE__ + 1;
        inline_asm_elementwise("", "=r,r", {x}, DType::i32, true, 2);
      },
      "inline_asm_elementwise(): constraints '=r,r' for any name 1 outputs "
      "and 1 inputs; with pack 2 the assembly has 2 output and 2 input "
      "registers");
  expect(
      [](Ptr<int8_t> p) {
        auto x = load(p + arange(0, 16));
        at = __LINE__ + 1;
        inline_asm_elementwise("", "=r,r", {x < 3}, DType::i32, true, 1);
      },
      "inline_asm_elementwise() argument 0 is tensor<16xi1>; it takes "
      "integers of 8 to 64 bits and f16, bf16, f32 or f64: convert it with "
      ".to()");
  expect(
      [](Ptr<int8_t> p) {
        at = __LINE__ + 1;
        inline_asm_elementwise("", "=l,l", {p}, DType::i64, true, 1);
      },
      "inline_asm_elementwise() argument 0 is a pointer (!ktc.ptr<i8>); "
      "pass an integer instead");
  expect(
      [](Ptr<int8_t> p) {
        auto x = load(p + arange(0, 16));
        at = __LINE__ + 1;
        inline_asm_elementwise({{"cuda", {"", "=r,r"}}}, {x}, DType::i8,
                               true, 4);
      },
      "inline_asm_elementwise(): has assembly for 'cuda'; the targets are "
      "any, host, nvptx and amdgpu");
  expect(
      [](Ptr<int8_t> p) {
        auto x = load(p + arange(0, 16));
        at = __LINE__ + 1;
        inline_asm_elementwise("", "=r,r", {x}, DType::i1, true, 1);
      },
      "inline_asm_elementwise() cannot return i1; it returns integers of 8 "
      "to 64 bits and f16, bf16, f32 or f64");
}

/// `text` contains `part`.
::testing::AssertionResult contains(const std::string &text,
                                    const std::string &part) {
  if (text.find(part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' not in:\n" << text;
}

/// The message of the ktc::Error `f` throws ("" when none).
template <typename F> std::string errorOf(F f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(InlineAsm, CompileErrorsNameTheUsersLine) {
  static int line = 0;
  auto hostOnly = Kernel("asm_host_only", [](Ptr<int32_t> x) {
    auto v = load(x + arange(0, 64));
    line = __LINE__ + 1;
    store(x + arange(0, 64), inline_asm_elementwise(
                                 {{"host", {"notl $0", "=r,0"}}}, {v},
                                 DType::i32, true, 1));
  });
  std::string where = std::string(__FILE__) + ":";
  // No assembly for the target.
  std::string e = errorOf([&] { hostOnly.emit("asm", "sm_90"); });
  EXPECT_TRUE(contains(e, where + std::to_string(line)));
  EXPECT_TRUE(contains(e, "inline_asm_elementwise has no assembly for nvptx "
                          "(sm_90); it has host: add an \"nvptx\" or \"any\" "
                          "entry"));
  e = errorOf([&] { hostOnly.emit("asm", "gfx942"); });
  EXPECT_TRUE(contains(e, "no assembly for amdgpu (gfx942)"));
  EXPECT_NE(hostOnly.emit("asm", "host").find("notl"), std::string::npos);

  // PTX given to the host's assembler: an error, not the exit(1) of
  // LLVM's default handler.
  auto ptxOnHost = Kernel("asm_ptx_on_host", [](Ptr<int32_t> x) {
    auto v = load(x + arange(0, 64));
    line = __LINE__ + 2;
    store(x + arange(0, 64),
          inline_asm_elementwise("not.b32 $0, $1;", "=r,r", {v}, DType::i32,
                                 true, 1));
  });
  e = errorOf([&] { ptxOnHost.emit("asm", "host"); });
  EXPECT_TRUE(contains(e, where + std::to_string(line)));
  EXPECT_TRUE(contains(e, "invalid instruction mnemonic 'not.b32'"));
  Buffer<int32_t> buffer(Device::get("cpu"), std::vector<int32_t>(64, 1));
  e = errorOf([&] { ptxOnHost.launch({1}, buffer); });
  EXPECT_TRUE(contains(e, where + std::to_string(line)));
  // The same for AMDGPU's assembler; and a constraint NVPTX has no
  // register for.
  e = errorOf([&] { ptxOnHost.emit("bin", "gfx942"); });
  EXPECT_TRUE(contains(e, where + std::to_string(line)));
  EXPECT_TRUE(contains(e, "error: "));
  auto xmmOnPtx = Kernel("asm_xmm_on_ptx", [](Ptr<float> x) {
    auto v = load(x + arange(0, 64));
    line = __LINE__ + 2;
    store(x + arange(0, 64),
          inline_asm_elementwise("addss $1, $0", "=x,x", {v}, DType::f32,
                                 true, 1));
  });
  e = errorOf([&] { xmmOnPtx.emit("asm", "sm_90"); });
  EXPECT_TRUE(contains(e, where + std::to_string(line)));
  EXPECT_TRUE(contains(e, "constraint 'x'"));
}

} // namespace
