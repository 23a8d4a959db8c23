//===- SharedMemory.cpp - a tile through more shared memory than 48 KiB ===//

#include "Conformance.h"

#include "ktc/Occupancy.h"

#include <random>

namespace conformance {

/// A 128x256 f32 block stored transposed, and its row and column maxima:
/// the tile changes layout through shared memory, 128 KiB (rows swizzled), more than the 48 KiB PTX declares statically (on CUDA the PTX
/// declares it dynamic and the launch asks for it, issue 22 item 5); the
/// maxima combine in registers, lanes and a few partials per wave. On
/// stderr what the kernel uses and what the device allows.
void sharedMemoryRows(Context &c) {
  auto k = Kernel("conf_shared_128k", [](Ptr<float> x, Ptr<float> out) {
    auto r = arange(0, 128), col = arange(0, 256);
    auto tile = load(x + expand_dims(r, 1) * 256 + expand_dims(col, 0));
    store(out + r, max(tile, 1));
    store(out + 128 + col, max(tile, 0));
    store(out + 384 + expand_dims(col, 0) * 128 + expand_dims(r, 1), tile);
  });
  constexpr int kOut = 384 + 128 * 256;
  constexpr int kShared = 128 * 256 * 4;
  std::vector<float> x(128 * 256);
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> u(-1000.f, 1000.f);
  for (float &v : x)
    v = u(rng);
  Row r = c.row("conf_shared_128k",
                "max (2-D both axes), a tile transposed through 128 KiB of "
                "shared memory", "f32", kOut);
  r.exact = true;
  // Where a workgroup may not have 128 KiB (an AMD workgroup's 64 KiB LDS;
  // gfx950's 160 KiB would do), the compile is refused, as it must be: no
  // row there (SharedMemoryTest checks the refusal).
  std::optional<DeviceLimits> limits =
      c.device ? limits_for(*c.device) : limits_for(c.compile);
  if (limits && limits->max_shared_bytes_per_workgroup < kShared) {
    std::fprintf(stderr, "conf_shared_128k: skipped: %s allows %d bytes of "
                         "shared memory a workgroup\n",
                 limits->arch.c_str(), limits->max_shared_bytes_per_workgroup);
    return;
  }
  c.entry({r}, k, [&] {
    auto [got, host] =
        runBoth<float>(c, kOut, 42.0f, [&](Device &d, Buffer<float> &out) {
          Buffer<float> bx(d, x);
          k.launch({1}, bx, out);
        });
    std::vector<double> want(kOut, -INFINITY);
    for (int i = 0; i < 128; ++i)
      for (int j = 0; j < 256; ++j) {
        double v = x[i * 256 + j];
        want[i] = std::max(want[i], v);
        want[128 + j] = std::max(want[128 + j], v);
        want[384 + j * 128 + i] = v;
      }
    for (int i = 0; i < kOut; ++i)
      r.maxUlp = std::max(r.maxUlp, ulpError(got[i], want[i], F32));
    if (c.host)
      r.hostDiffs = bitDiffs(got, host);
    c.rows.push_back(r);
    KernelInfo info = k.info(*c.device);
    std::fprintf(stderr,
                 "conf_shared_128k: %s; shared memory %lld bytes "
                 "unspecialised (launched with aligned buffers: 131072); "
                 "the device allows %d per block\n",
                 to_string(info).c_str(), (long long)info.shared_bytes,
                 limits ? limits->max_shared_bytes_per_workgroup : 0);
  });
}

} // namespace conformance
