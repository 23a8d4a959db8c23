//===- AtomicsTest.cpp - atomic_add, max, min, xchg, and/or/xor, cas ------===//
//
// The public API only, on Device("cpu") (or KTC_SHAPES_DEVICE's device, as
// DotTest), whose programs run on a pool of threads at once: every test
// makes programs collide on the same addresses. Integer results are
// checked exactly against a reference computed here (starting from random
// known contents, never zeros); float adds within the bound of any order
// of summation; float max/min bit for bit in Triton's order of the bits.
// Elements past the end are poisoned and must stay so.
//
//===----------------------------------------------------------------------===//

#include "ExpectError.h"
#include "ktc/ktc.h"
#include "TestDevice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace ktc;

namespace {

using test::testDevice;

int at = 0;

float f32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// Sizes with tails, and blocks small enough that the GPUs replicate them
/// (32 elements over 4 waves) and large enough for several per thread.
const int kSizes[] = {1, 37, 1000, 4099};
const int kBlocks[] = {32, 256, 1024};

//===----------------------------------------------------------------------===//
// Integer collisions: a histogram, one counter, masks
//===----------------------------------------------------------------------===//

/// bins[x[i]] += w (w = 1 + i % 3 through a mask of i < n).
template <typename T>
void histogram(Ptr<int32_t> x, Ptr<T> bins, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto b = load(x + offs, mask);
  atomic_add(bins + b, (offs % 3 + 1).to(DType::i32), mask);
}

template <typename T> void checkHistogram(int n, int block, int nbins) {
  SCOPED_TRACE("n " + std::to_string(n) + " block " + std::to_string(block) +
               " bins " + std::to_string(nbins));
  std::mt19937_64 gen(n * 31 + block + nbins);
  std::vector<int32_t> hx(n);
  for (int32_t &v : hx)
    v = int32_t(gen() % nbins);
  std::vector<T> init(nbins + 8);
  for (T &v : init)
    v = T(int64_t(gen() % 100000) - 50000) * (sizeof(T) == 8 ? 1000000 : 1);
  std::vector<T> ref = init;
  for (int i = 0; i < n; ++i)
    ref[hx[i]] += T(i % 3 + 1);
  Buffer<int32_t> x(testDevice(), hx);
  Buffer<T> bins(testDevice(), init);
  static auto kernel = Kernel("atomic_histogram", histogram<T>);
  kernel.launch({unsigned(cdiv(n, block))}, x, bins, n, block);
  EXPECT_EQ(bins.to_host(), ref); // the 8 past the bins untouched too
}

TEST(Atomics, HistogramI32) {
  for (int n : kSizes)
    for (int block : kBlocks)
      checkHistogram<int32_t>(n, block, 7);
  checkHistogram<int32_t>(4099, 256, 1);    // everything on one bin
  checkHistogram<int32_t>(1000, 128, 1000); // few collisions
}

TEST(Atomics, HistogramI64) {
  for (int n : kSizes)
    checkHistogram<int64_t>(n, 256, 5);
}

/// Every element of every program adds 1 to one counter and keeps the old
/// value: the olds are init, init + 1, ..., init + n - 1 in some order.
void ticket(Ptr<int32_t> counter, Ptr<int32_t> out, Int n, int BLOCK,
            int SCALAR) {
  auto pid = program_id(0);
  if (SCALAR) { // one ticket per program through a scalar pointer
    auto old = atomic_add(counter, 1);
    store(out + pid, old);
    return;
  }
  auto offs = pid * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto old = atomic_add(counter + zeros({BLOCK}, DType::i32), 1, mask);
  store(out + offs, old, mask);
}

TEST(Atomics, OneCounterGivesEveryOldValueOnce) {
  static auto kernel = Kernel("atomic_ticket", ticket);
  for (int scalar : {0, 1})
    for (int n : kSizes)
      for (int block : kBlocks) {
        if (scalar && block != 32)
          continue;
        SCOPED_TRACE("n " + std::to_string(n) + " block " +
                     std::to_string(block) + (scalar ? " scalar" : ""));
        const int32_t init = 12345, poison = -777;
        int programs = cdiv(n, block), count = scalar ? programs : n;
        Buffer<int32_t> counter(testDevice(), std::vector<int32_t>{init, 9});
        Buffer<int32_t> out(testDevice(),
                            std::vector<int32_t>(count + 4, poison));
        kernel.launch({unsigned(programs)}, counter, out, n, block, scalar);
        EXPECT_EQ(counter.to_host(), (std::vector<int32_t>{init + count, 9}));
        std::vector<int32_t> got = out.to_host();
        std::sort(got.begin(), got.begin() + count);
        for (int i = 0; i < count; ++i)
          ASSERT_EQ(got[i], init + i) << "the " << i << "th smallest old";
        for (int i = count; i < count + 4; ++i)
          ASSERT_EQ(got[i], poison) << "written past the end at " << i;
      }
}

/// x[i] |= bits where the mask (a third of the elements) says so; and the
/// old values where it did.
void maskedOr(Ptr<int64_t> x, Ptr<int64_t> out, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = (offs < n) & (offs % 3 == 1);
  auto old = atomic_or(x + offs, offs.to(DType::i64) * (int64_t(1) << 40) | 5,
                       mask);
  store(out + offs, old, mask);
}

TEST(Atomics, MaskedOffElementsAreUntouched) {
  static auto kernel = Kernel("atomic_masked_or", maskedOr);
  for (int n : kSizes) {
    std::mt19937_64 gen(n);
    std::vector<int64_t> init(n + 8), poison(n + 8, -1);
    for (int64_t &v : init)
      v = int64_t(gen());
    std::vector<int64_t> ref = init, refOut = poison;
    for (int i = 0; i < n; ++i)
      if (i % 3 == 1) {
        refOut[i] = init[i];
        ref[i] |= int64_t(i) << 40 | 5;
      }
    Buffer<int64_t> x(testDevice(), init), out(testDevice(), poison);
    kernel.launch({unsigned(cdiv(n, 128))}, x, out, n, 128);
    EXPECT_EQ(x.to_host(), ref) << "n " << n;
    EXPECT_EQ(out.to_host(), refOut) << "n " << n;
  }
}

//===----------------------------------------------------------------------===//
// Integer max, min, and, xor, xchg on colliding addresses
//===----------------------------------------------------------------------===//

/// op(x[i % m], v[i]) for every i < n, kind chosen by KIND.
template <typename T>
void intOps(Ptr<T> x, Ptr<T> v, Int n, Int m, int BLOCK, int KIND) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto p = x + offs % m;
  auto val = load(v + offs, mask);
  if (KIND == 0)
    atomic_max(p, val, mask);
  else if (KIND == 1)
    atomic_min(p, val, mask, MemSem::relaxed);
  else if (KIND == 2)
    atomic_and(p, val, mask, MemSem::acquire, MemScope::sys);
  else
    atomic_xor(p, val, mask, MemSem::release, MemScope::cta);
}

template <typename T> void checkIntOps(int n, int m) {
  static auto kernel = Kernel("atomic_int_ops", intOps<T>);
  std::mt19937_64 gen(n + m);
  for (int kind = 0; kind < 4; ++kind) {
    SCOPED_TRACE("kind " + std::to_string(kind) + " n " + std::to_string(n));
    std::vector<T> init(m + 4), hv(n);
    for (T &x : init)
      x = T(gen());
    for (T &x : hv) // negatives and positives, all bits for and/xor
      x = kind < 2 ? T(int64_t(gen() % 2000001) - 1000000) : T(gen());
    std::vector<T> ref = init;
    for (int i = 0; i < n; ++i) {
      T &r = ref[i % m];
      r = kind == 0   ? std::max(r, hv[i])
          : kind == 1 ? std::min(r, hv[i])
          : kind == 2 ? T(r & hv[i])
                      : T(r ^ hv[i]);
    }
    Buffer<T> x(testDevice(), init), v(testDevice(), hv);
    kernel.launch({unsigned(cdiv(n, 64))}, x, v, n, m, 64, kind);
    EXPECT_EQ(x.to_host(), ref);
  }
}

TEST(Atomics, IntegerMaxMinAndXor) {
  checkIntOps<int32_t>(1000, 3);
  checkIntOps<int32_t>(4099, 17);
  checkIntOps<int64_t>(999, 5);
}

/// xchg: each element its own address; the old contents come back.
void exchange(Ptr<float> x, Ptr<float> out, Int n, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  store(out + offs, atomic_xchg(x + offs, offs.to(DType::f32) * 0.5f, mask),
        mask);
}

TEST(Atomics, ExchangeReturnsTheOldContents) {
  static auto kernel = Kernel("atomic_exchange", exchange);
  int n = 1001;
  std::vector<float> init(n + 3), poison(n + 3, f32(0x7fbadbad));
  for (int i = 0; i < n + 3; ++i)
    init[i] = float(i) * -1.25f - 3;
  std::vector<float> ref = init, refOut = poison;
  for (int i = 0; i < n; ++i) {
    ref[i] = float(i) * 0.5f;
    refOut[i] = init[i];
  }
  Buffer<float> x(testDevice(), init), out(testDevice(), poison);
  kernel.launch({unsigned(cdiv(n, 32))}, x, out, n, 32);
  EXPECT_EQ(x.to_host(), ref);
  std::vector<float> got = out.to_host();
  for (int i = 0; i < n + 3; ++i)
    ASSERT_EQ(bitsOf(got[i]), bitsOf(refOut[i])) << "at " << i;
}

//===----------------------------------------------------------------------===//
// Floats
//===----------------------------------------------------------------------===//

/// x[i % m] += v[i] (f32) for every i < n.
void floatAdd(Ptr<float> x, Ptr<float> v, Int n, Int m, int BLOCK) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  atomic_add(x + offs % m, load(v + offs, mask), mask);
}

TEST(Atomics, FloatAddWithinTheBoundOfAnyOrder) {
  static auto kernel = Kernel("atomic_float_add", floatAdd);
  for (int n : {37, 1000, 4099})
    for (int m : {1, 7}) {
      std::mt19937_64 gen(n * m);
      std::uniform_real_distribution<float> dist(-1, 1);
      std::vector<float> init(m + 2), hv(n);
      for (float &x : init)
        x = dist(gen) * 10;
      for (float &x : hv)
        x = dist(gen);
      std::vector<double> ref(init.begin(), init.end()), mag(m + 2);
      std::vector<int> count(m + 2, 1);
      for (int i = 0; i < m + 2; ++i)
        mag[i] = std::fabs(init[i]);
      for (int i = 0; i < n; ++i) {
        ref[i % m] += hv[i];
        mag[i % m] += std::fabs(hv[i]);
        count[i % m] += 1;
      }
      Buffer<float> x(testDevice(), init), v(testDevice(), hv);
      kernel.launch({unsigned(cdiv(n, 256))}, x, v, n, m, 256);
      std::vector<float> got = x.to_host();
      for (int i = 0; i < m + 2; ++i) {
        // Any order of count - 1 f32 additions: within (count - 1) u of
        // the sum of magnitudes.
        double bound = (count[i] - 1) * std::ldexp(mag[i], -24);
        ASSERT_LE(std::fabs(got[i] - ref[i]), bound)
            << "n " << n << " m " << m << " at " << i;
      }
    }
}

/// Triton's order of f32 bits: -NaN < -inf < ... < -0 < +0 < ... < +inf <
/// +NaN, as an unsigned key.
uint32_t orderKey(float f) {
  uint32_t u = bitsOf(f);
  return u & 0x80000000u ? ~u : u | 0x80000000u;
}

/// max (MAX = 1) or min of v[i] into x[i % m], the old values kept.
void floatMaxMin(Ptr<float> x, Ptr<float> v, Ptr<float> out, Int n, Int m,
                 int BLOCK, int MAX) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto val = load(v + offs, mask);
  auto old = MAX ? atomic_max(x + offs % m, val, mask)
                 : atomic_min(x + offs % m, val, mask);
  store(out + offs, old, mask);
}

TEST(Atomics, FloatMaxMinInTritonsOrder) {
  static auto kernel = Kernel("atomic_float_max_min", floatMaxMin);
  const float specials[] = {-0.0f,     0.0f,       f32(0x7fc00000),
                            f32(0xffc00000), INFINITY, -INFINITY,
                            f32(0x00000001), f32(0x80000001)};
  for (int max : {1, 0})
    for (int m : {1, 5, 64}) {
      SCOPED_TRACE(std::string(max ? "max" : "min") + " m " +
                   std::to_string(m));
      int n = 777;
      std::mt19937_64 gen(m * 3 + max);
      std::uniform_real_distribution<float> dist(-100, 100);
      std::vector<float> init(m + 2), hv(n);
      for (float &x : init)
        x = dist(gen);
      for (float &x : hv)
        x = gen() % 8 == 0 ? specials[gen() % 8] : dist(gen);
      if (m == 64) { // the specials against each other, also as contents
        for (int i = 0; i < 8; ++i)
          init[i] = specials[i];
        for (int i = 0; i < 64; ++i)
          hv[i] = specials[(i / 8) % 8];
      }
      std::vector<float> ref = init;
      for (int i = 0; i < n; ++i) {
        float &r = ref[i % m];
        bool later = max ? orderKey(hv[i]) > orderKey(r)
                         : orderKey(hv[i]) < orderKey(r);
        if (later)
          r = hv[i];
      }
      Buffer<float> x(testDevice(), init), v(testDevice(), hv),
          out(testDevice(), std::vector<float>(n, 0.0f));
      kernel.launch({unsigned(cdiv(n, 128))}, x, v, out, n, m, 128, max);
      std::vector<float> got = x.to_host();
      for (int i = 0; i < m + 2; ++i)
        ASSERT_EQ(bitsOf(got[i]), bitsOf(ref[i]))
            << "at " << i << ": " << got[i] << " for " << ref[i];
      // Each old value was the contents at some point: never past the
      // final one in the order.
      std::vector<float> olds = out.to_host();
      for (int i = 0; i < n; ++i) {
        uint32_t o = orderKey(olds[i]), f = orderKey(ref[i % m]);
        ASSERT_TRUE(max ? o <= f : o >= f) << "old at " << i;
      }
    }
}

//===----------------------------------------------------------------------===//
// Compare and swap
//===----------------------------------------------------------------------===//

/// Every program tries once to take `lock` (0 -> pid + 1): one wins.
void tryLock(Ptr<int32_t> lock, Ptr<int32_t> out) {
  auto pid = program_id(0);
  store(out + pid, atomic_cas(lock, 0, pid + 1));
}

TEST(Atomics, CompareAndSwapHasOneWinner) {
  static auto kernel = Kernel("atomic_try_lock", tryLock);
  const int programs = 61;
  Buffer<int32_t> lock(testDevice(), std::vector<int32_t>{0, 42});
  Buffer<int32_t> out(testDevice(), std::vector<int32_t>(programs, -5));
  kernel.launch({unsigned(programs)}, lock, out);
  std::vector<int32_t> l = lock.to_host(), got = out.to_host();
  ASSERT_EQ(l[1], 42);
  int winner = l[0] - 1;
  ASSERT_GE(winner, 0);
  ASSERT_LT(winner, programs);
  for (int p = 0; p < programs; ++p)
    ASSERT_EQ(got[p], p == winner ? 0 : winner + 1) << "program " << p;
}

/// A spin lock around a plain load and store of a counter: at most TRIES
/// attempts per program; each program records whether it got in.
void lockedIncrement(Ptr<int32_t> lock, Ptr<int32_t> counter,
                     Ptr<int32_t> entered, int TRIES) {
  Var done = program_id(0) < 0; // false
  for_range(0, TRIES, 1, [&](Value) {
    if_(!done, [&] {
      if_(atomic_cas(lock, 0, 1, Operand(Loc()), MemSem::acquire) == 0, [&] {
        store(counter, load(counter) + 1);
        atomic_xchg(lock, 0, Operand(Loc()), MemSem::release);
        done = program_id(0) >= 0; // true
      });
    });
  });
  store(entered + program_id(0), cast(done, DType::i32));
}

TEST(Atomics, CompareAndSwapLockExcludes) {
  static auto kernel = Kernel("atomic_spin_lock", lockedIncrement);
  const int programs = 200, start = 1000;
  Buffer<int32_t> lock(testDevice(), std::vector<int32_t>{0});
  Buffer<int32_t> counter(testDevice(), std::vector<int32_t>{start});
  Buffer<int32_t> entered(testDevice(), std::vector<int32_t>(programs, -1));
  kernel.launch({unsigned(programs)}, lock, counter, entered, 1 << 20);
  std::vector<int32_t> e = entered.to_host();
  int in = 0;
  for (int32_t x : e) {
    ASSERT_TRUE(x == 0 || x == 1);
    in += x;
  }
  EXPECT_GT(in, 0);
  EXPECT_EQ(counter.to_host()[0], start + in); // no increment lost
  EXPECT_EQ(lock.to_host()[0], 0);
}

//===----------------------------------------------------------------------===//
// Errors at the user's line
//===----------------------------------------------------------------------===//

void expectError(const std::function<void()> &f, const std::string &message) {
  test::expectErrorAt(f, message, __FILE__, at);
}

TEST(Atomics, BadOperandsAreErrorsAtTheCall) {
  auto trace = [](auto body) {
    return [body] {
      Kernel("bad_atomic", [body](Ptr<float> f, Ptr<half> h, Ptr<int32_t> i) {
        body(f, h, i);
      }).mlir();
    };
  };
  using P = Ptr<float>;
  using H = Ptr<half>;
  using I = Ptr<int32_t>;
  expectError(trace([&](P f, H, I) {
                at = __LINE__ + 1;
                atomic_and(f + arange(0, 16), 1.0f);
              }),
              "atomic_and does not take !ktc.ptr<f32> (i32 and i64 "
              "pointees only)");
  expectError(trace([&](P, H h, I) {
                at = __LINE__ + 1;
                atomic_add(h, 1.0f);
              }),
              "atomic_add does not take !ktc.ptr<f16> (i32, i64 and f32 "
              "pointees only)");
  expectError(trace([&](P, H, I i) {
                at = __LINE__ + 1;
                atomic_add(i + arange(0, 16), arange(0, 16).to(DType::f32));
              }),
              "atomic_add: a value of type tensor<16xf32> does not go "
              "through !ktc.ptr<i32>; convert it with .to()");
  expectError(trace([&](P f, H, I) {
                at = __LINE__ + 1;
                atomic_max(f + arange(0, 16), 1.0f, arange(0, 16));
              }),
              "atomic_max mask must be boolean (i1), got tensor<16xi32>; "
              "compare to get one");
  expectError(trace([&](P, H, I i) {
                at = __LINE__ + 1;
                atomic_xchg(i, arange(0, 16));
              }),
              "atomic_xchg: a block of values or mask bits needs a block of "
              "pointers, got !ktc.ptr<i32>");
  expectError(trace([&](P, H, I i) {
                at = __LINE__ + 1;
                atomic_cas(i + arange(0, 16), arange(0, 8), 1);
              }),
              "atomic_cas: pointers tensor<16x!ktc.ptr<i32>>, value i32, "
              "compare value tensor<8xi32> do not broadcast to one shape");
  expectError(trace([&](P, H, I) {
                at = __LINE__ + 1;
                atomic_or(3, 1);
              }),
              "atomic_or needs a pointer or a block of pointers, not a "
              "literal");
}

} // namespace
