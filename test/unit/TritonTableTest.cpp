//===- TritonTableTest.cpp - docs/triton.md's table, checked ---------------===//
//
// docs/triton.md lists every function of triton.language beside its ktc
// spelling, with a status: "yes", "not yet" or "pending: ...". Here is one
// snippet per "yes" row, named by the row's first cell (`tl.abs`, `if`,
// ...): a kernel that uses the function. The tests read the markdown and
// check that the "yes" rows and the snippets are the same set, and that
// every snippet traces and compiles to PTX (sm_90) and for the host -- so
// the table cannot claim what ktc does not have, nor leave out what it has.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

using namespace ktc;

namespace {

constexpr int B = 16;
/// Every snippet is a kernel of this signature: two f32 buffers, an i32
/// buffer and a size.
using Fn = void (*)(Ptr<float>, Ptr<float>, Ptr<int32_t>, Int);

/// x's block (B elements from program_id(0) * B), as f32.
Value xs(Ptr<float> x) { return load(x + arange(0, B)); }
Value offs() { return arange(0, B); }
Value square(Value a, Value b) { return a * b; }

// Each entry: the row's name in docs/triton.md, and a kernel using it.
#define S(name, ...)                                                          \
  {name, [](Ptr<float> x, Ptr<float> y, Ptr<int32_t> ix, Int n) {             \
     (void)x, (void)y, (void)ix, (void)n;                                    \
     __VA_ARGS__;                                                            \
   }}

const std::map<std::string, Fn> &snippets() {
  static const std::map<std::string, Fn> all = {
      // Programming model.
      S("tl.tensor", Value v = xs(x); store(y + offs(), v)),
      S("tl.program_id", store(ix + program_id(0), program_id(0))),
      S("tl.num_programs", store(ix, num_programs(0))),
      // Creation.
      S("tl.arange", store(ix + offs(), arange(0, B))),
      S("tl.full", store(y + offs(), full({B}, 2.5f, DType::f32))),
      S("tl.zeros", store(y + offs(), zeros({B}, DType::f32))),
      S("tl.zeros_like",
        Value v = xs(x); store(y + offs(), zeros(v.shape(), v.dtype()))),
      S("tl.cast", store(ix + offs(), cast(xs(x), DType::i32) +
                                          xs(x).to(DType::i32))),
      // Shapes.
      S("tl.broadcast",
        auto col = expand_dims(xs(x), 1);
        auto row = expand_dims(xs(x), 0);
        store(y + expand_dims(offs(), 1) * B + expand_dims(offs(), 0),
              broadcast_to(col, {B, B}) + row)),
      S("tl.broadcast_to",
        store(y + offs(), broadcast_to(load(x), {B}))),
      S("tl.expand_dims",
        store(y + expand_dims(offs(), 0), expand_dims(xs(x), 0))),
      S("tl.join", store(y + reshape(arange(0, 2 * B), {B, 2}),
                         join(xs(x), xs(x) + 1.0f))),
      S("tl.split", auto [a, b] = split(reshape(load(x + arange(0, 2 * B)),
                                                {B, 2}));
        store(y + offs(), a - b)),
      S("tl.interleave",
        store(y + arange(0, 2 * B), interleave(xs(x), xs(x) * 2.0f))),
      S("tl.cat", store(y + arange(0, 2 * B), cat(xs(x), xs(x) * 2.0f))),
      S("tl.permute",
        auto t = reshape(xs(x), {4, 4});
        store(y + reshape(offs(), {4, 4}), permute(t, {1, 0}))),
      S("tl.ravel",
        auto t = reshape(xs(x), {4, 4});
        store(y + offs(), reshape(t, {B}))),
      S("tl.reshape", store(y + reshape(offs(), {2, 8}),
                            reshape(xs(x), {2, 8}))),
      S("tl.trans",
        auto t = reshape(xs(x), {4, 4});
        store(y + reshape(offs(), {4, 4}), trans(t))),
      S("tl.view", store(y + reshape(offs(), {8, 2}),
                         reshape(xs(x), {8, 2}))),
      // Linear algebra.
      S("tl.dot",
        auto o = expand_dims(offs(), 1) * B + expand_dims(offs(), 0);
        store(y + o, dot(load(x + o), load(x + o)))),
      S("tl.dot_scaled",
        // fp4 (e2m1, two a byte: K = 64) times fp8 (e4m3), e8m0 scales.
        auto bytes = reshape(load(x + arange(0, 512)), {16, 32});
        auto a = cast(bytes, DType::u8);
        auto b = cast(reshape(load(x + arange(0, 1024)), {64, 16}),
                      DType::f8e4m3fn);
        auto s = cast(reshape(load(ix + arange(0, 32)), {16, 2}), DType::u8);
        auto o = expand_dims(offs(), 1) * B + expand_dims(offs(), 0);
        store(y + o, dot_scaled(a, s, "e2m1", b, s, "e4m3"))),
      // Memory.
      S("tl.load", store(y + offs(), load(x + offs(), offs() < n, 0.0f))),
      S("tl.store", store(y + offs(), xs(x), offs() < n)),
      // Block pointers and tensor descriptors (ktc/BlockPtr.h).
      S("tl.make_block_ptr",
        auto p = make_block_ptr(x, {n, n}, {n, 1}, {0, 0}, {B, B}, {1, 0});
        auto q = make_block_ptr(y, {n, n}, {n, 1}, {0, 0}, {B, B}, {1, 0});
        store(q, load(p, {0, 1}, Padding::nan), {0, 1})),
      S("tl.advance",
        auto p = make_block_ptr(x, {n}, {1}, {0}, {B}, {0});
        store(y + offs(), load(advance(p, {B}), {0}))),
      S("tl.make_tensor_descriptor",
        auto d = make_tensor_descriptor(x, {n, n}, {n, 1}, {B, B});
        auto rows = expand_dims(offs(), 1), cols = expand_dims(offs(), 0);
        store(y + rows * B + cols, d.load({B, 0}))),
      S("tl.load_tensor_descriptor",
        auto d = make_tensor_descriptor(x, {n}, {1}, {B});
        store(y + offs(), load_tensor_descriptor(d, {program_id(0) * B}))),
      S("tl.store_tensor_descriptor",
        auto d = make_tensor_descriptor(y, {n}, {1}, {B});
        store_tensor_descriptor(d, {program_id(0) * B}, xs(x))),
      S("tl.tensor_descriptor",
        TensorDescriptor d = make_tensor_descriptor(y, {n}, {1}, {B});
        d.store({0}, xs(x))),
      // Indexing.
      S("tl.where", store(y + offs(), where(offs() < n, xs(x), 1.0f))),
      S("tl.flip", store(y + offs(), flip(xs(x), 0))),
      S("tl.swizzle2d",
        auto [i, j] = swizzle2d(offs() / 4, offs() % 4, 4, n, 2);
        store(ix + offs(), i * 4 + j)),
      // Math.
      S("tl.abs", store(y + offs(), abs(xs(x)))),
      S("tl.cdiv", store(ix + offs(), cdiv(offs(), n) + int(cdiv(7, 2)))),
      S("tl.ceil", store(y + offs(), ceil(xs(x)))),
      S("tl.clamp", store(y + offs(), clamp(xs(x), -1.0f, 1.0f))),
      S("tl.cos", store(y + offs(), cos(xs(x)))),
      S("tl.div_rn", store(y + offs(), div_rn(xs(x), 3.0f) + xs(x) / 3.0f)),
      S("tl.erf", store(y + offs(), erf(xs(x)))),
      S("tl.exp", store(y + offs(), exp(xs(x)) + fast_exp(xs(x)))),
      S("tl.exp2", store(y + offs(), exp2(xs(x)) + fast_exp2(xs(x)))),
      S("tl.fdiv", store(y + offs(), fdiv(xs(x), 3.0f))),
      S("tl.floor", store(y + offs(), floor(xs(x)))),
      S("tl.fma", store(y + offs(), fma(xs(x), xs(x), 1.0f))),
      S("tl.log", store(y + offs(), log(xs(x)) + fast_log(xs(x)))),
      S("tl.log2", store(y + offs(), log2(xs(x)) + fast_log2(xs(x)))),
      S("tl.maximum", store(y + offs(), maximum(xs(x), 0.0f,
                                                PropagateNan::all))),
      S("tl.minimum", store(y + offs(), minimum(xs(x), 0.0f))),
      S("tl.rsqrt", store(y + offs(), rsqrt(xs(x)))),
      S("tl.sin", store(y + offs(), sin(xs(x)))),
      S("tl.sigmoid", store(y + offs(), sigmoid(xs(x)))),
      S("tl.softmax", store(y + offs(), softmax(xs(x)))),
      S("tl.sqrt", store(y + offs(), sqrt(xs(x)))),
      S("tl.sqrt_rn", store(y + offs(), sqrt(xs(x)))),
      S("tl.umulhi", store(ix + offs(), umulhi(offs(), n))),
      // Reductions.
      S("tl.argmax", store(ix, argmax(xs(x)))),
      S("tl.argmin", store(ix, argmin(xs(x)))),
      S("tl.max", store(y, max(xs(x), 0))),
      S("tl.min", store(y, min(xs(x)))),
      S("tl.reduce", store(y, reduce(xs(x), 0, square))),
      S("tl.sum", store(y + expand_dims(arange(0, 4), 0),
                        sum(reshape(xs(x), {4, 4}), 0, true))),
      S("tl.xor_sum", store(ix, xor_sum(offs()))),
      // Scans.
      S("tl.associative_scan",
        store(y + offs(), associative_scan(xs(x), 0,
                                           [](Value a, Value b) {
                                             return maximum(a, b);
                                           }))),
      S("tl.cumprod", store(y + offs(), cumprod(xs(x)))),
      S("tl.cumsum", store(y + offs(), cumsum(xs(x), 0, true))),
      S("tl.histogram",
        store(ix + arange(0, 8), histogram(load(ix + offs()), 8, offs() < n))),
      S("tl.sort", store(y + offs(), sort(xs(x), 0, true))),
      S("tl.gather", store(y + offs(), gather(xs(x), load(ix + offs()), 0))),
      // Atomics.
      S("tl.atomic_add", atomic_add(y + offs(), xs(x))),
      S("tl.atomic_and", atomic_and(ix + offs(), 6)),
      S("tl.atomic_cas", atomic_cas(ix + offs(), 0, 1)),
      S("tl.atomic_max", atomic_max(y + offs(), xs(x), offs() < n)),
      S("tl.atomic_min", atomic_min(ix + offs(), 3)),
      S("tl.atomic_or", atomic_or(ix + offs(), 1, offs() < n,
                                  MemSem::relaxed)),
      S("tl.atomic_xchg", store(y + offs(), atomic_xchg(y + offs(), xs(x)))),
      S("tl.atomic_xor", atomic_xor(ix + offs(), 5, offs() < n,
                                    MemSem::acq_rel, MemScope::cta)),
      // Iterators and control flow.
      S("tl.range",
        Var acc = zeros({B}, DType::f32);
        for_range(0, n, B, [&](Value i) { acc = acc + load(x + i + offs()); });
        store(y + offs(), acc)),
      S("tl.static_range",
        Var acc = xs(x);
        for (int k = 0; k < 3; ++k) acc = acc * float(k + 1);
        store(y + offs(), acc)),
      S("if",
        Var v = xs(x);
        if_(n > 4, [&] { v = v + 1.0f; }, [&] { v = v - 1.0f; });
        store(y + offs(), v)),
      S("while",
        Var i = 0;
        Var acc = zeros({B}, DType::f32);
        while_([&] { return i < n; }, [&] {
          acc = acc + load(x + i + offs());
          i = i + B;
        });
        store(y + offs(), acc)),
      S("return", return_if(n < 0); store(y + offs(), xs(x))),
      S("return` in a loop or branch", // the row's first cell, trimmed
        for_range(0, n, 1, [&](Value i) {
          return_if(load(ix + i) < 0);
          store(y + i + offs(), xs(x));
        });
        store(ix, n)),
      // Random numbers.
      S("tl.randint", store(ix + offs(), randint(n, offs()))),
      S("tl.randint4x",
        auto r = randint4x(n, offs()); store(ix + offs(), r[0] ^ r[3])),
      S("tl.rand", store(y + offs(), rand(n, offs()))),
      S("tl.randn", store(y + offs(), randn(n, offs()))),
      // Hints.
      S("tl.assume", assume(n > 0); store(y + offs(), xs(x))),
      S("tl.debug_barrier",
        store(y + offs(), xs(x)); debug_barrier(); store(x + offs(), 1.0f)),
      S("tl.max_constancy",
        Value o = max_constancy(offs() / 4 * 4, 4); store(y + o, xs(x))),
      S("tl.multiple_of",
        Value o = multiple_of(offs(), B); store(y + o, xs(x))),
      S("tl.max_contiguous",
        Value o = max_contiguous(offs(), B); store(y + o, xs(x))),
      // Types.
      S("tl.int8", store(ix + offs(), cast(cast(xs(x), DType::i8), DType::i32))),
      S("tl.int16",
        store(ix + offs(), cast(cast(xs(x), DType::i16), DType::i32))),
      S("tl.uint8", store(ix + offs(), cast(cast(xs(x), DType::u8), DType::i32))),
      S("tl.uint16",
        store(ix + offs(), cast(cast(xs(x), DType::u16), DType::i32))),
      S("tl.uint32",
        store(ix + offs(), cast(cast(xs(x), DType::u32), DType::i32))),
      S("tl.uint64",
        store(ix + offs(), cast(cast(xs(x), DType::u64), DType::i32))),
      S("tl.float8e4nv",
        store(y + offs(), cast(cast(xs(x), DType::f8e4m3fn), DType::f32))),
      S("tl.float8e5",
        store(y + offs(), cast(cast(xs(x), DType::f8e5m2), DType::f32))),
      S("tl.float64",
        store(y + offs(), cast(cast(xs(x), DType::f64) * 2.0, DType::f32))),
      // Debug.
      S("tl.static_assert",
        static_assert_(B == 16, "a 16-wide block"); store(y + offs(), xs(x))),
      S("tl.device_print", device_print("x", xs(x)); store(y + offs(), xs(x))),
      S("tl.device_assert",
        device_assert(n >= 0, "n is a size"); store(y + offs(), xs(x))),
      S("tl.static_print",
        Value v = xs(x); std::printf("static_print: %s\n", v.type_str().c_str());
        store(y + offs(), v)),
      // Inline assembly: each target's own (the table compiles for sm_90
      // and the host).
      S("tl.inline_asm_elementwise",
        store(ix + offs(),
              inline_asm_elementwise({{"host", {"notl $0", "=r,0"}},
                                      {"nvptx", {"not.b32 $0, $1;", "=r,r"}},
                                      {"amdgpu", {"v_not_b32 $0, $1", "=v,v"}}},
                                     {load(ix + offs())}, DType::i32, true,
                                     1))),
      // Types.
      S("tl.int1", store(ix + offs(), (offs() < n).to(DType::i32))),
      S("tl.int32", store(ix + offs(), xs(x).to(DType::i32))),
      S("tl.int64", store(ix + offs(), (offs().to(DType::i64) * n)
                                           .to(DType::i32))),
      S("tl.float16", store(y + offs(), xs(x).to(DType::f16))),
      S("tl.bfloat16", store(y + offs(), xs(x).to(DType::bf16))),
      S("tl.float32", store(y + offs(), offs().to(DType::f32))),
  };
  return all;
}
#undef S

/// The rows of docs/triton.md: name (first cell, backticks and "tl."
/// kept) -> status (third cell).
std::map<std::string, std::string> tableRows() {
  std::ifstream file(KTC_TRITON_TABLE);
  EXPECT_TRUE(file) << "cannot read " << KTC_TRITON_TABLE;
  std::map<std::string, std::string> rows;
  std::string line;
  auto trim = [](std::string s) {
    size_t b = s.find_first_not_of(" `"), e = s.find_last_not_of(" `");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  while (std::getline(file, line)) {
    if (line.rfind("| `", 0) != 0)
      continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|'))
      cells.push_back(trim(cell));
    EXPECT_GE(cells.size(), 3u) << line;
    if (cells.size() >= 3)
      EXPECT_TRUE(rows.emplace(cells[0], cells[2]).second)
          << "row " << cells[0] << " twice";
  }
  return rows;
}

TEST(TritonTable, EveryRowHasAKnownStatus) {
  auto rows = tableRows();
  EXPECT_GT(rows.size(), 90u); // every section of triton.language
  for (const auto &[name, status] : rows)
    EXPECT_TRUE(status == "yes" || status == "not yet" ||
                status.rfind("pending: issue 19", 0) == 0)
        << name << ": '" << status << "'";
}

TEST(TritonTable, EveryYesRowHasASnippetAndEverySnippetARow) {
  auto rows = tableRows();
  for (const auto &[name, status] : rows)
    if (status == "yes")
      EXPECT_TRUE(snippets().count(name))
          << name << " is marked yes in docs/triton.md but has no snippet "
          << "in TritonTableTest.cpp";
  for (const auto &[name, fn] : snippets()) {
    auto it = rows.find(name);
    EXPECT_TRUE(it != rows.end() && it->second == "yes")
        << "snippet " << name << " has no row marked yes in docs/triton.md";
  }
}

TEST(TritonTable, EverySnippetCompiles) {
  for (const auto &[name, fn] : snippets()) {
    SCOPED_TRACE(name);
    try {
      auto kernel = Kernel("snippet", fn);
      std::string ptx = kernel.emit("asm", "sm_90");
      EXPECT_NE(ptx.find(".entry"), std::string::npos);
      std::string host = kernel.emit("llvm", "host");
      EXPECT_NE(host.find("define"), std::string::npos);
    } catch (const Error &e) {
      ADD_FAILURE() << e.what();
    }
  }
}

} // namespace
