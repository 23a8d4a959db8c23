//===- TypesTargetsTest.cpp - the new element types on gfx942 and sm_90 --===//
//
// Kernels on u8/i8/i16/u32/u64/f64 and fp8 data, emitted offline for both
// GPU targets (no device needed): each must lower, and the assembly must
// move the narrow types with the instructions of their width. The numbers
// are checked on the host by TypesTest/TypesCastTest (and on a GPU there
// with KTC_SHAPES_DEVICE=cuda).
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"

#include <gtest/gtest.h>

using namespace ktc;

namespace {

void narrow(Ptr<int8_t> x, Ptr<uint8_t> u, Ptr<int16_t> h, Ptr<uint32_t> w,
            Ptr<uint64_t> out, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask), c = load(u + offs, mask);
  Value e = load(h + offs, mask), b = load(w + offs, mask);
  Value r = (b / (c.to(DType::u32) + 1u)) >> (a & 7) ;
  r = maximum(r, b % 7u) + (e < 0).to(DType::u32) + (b > 3000000000u);
  store(out + offs, r.to(DType::u64) + max(b), mask);
  store(x + offs, a * 3 - (c > 200), mask);
}

void wide(Ptr<double> x, Ptr<float> f, Ptr<int32_t> i, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask, 1.0);
  store(x + offs, a * a + sqrt(a) + sum(where(mask, a, 0.0)), mask);
  store(f + offs, a, mask);
  store(i + offs, load(f + offs, mask).to(DType::i32), mask);
}

template <typename F8>
void fp8(Ptr<F8> x, Ptr<half> h, Ptr<float> f, Ptr<F8> y, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask);
  store(h + offs, a.to(DType::f16), mask);
  store(y + offs, load(f + offs, mask).to(dtype_of<F8>::value), mask);
}

TEST(TypesTargets, NarrowAndUnsignedLowerOnBothGpus) {
  auto k = Kernel("types_targets_narrow", narrow);
  std::string amd = k.emit("asm", "gfx942", 256);
  EXPECT_NE(amd.find("global_load_ubyte"), std::string::npos);
  EXPECT_NE(amd.find("global_load_ushort"), std::string::npos);
  EXPECT_NE(amd.find("global_store_byte"), std::string::npos);
  std::string ptx = k.emit("asm", "sm_90", 256);
  EXPECT_NE(ptx.find("ld.global.b8"), std::string::npos);
  EXPECT_NE(ptx.find("div.u32"), std::string::npos);
  EXPECT_NE(ptx.find("st.global.b8"), std::string::npos);
  EXPECT_NE(ptx.find("st.global.b64"), std::string::npos);
}

TEST(TypesTargets, Float64LowersOnBothGpus) {
  auto k = Kernel("types_targets_f64", wide);
  std::string amd = k.emit("asm", "gfx942", 256);
  EXPECT_NE(amd.find("v_rsq_f64"), std::string::npos); // then refined
  EXPECT_NE(amd.find("v_add_f64"), std::string::npos);
  EXPECT_NE(amd.find("v_cvt_f32_f64"), std::string::npos);
  std::string ptx = k.emit("asm", "sm_90", 256);
  EXPECT_NE(ptx.find("sqrt.rn.f64"), std::string::npos);
  EXPECT_NE(ptx.find("cvt.rn.f32.f64"), std::string::npos);
}

TEST(TypesTargets, Fp8LowersOnBothGpus) {
  for (bool e4m3 : {true, false}) {
    std::string amd = e4m3 ? Kernel("types_targets_e4m3", fp8<float8_e4m3fn>)
                                 .emit("asm", "gfx942", 256)
                           : Kernel("types_targets_e5m2", fp8<float8_e5m2>)
                                 .emit("asm", "gfx942", 256);
    EXPECT_NE(amd.find("global_load_sbyte"), std::string::npos);
    EXPECT_NE(amd.find("global_store_byte"), std::string::npos);
    std::string ptx = e4m3 ? Kernel("types_targets_e4m3", fp8<float8_e4m3fn>)
                                 .emit("asm", "sm_90", 256)
                           : Kernel("types_targets_e5m2", fp8<float8_e5m2>)
                                 .emit("asm", "sm_90", 256);
    EXPECT_NE(ptx.find("ld.global.b8"), std::string::npos);
    EXPECT_NE(ptx.find("st.global.b8"), std::string::npos);
    // Integer code, not the hardware's (saturating) cvt to e4m3/e5m2.
    EXPECT_EQ(ptx.find("e4m3x2"), std::string::npos);
    EXPECT_EQ(ptx.find("e5m2x2"), std::string::npos);
  }
}

} // namespace

namespace {
void f64Exp(Ptr<double> x, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  Value a = load(x + offs, mask, 1.0);
  store(x + offs, exp(a) + log(a), mask);
}

// f64 exp/log on every target since ktc-expand-math writes them in f64
// operations (MathF64Test.cpp measures them); they were host-only.
TEST(TypesTargets, Float64ExpLogCompileForEveryTarget) {
  auto k = Kernel("types_targets_f64_exp", f64Exp);
  for (const char *target : {"host", "gfx942", "sm_90"}) {
    SCOPED_TRACE(target);
    EXPECT_FALSE(k.emit("asm", target, 256).empty());
  }
}
} // namespace
