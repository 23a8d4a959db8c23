//===- BuilderErrorsTest.cpp - misuse of the builder: pinned messages -----===//
//
// Every misuse reaches the user as a ktc::Error naming the user's own file
// and line (the line of the offending call or expression), never an abort.
// Each test writes `at = __LINE__;` on the line of the misuse.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace ktc;

namespace {

int at = 0; // the line the error must point to

/// Runs `trace` and checks the error's location and message.
void expectError(const std::function<void()> &trace, const std::string &message) {
  test::expectErrorAt(trace, message, __FILE__, at);
}

template <typename F> void expectKernelError(F fn, const std::string &msg) {
  expectError([&] { Kernel("k", fn).mlir(); }, msg);
}

TEST(BuilderErrors, ArangeNotPowerOfTwo) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; arange(0, 100);
  }, "arange(0, 100): the length 100 must be a power of two");
}

TEST(BuilderErrors, ArangeEmpty) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; arange(16, 16);
  }, "arange(16, 16): end must be greater than start");
}

TEST(BuilderErrors, BlockTooLarge) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; arange(0, 1 << 21);
  }, "a block of 2097152 elements is larger than ktc's limit of 1048576 "
     "(2^20)");
}

TEST(BuilderErrors, BroadcastTooLarge) {
  expectKernelError([](Ptr<float>) {
    auto rows = expand_dims(arange(0, 2048), 1);
    auto cols = expand_dims(arange(0, 1024), 0);
    at = __LINE__; (void)(rows + cols);
  }, "a block of 2097152 elements is larger than ktc's limit of 1048576 "
     "(2^20)");
}

TEST(BuilderErrors, ShapeMismatch) {
  expectKernelError([](Ptr<float> p) {
    auto a = load(p + arange(0, 128));
    auto b = load(p + arange(0, 64));
    at = __LINE__; (void)(a + b);
  }, "shapes 128 and 64 cannot be broadcast together");
}

TEST(BuilderErrors, LoadThroughNonPointer) {
  expectKernelError([](Ptr<float>, Int n) {
    at = __LINE__; load(n + arange(0, 16));
  }, "load needs a pointer or a block of pointers, got tensor<16xi32>");
}

TEST(BuilderErrors, MaskOfWrongShape) {
  expectKernelError([](Ptr<float> p, Int n) {
    auto mask = arange(0, 64) < n;
    at = __LINE__; load(p + arange(0, 128), mask);
  }, "load mask of type tensor<64xi1> does not match the pointers' type "
     "tensor<128x!ktc.ptr<f32>>");
}

TEST(BuilderErrors, MaskNotBoolean) {
  expectKernelError([](Ptr<float> p) {
    auto offs = arange(0, 16);
    at = __LINE__; load(p + offs, offs);
  }, "load mask must be boolean (i1), got tensor<16xi32>; compare to get "
     "one");
}

TEST(BuilderErrors, OtherWithoutMask) {
  expectKernelError([](Ptr<float> p) {
    at = __LINE__; load(p + arange(0, 16), Operand(), 0.0f);
  }, "load: 'other' needs a mask (it fills the masked-off elements)");
}

TEST(BuilderErrors, ReductionAxisOutOfRange) {
  expectKernelError([](Ptr<float> p) {
    auto x = load(p + arange(0, 32));
    at = __LINE__; max(x, 1);
  }, "max() axis 1 is out of range for a rank-1 block");
}

TEST(BuilderErrors, ReductionOfScalar) {
  expectKernelError([](Ptr<float> p) {
    at = __LINE__; sum(load(p), 0);
  }, "sum() reduces a block, got the scalar f32");
}

TEST(BuilderErrors, ProgramIdAxis) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; program_id(3);
  }, "program_id axis must be 0, 1 or 2, got 3");
}

TEST(BuilderErrors, ExpOfInteger) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; exp(arange(0, 8));
  }, "exp() needs a floating-point operand, got tensor<8xi32>; convert it "
     "with .to(ktc::DType::f32)");
}

TEST(BuilderErrors, VarChangesType) {
  const int declared = __LINE__ + 2;
  expectKernelError([](Ptr<float> p) {
    Var m = -INFINITY;
    at = __LINE__; m = load(p + arange(0, 8));
  }, "cannot assign a value of type tensor<8xf32> to a ktc::Var of type f32 "
     "(declared at line " + std::to_string(declared) +
     "); a Var keeps its type");
}

TEST(BuilderErrors, ValueEscapesLoop) {
  expectKernelError([](Ptr<float> p, Int n) {
    Value last;
    for_range(0, n, 1, [&](Value i) { last = load(p + i); });
    at = __LINE__; store(p, last);
  }, "a value computed inside a for_range or if_ body is used outside it; "
     "carry it out in a ktc::Var");
}

TEST(BuilderErrors, StoreFloatThroughIntPointer) {
  expectKernelError([](Ptr<int32_t> p) {
    at = __LINE__; store(p, 1.5f);
  }, "store: a value of type f32 cannot be stored through "
     "!ktc.ptr<i32>; convert it with .to()");
  expectKernelError([](Ptr<int32_t> p, Ptr<float> q) {
    at = __LINE__; store(p, load(q));
  }, "store: a value of type f32 cannot be stored through "
     "!ktc.ptr<i32>; convert it with .to()");
}

TEST(BuilderErrors, PointerArithmetic) {
  expectKernelError([](Ptr<float> p) {
    at = __LINE__; (void)(p * 2);
  }, "operator * is not defined on pointers (!ktc.ptr<f32>, i32)");
  expectKernelError([](Ptr<float> p, Ptr<float> q) {
    at = __LINE__; (void)(p - q);
  }, "cannot subtract two pointers");
  expectKernelError([](Ptr<float> p, Float f) {
    at = __LINE__; (void)(p + f);
  }, "a pointer moves by i32 or i64 offsets, not f32");
}

TEST(BuilderErrors, BitwiseOnFloats) {
  expectKernelError([](Ptr<float> p) {
    auto x = load(p);
    at = __LINE__; (void)(x & x);
  }, "operator & needs integers or booleans, not f32");
}

TEST(BuilderErrors, BlockCondition) {
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; if_(arange(0, 4) < n, [] {});
  }, "if_ needs a scalar boolean (i1) condition, got tensor<4xi1>; use "
     "where() to choose per element");
}

TEST(BuilderErrors, LoopStep) {
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; for_range(0, n, 0, [](Value) {});
  }, "for_range step must not be zero");
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; for_range(0, arange(0, 4), 1, [](Value) {});
  }, "for_range end must be a scalar i32 or i64, got tensor<4xi32>");
}

TEST(BuilderErrors, ExpandDimsBeyondRankThree) {
  expectKernelError([](Ptr<float>) {
    auto cube = expand_dims(expand_dims(arange(0, 8), 0), 2);
    at = __LINE__; expand_dims(cube, 0);
  }, "expand_dims of a tensor<1x8x1xi32> would make a rank-4 block; blocks "
     "have rank 1, 2 or 3");
}

TEST(BuilderErrors, FullOfRankFour) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; full({2, 2, 2, 2}, 0, DType::f32);
  }, "blocks have rank 1, 2 or 3, not 4");
}

TEST(BuilderErrors, TransNeedsTwoDimensions) {
  expectKernelError([](Ptr<float>) {
    at = __LINE__; trans(arange(0, 8));
  }, "trans() transposes a 2-D block, got a tensor<8xi32>; permute() "
     "reorders the dimensions of any block");
  expectKernelError([](Ptr<float>, Int n) {
    at = __LINE__; trans(n);
  }, "trans() takes a block, got the scalar i32");
}

TEST(BuilderErrors, PermuteNeedsAPermutation) {
  expectKernelError([](Ptr<float>) {
    auto cube = full({2, 4, 8}, 1.0, DType::f32);
    at = __LINE__; permute(cube, {0, 2, 2});
  }, "permute() dimensions [0, 2, 2] are not a permutation of the 3 "
     "dimensions of a tensor<2x4x8xf32> (each of 0 .. 2 once)");
  expectKernelError([](Ptr<float>) {
    auto tile = full({2, 4}, 1.0, DType::f32);
    at = __LINE__; permute(tile, {2, 0, 1});
  }, "permute() dimensions [2, 0, 1] are not a permutation of the 2 "
     "dimensions of a tensor<2x4xf32> (each of 0 .. 1 once)");
  expectKernelError([](Ptr<float>) {
    at = __LINE__; permute(arange(0, 4), {-1});
  }, "permute() dimensions [-1] are not a permutation of the 1 dimensions "
     "of a tensor<4xi32> (each of 0 .. 0 once)");
  expectKernelError([](Ptr<float> p) {
    at = __LINE__; permute(p, {0});
  }, "permute() takes a block, got the scalar !ktc.ptr<f32>");
}

TEST(BuilderErrors, ReshapeKeepsTheElementCount) {
  expectKernelError([](Ptr<float>) {
    auto tile = full({4, 8}, 1.0, DType::f32);
    at = __LINE__; reshape(tile, {64});
  }, "reshape() of a tensor<4x8xf32> (32 elements) to [64] (64 elements): "
     "the element counts must be equal");
  expectKernelError([](Ptr<float>) {
    at = __LINE__; reshape(arange(0, 32), {4, 6});
  }, "block dimension 6 is not a power of two");
  expectKernelError([](Ptr<float>) {
    at = __LINE__; reshape(arange(0, 16), {2, 2, 2, 2});
  }, "blocks have rank 1, 2 or 3, not 4");
  expectKernelError([](Ptr<float>) {
    at = __LINE__; reshape(arange(0, 16), {});
  }, "blocks have rank 1, 2 or 3, not 0");
  expectKernelError([](Float x) {
    at = __LINE__; reshape(x, {1});
  }, "reshape() takes a block, got the scalar f32");
}

TEST(BuilderErrors, LiteralOutOfRange) {
  expectKernelError([](Ptr<float>, Int n) {
    at = __LINE__; (void)(n < 5000000000LL);
  }, "the literal 5000000000 does not fit in i32");
}

TEST(BuilderErrors, OutsideAKernel) {
  expectError([] { at = __LINE__; program_id(0); },
              "ktc operations can only be used inside a kernel being traced "
              "(a ktc::Kernel's callable)");
}

TEST(BuilderErrors, ValueFromAnotherTrace) {
  Value kept;
  Kernel("first", [&](Ptr<float> p) { kept = load(p); }).mlir();
  expectKernelError([&](Ptr<float> p) {
    at = __LINE__; store(p, kept);
  }, "this value belongs to another kernel trace: values cannot be kept "
     "from one kernel (or specialisation) to another");
}

TEST(BuilderErrors, NestedKernels) {
  auto inner = Kernel("inner", [](Ptr<float>) {});
  expectError([&] {
    Kernel("outer", [&](Ptr<float>) { at = __LINE__ + 1;
      auto k = Kernel("inner", [](Ptr<float>) {}); k.mlir(); }).mlir();
  }, "kernel 'inner' is traced while another kernel is being traced "
     "(kernels cannot be nested)");
}

TEST(BuilderErrors, BadKernelName) {
  expectError([] { at = __LINE__; Kernel("my kernel", [](Ptr<float>) {}).mlir(); },
              "kernel name 'my kernel' must be a non-empty identifier "
              "([A-Za-z0-9_])");
}

} // namespace
