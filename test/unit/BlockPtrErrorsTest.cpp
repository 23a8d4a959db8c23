//===- BlockPtrErrorsTest.cpp - block pointers: misuse and GPU code -------===//
//
// Misuse of make_block_ptr, advance, make_tensor_descriptor and their
// loads and stores is a ktc::Error at the user's line (each test writes
// `at = __LINE__;` on the line of the misuse). Then the code: a 2-D f16
// tile through a descriptor or a block pointer loads and stores 16 bytes
// at a time where the pointer spelling does (sm_90, gfx942), and a matmul
// walking K with descriptors copies its tiles with 16-byte cp.async.
// BlockPtrTest.cpp runs them.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

using namespace ktc;

namespace {

int at = 0; // the line the error must point to

template <typename F> void expectKernelError(F fn, const std::string &msg) {
  test::expectErrorAt([&] { Kernel("k", fn).mlir(); }, msg, __FILE__, at);
}

BlockPtr tile16(Ptr<float> p, Int m, Int n) {
  return make_block_ptr(p, {m, n}, {n, 1}, {0, 0}, {16, 16}, {1, 0});
}

TEST(BlockPtrErrors, RankMismatch) {
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_block_ptr(p, {n}, {n, 1}, {0, 0}, {16, 16}, {1, 0});
  }, "make_block_ptr: 1 shape value(s) for a rank-2 block; give one per "
     "dimension");
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_block_ptr(p, {n, n}, {n, 1}, {0, 0}, {16, 16}, {0});
  }, "make_block_ptr: 1 order entries for a rank-2 block; give one per "
     "dimension");
  expectKernelError([](Ptr<float> p, Int n) {
    auto b = tile16(p, n, n);
    at = __LINE__; advance(b, {16});
  }, "advance: 1 offset(s) for a rank-2 block; give one per dimension");
  expectKernelError([](Ptr<float> p, Int n) {
    auto d = make_tensor_descriptor(p, {n, n}, {n, 1}, {16, 16});
    at = __LINE__; d.load({0});
  }, "tensor descriptor load: 1 offset(s) for a rank-2 block; give one per "
     "dimension");
  expectKernelError([](Ptr<float> p, Int n) {
    auto d = make_tensor_descriptor(p, {n, n}, {n, 1}, {16, 16});
    at = __LINE__; store_tensor_descriptor(d, {0, 0, 0}, 1.0f);
  }, "tensor descriptor store: 3 offset(s) for a rank-2 block; give one per "
     "dimension");
}

TEST(BlockPtrErrors, BlockShape) {
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_block_ptr(p, {n, n}, {n, 1}, {0, 0}, {16, 12}, {1, 0});
  }, "make_block_ptr: block_shape {16, 12}: 12 is not a power of two");
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_block_ptr(p, {n, n, n, n}, {n, n, n, 1},
                                  {0, 0, 0, 0}, {2, 2, 2, 2}, {3, 2, 1, 0});
  }, "make_block_ptr: block_shape {2, 2, 2, 2} has 4 dimensions; blocks "
     "have 1, 2 or 3");
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_tensor_descriptor(p, {n, n}, {n, 1}, {0, 16});
  }, "make_tensor_descriptor: block_shape {0, 16}: 0 is not a power of two");
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_block_ptr(p, {n, n}, {n, 1}, {0, 0}, {1, 1}, {1, 1});
  }, "make_block_ptr: order {1, 1} is not a permutation of the dimensions 0 "
     "to 1");
}

TEST(BlockPtrErrors, Operands) {
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_block_ptr(n, {n}, {1}, {0}, {16}, {0});
  }, "make_block_ptr needs a scalar pointer as its base, got i32");
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_block_ptr(p + arange(0, 16), {n}, {1}, {0}, {16}, {0});
  }, "make_block_ptr needs a scalar pointer as its base, got "
     "tensor<16x!ktc.ptr<f32>>");
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_block_ptr(p, {load(p)}, {1}, {0}, {16}, {0});
  }, "make_block_ptr: shape[0] must be a scalar integer, got f32");
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_block_ptr(p, {n}, {1}, {arange(0, 16)}, {16}, {0});
  }, "make_block_ptr: offsets[0] must be a scalar integer, got "
     "tensor<16xi32>");
  expectKernelError([](Ptr<float> p, Int n) {
    auto b = tile16(p, n, n);
    at = __LINE__; advance(b, {0, n > 0});
  }, "advance: offsets[1] must be a scalar integer, got i1");
}

TEST(BlockPtrErrors, BoundaryCheck) {
  expectKernelError([](Ptr<float> p, Int n) {
    auto b = tile16(p, n, n);
    at = __LINE__; load(b, {2});
  }, "load: boundary_check dimension 2 is out of range for a rank-2 block "
     "pointer");
  expectKernelError([](Ptr<float> p, Int n) {
    auto b = tile16(p, n, n);
    at = __LINE__; store(b, 0.0f, {-1});
  }, "store: boundary_check dimension -1 is out of range for a rank-2 block "
     "pointer");
  expectKernelError([](Ptr<float> p, Int n) {
    auto b = tile16(p, n, n);
    at = __LINE__; load(b, {0, 0});
  }, "load: boundary_check names dimension 0 twice");
}

TEST(BlockPtrErrors, Padding) {
  expectKernelError([](Ptr<int32_t> p, Int n) {
    auto b = make_block_ptr(p, {n}, {1}, {0}, {16}, {0});
    at = __LINE__; load(b, {0}, Padding::nan);
  }, "load: Padding::nan needs a floating-point element type, got i32");
  expectKernelError([](Ptr<int32_t> p, Int n) {
    at = __LINE__; make_tensor_descriptor(p, {n}, {1}, {16}, Padding::nan);
  }, "make_tensor_descriptor: Padding::nan needs a floating-point element "
     "type, got i32");
}

TEST(BlockPtrErrors, StoredValueShape) {
  expectKernelError([](Ptr<float> p, Int n) {
    auto b = tile16(p, n, n);
    at = __LINE__; store(b, zeros({8, 16}, DType::f32), {0});
  }, "store: a value of type tensor<8x16xf32> does not fit the block "
     "{16, 16}; store a block of that shape or a scalar");
  expectKernelError([](Ptr<float> p, Int n) {
    auto d = make_tensor_descriptor(p, {n, n}, {n, 1}, {16, 16});
    at = __LINE__; d.store({0, 0}, zeros({16}, DType::f32));
  }, "tensor descriptor store: a value of type tensor<16xf32> does not fit "
     "the block {16, 16}; store a block of that shape or a scalar");
}

TEST(BlockPtrErrors, Descriptor) {
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_tensor_descriptor(p, {n, n}, {n, 2}, {16, 16});
  }, "make_tensor_descriptor: the last stride must be 1 (the innermost "
     "dimension is contiguous), got 2");
  expectKernelError([](Ptr<float> p, Int n) {
    at = __LINE__; make_tensor_descriptor(p, {n, n}, {n, 1}, {16, 2});
  }, "make_tensor_descriptor: the block's last dimension spans 8 bytes "
     "(2 x f32); a tensor descriptor's spans at least 16");
}

TEST(BlockPtrErrors, AssignmentKeepsTheType) {
  expectKernelError([](Ptr<float> p, Int n) {
    auto a = tile16(p, n, n);
    at = __LINE__; auto b = make_block_ptr(p, {n, n}, {n, 1}, {0, 0},
                                           {16, 32}, {1, 0});
    a = b;
  }, "cannot assign a block pointer (base !ktc.ptr<f32>, block_shape "
     "{16, 32}) to one with base !ktc.ptr<f32>, block_shape {16, 16}; a "
     "BlockPtr keeps its type");
  expectKernelError([](Ptr<float> p, Ptr<half> q, Int n) {
    auto a = make_tensor_descriptor(p, {n}, {1}, {16});
    at = __LINE__; a = make_tensor_descriptor(q, {n}, {1}, {16});
  }, "cannot assign a tensor descriptor (base !ktc.ptr<f16>, block_shape "
     "{16}) to one with base !ktc.ptr<f32>, block_shape {16}; a "
     "TensorDescriptor keeps its type");
}

TEST(BlockPtrErrors, UseOutsideTheLoopThatMadeIt) {
  // A BlockPtr made inside a loop and assigned to one outside is carried;
  // one kept otherwise (here in a std::optional) is a value of the body.
  expectKernelError([](Ptr<float> p, Int n) {
    std::optional<BlockPtr> kept;
    for_range(0, n, 1, [&](Value) {
      kept.emplace(make_block_ptr(p, {n}, {1}, {0}, {16}, {0}));
    });
    at = __LINE__; load(*kept);
  }, "a value computed inside a for_range or if_ body is used outside it; "
     "carry it out in a ktc::Var");
}

//===----------------------------------------------------------------------===//
// The GPU code.
//===----------------------------------------------------------------------===//

bool has(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

/// One BM x BN f16 tile of x copied to y (M x N, row strides sx, sy),
/// spelled three ways: SPELLING 0 pointers and masks, 1 a block pointer
/// checked along both dimensions, 2 a tensor descriptor.
void tileCopy(Ptr<half> x, Ptr<half> y, Int M, Int N, Int sx, Int sy, int BM,
              int BN, int SPELLING) {
  auto i = program_id(0) * BM, j = program_id(1) * BN;
  if (SPELLING == 0) {
    auto rows = expand_dims(i + arange(0, BM), 1);
    auto cols = expand_dims(j + arange(0, BN), 0);
    auto mask = (rows < M) & (cols < N);
    store(y + rows * sy + cols, load(x + rows * sx + cols, mask), mask);
  } else if (SPELLING == 1) {
    auto src = make_block_ptr(x, {M, N}, {sx, 1}, {i, j}, {BM, BN}, {1, 0});
    auto dst = make_block_ptr(y, {M, N}, {sy, 1}, {i, j}, {BM, BN}, {1, 0});
    store(dst, load(src, {0, 1}), {0, 1});
  } else {
    auto src = make_tensor_descriptor(x, {M, N}, {sx, 1}, {BM, BN});
    auto dst = make_tensor_descriptor(y, {M, N}, {sy, 1}, {BM, BN});
    dst.store({i, j}, src.load({i, j}));
  }
}

TEST(BlockPtrCode, TilesLoadSixteenBytesLikePointers) {
  auto kernel = Kernel("tile_copy", tileCopy);
  AnyBuffer<half> any;
  for (int spelling : {0, 1, 2}) {
    SCOPED_TRACE("spelling " + std::to_string(spelling));
    // Sizes and strides multiples of 16 (as the launch finds them).
    std::string sm90 = kernel.emit_as_launched("asm", "sm_90", any, any, 256,
                                               512, 512, 512, 32, 64,
                                               spelling);
    EXPECT_TRUE(has(sm90, "ld.global.v4.b32")) << sm90;
    EXPECT_TRUE(has(sm90, "st.global.v4.b32")) << sm90;
    EXPECT_FALSE(has(sm90, "ld.global.b16")) << sm90;
    std::string gfx942 = kernel.emit_as_launched("asm", "gfx942", any, any,
                                                 256, 512, 512, 512, 32, 64,
                                                 spelling);
    EXPECT_TRUE(has(gfx942, "global_load_dwordx4")) << gfx942;
    EXPECT_TRUE(has(gfx942, "global_store_dwordx4")) << gfx942;
    // An odd N: the columns' mask changes within 8 elements; element by
    // element, as the pointer spelling goes.
    std::string odd = kernel.emit_as_launched("asm", "sm_90", any, any, 256,
                                              509, 512, 512, 32, 64,
                                              spelling);
    EXPECT_FALSE(has(odd, "ld.global.v4.b32")) << odd;
  }
}

/// c (f32) = a @ b (f16) with tensor descriptors walked along K.
void halfDescriptorMatmul(Ptr<half> a, Ptr<half> b, Ptr<float> c, Int M, Int N,
                          Int K, Int sa, Int sb, Int sc, int BM, int BN,
                          int BK) {
  auto pm = program_id(0) * BM, pn = program_id(1) * BN;
  auto ad = make_tensor_descriptor(a, {M, K}, {sa, 1}, {BM, BK});
  auto bd = make_tensor_descriptor(b, {K, N}, {sb, 1}, {BK, BN});
  Var acc = zeros({BM, BN}, DType::f32);
  for_range(0, K, BK, [&](Value k) {
    acc = dot(ad.load({pm, k}), bd.load({k, pn}), acc);
  });
  make_tensor_descriptor(c, {M, N}, {sc, 1}, {BM, BN}).store({pm, pn}, acc);
}

TEST(BlockPtrCode, DescriptorMatmulCopiesWithCpAsync) {
  auto kernel = Kernel("desc_matmul", halfDescriptorMatmul);
  AnyBuffer<half> h;
  AnyBuffer<float> f;
  std::string sm90 = kernel.emit_as_launched(
      "asm", "sm_90", h, h, f, 512, 512, 512, 512, 512, 512, 64, 64, 32,
      Options{.num_warps = 4, .num_stages = 3});
  EXPECT_TRUE(has(sm90, "cp.async.cg.shared.global")) << sm90;
  // 16 bytes a copy, off (zeros) by its ignore-src predicate at the edges.
  EXPECT_TRUE(has(sm90, ", 16, %p")) << sm90;
  EXPECT_TRUE(has(sm90, "mma.sync.aligned") || has(sm90, "wgmma")) << sm90;
  EXPECT_FALSE(has(sm90, "ld.global.b16")) << sm90;
}

} // namespace
