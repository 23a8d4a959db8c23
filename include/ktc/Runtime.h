//===- ktc/Runtime.h - devices and buffers ----------------------*- C++ -*-===//
//
// One interface for every device: the host CPU, NVIDIA GPUs (CUDA) and AMD
// GPUs (HIP) behind the same calls. A Buffer<T> is memory on one device;
// kernels take Buffers for their Ptr<T> parameters.
//
//   ktc::Device &dev = ktc::Device::get();         // KTC_DEVICE or the best
//   ktc::Buffer<float> x(dev, host_vector);        // copied to the device
//   kernel.launch({ktc::cdiv(n, 1024)}, x, y, out, n, 1024);
//   std::vector<float> result = out.to_host();
//
//===----------------------------------------------------------------------===//

#ifndef KTC_RUNTIME_H
#define KTC_RUNTIME_H

#include "ktc/DType.h"
#include "ktc/Error.h"

#include <cstdint>
#include <memory>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

namespace ktc {

enum class DeviceKind : uint8_t { CPU, CUDA, HIP };
const char *name(DeviceKind kind);

namespace detail {
class DeviceImpl;
struct Allocation;
} // namespace detail

class Device;

/// One device of a kind as Device::list() finds it, without opening it.
struct DeviceInfo {
  DeviceKind kind = DeviceKind::CPU;
  int index = 0;             // "cuda:1" is index 1
  std::string name;          // "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X"
  std::string arch;          // "sm_90a", "gfx942:sramecc+:xnack-", "host"
  int compute_units = 0;     // SMs, CUs, or hardware threads
  /// "cuda:1": what Device::get() takes.
  std::string spec() const;
};

/// A point in a device's work, for timing it: `Event a = dev.record(); ...
/// launches ...; Event b = dev.record(); b.elapsed_ms(a)` (device events on
/// GPUs, the host clock on the CPU, whose launches are synchronous).
class Event {
public:
  /// Milliseconds from `start` to this event (waits for this event). An
  /// Event moved from holds nothing: using it is a ktc::Error at `loc`.
  double elapsed_ms(
      const Event &start,
      std::source_location loc = std::source_location::current()) const;
  ~Event();
  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;

private:
  friend class Device;
  Event(Device *device, void *handle) : device_(device), handle_(handle) {}
  Device *device_;
  void *handle_;
};

class Device {
public:
  /// The device named by `spec`: "cpu" (or "host"), "cuda", "hip", one of
  /// them with an index ("cuda:1", "hip:3", "cpu:0"), or "auto". Plain
  /// "cuda" / "hip" is the calling thread's current device (its current
  /// CUDA context, its hipSetDevice device; index 0 when it has none); a
  /// current CUDA context that is not its device's primary one gets a
  /// Device of its own, which launches in that context. "auto" takes
  /// KTC_DEVICE (the same spellings) when it is set, else the best device
  /// found (a GPU when one works, else the CPU). An index out of range or a
  /// kind absent is a ktc::Error naming the devices that exist. Devices
  /// live for the whole process; each is opened on first use.
  static Device &get(const std::string &spec = "auto",
                     std::source_location loc = std::source_location::current());
  /// The devices of `kind` in this process (none where it is absent), found
  /// without opening them. The host presents one CPU device, or
  /// KTC_HOST_DEVICES logical ones (for testing multi-device code).
  static std::vector<DeviceInfo> list(DeviceKind kind);
  /// list(kind).size().
  static int count(DeviceKind kind);

  DeviceKind kind() const;
  /// Its ordinal among the devices of its kind.
  int index() const;
  /// "cuda:1", as get() takes it.
  std::string spec() const;
  /// e.g. "cpu (8 threads)", "cuda:1 NVIDIA H100 (132 SMs, sm_90a)".
  std::string name() const;
  /// Programs that run at once: hardware threads on the CPU, compute units
  /// (SMs, CUs) on a GPU. Persistent kernels size their grid by it.
  int compute_units() const;
  /// Waits for all work launched on the device.
  void synchronize();
  /// Records an event after the work launched so far.
  Event record();

  detail::DeviceImpl &impl() const { return *impl_; }
  explicit Device(std::unique_ptr<detail::DeviceImpl> impl);
  ~Device();

private:
  std::unique_ptr<detail::DeviceImpl> impl_;
};

/// An application's stream on one device, for launches that follow its
/// order (`kernel.launch(ktc::Grid(n).on(stream), ...)`): a CUstream on a
/// CUDA device, a hipStream_t on a HIP device (null: the legacy / null
/// stream); on the host, whose launches are synchronous, the handle is
/// ignored. It does not own the stream: the application keeps it alive.
class Stream {
public:
  Stream() = default;
  explicit Stream(Device &device, void *handle = nullptr)
      : device_(&device), handle_(handle) {}
  Device *device() const { return device_; }
  void *handle() const { return handle_; }
  /// Waits for the work on the stream.
  void synchronize(
      std::source_location loc = std::source_location::current()) const;

private:
  Device *device_ = nullptr;
  void *handle_ = nullptr;
};

namespace detail {
/// Untyped device memory (shared by Buffer copies).
std::shared_ptr<Allocation> allocate(Device &device, size_t bytes,
                                     std::source_location loc);
/// The application's memory at `address` (not freed by ktc).
std::shared_ptr<Allocation> wrap(Device &device, const void *address,
                                 size_t bytes, std::source_location loc);
void *address(const Allocation &a);
Device &deviceOf(const Allocation &a);
void copyToDevice(Allocation &a, const void *src, size_t bytes);
void copyToHost(const Allocation &a, void *dst, size_t bytes);
} // namespace detail

template <typename T> class View;

/// `count` elements of T on one device. Copies share the memory; a Buffer
/// moved from holds none (using it is a ktc::Error, not a crash).
template <typename T> class Buffer {
public:
  static constexpr DType dtype = dtype_of<T>::value;

  Buffer(Device &device, size_t count,
         std::source_location loc = std::source_location::current())
      : count_(count),
        memory_(detail::allocate(device, bytesFor(count, loc), loc)) {}
  Buffer(Device &device, const std::vector<T> &values,
         std::source_location loc = std::source_location::current())
      : Buffer(device, values.size(), loc) {
    copy_from(values, loc);
  }
  Buffer(const Buffer &) = default;
  Buffer &operator=(const Buffer &) = default;
  Buffer(Buffer &&other) noexcept
      : count_(other.count_), memory_(std::move(other.memory_)) {
    other.count_ = 0;
  }
  Buffer &operator=(Buffer &&other) noexcept {
    count_ = other.count_;
    memory_ = std::move(other.memory_);
    if (&other != this)
      other.count_ = 0;
    return *this;
  }

  size_t size() const { return count_; }
  Device &device(
      std::source_location loc = std::source_location::current()) const {
    return detail::deviceOf(held("device", loc));
  }
  /// The address on the device.
  void *data(std::source_location loc = std::source_location::current()) const {
    return detail::address(held("data", loc));
  }
  /// Null for a Buffer moved from.
  const detail::Allocation *memory() const { return memory_.get(); }
  /// A View of `count` elements from element `offset` (to the end by
  /// default). It does not keep the buffer alive.
  View<T> view(size_t offset = 0, size_t count = SIZE_MAX,
               std::source_location loc = std::source_location::current()) const;

  void copy_from(const std::vector<T> &values,
                 std::source_location loc = std::source_location::current()) {
    detail::Allocation &memory = held("copy_from", loc);
    if (values.size() != count_)
      throw Error("Buffer::copy_from: " + std::to_string(values.size()) +
                      " values for a buffer of " + std::to_string(count_),
                  loc);
    if constexpr (std::is_same_v<T, bool>) { // std::vector<bool> is packed
      std::vector<uint8_t> bytes(values.begin(), values.end());
      detail::copyToDevice(memory, bytes.data(), count_);
    } else {
      detail::copyToDevice(memory, values.data(), count_ * sizeof(T));
    }
  }
  std::vector<T> to_host(
      std::source_location loc = std::source_location::current()) const {
    const detail::Allocation &memory = held("to_host", loc);
    if constexpr (std::is_same_v<T, bool>) { // std::vector<bool> is packed
      std::vector<uint8_t> bytes(count_);
      detail::copyToHost(memory, bytes.data(), count_);
      return std::vector<bool>(bytes.begin(), bytes.end());
    } else {
      std::vector<T> values(count_);
      detail::copyToHost(memory, values.data(), count_ * sizeof(T));
      return values;
    }
  }

private:
  static size_t bytesFor(size_t count, std::source_location loc) {
    if (count > SIZE_MAX / sizeof(T))
      throw Error(std::string("a Buffer<") + name(dtype) + "> of " +
                      std::to_string(count) +
                      " elements is larger than the address space",
                  loc);
    return count * sizeof(T);
  }
  detail::Allocation &held(const char *what, std::source_location loc) const {
    if (!memory_)
      throw Error(std::string("Buffer<") + name(dtype) + ">::" + what +
                      ": the buffer was moved from and holds no memory",
                  loc);
    return *memory_;
  }

  size_t count_;
  std::shared_ptr<detail::Allocation> memory_;
};

/// `count` elements of T that the application allocated (cudaMalloc,
/// hipMalloc, managed memory; on the host device, CPU memory), on
/// `device`: a kernel argument like a Buffer<T>, specialised on its real
/// alignment. ktc never frees it; the application keeps it alive while
/// kernels use it. Copies are views of the same memory.
template <typename T> class View {
public:
  static constexpr DType dtype = dtype_of<T>::value;

  View(Device &device, const void *address, size_t count,
       std::source_location loc = std::source_location::current())
      : count_(count),
        memory_(detail::wrap(device, address, bytesFor(count, loc), loc)) {}

  size_t size() const { return count_; }
  Device &device() const { return detail::deviceOf(*memory_); }
  void *data() const { return detail::address(*memory_); }
  const detail::Allocation *memory() const { return memory_.get(); }

  /// The `count` elements from element `offset` (to the end by default).
  View view(size_t offset, size_t count = SIZE_MAX,
            std::source_location loc = std::source_location::current()) const {
    if (offset > count_ || (count != SIZE_MAX && count > count_ - offset))
      throw Error("View<" + std::string(name(dtype)) + ">::view(" +
                      std::to_string(offset) + ", " +
                      (count == SIZE_MAX ? std::string("to the end")
                                         : std::to_string(count)) +
                      ") reaches past the view's " + std::to_string(count_) +
                      " elements",
                  loc);
    if (count == SIZE_MAX)
      count = count_ - offset;
    return View(device(), static_cast<const char *>(data()) + offset * sizeof(T),
                count, loc);
  }

  void copy_from(const std::vector<T> &values,
                 std::source_location loc = std::source_location::current()) {
    if (values.size() != count_)
      throw Error("View::copy_from: " + std::to_string(values.size()) +
                      " values for a view of " + std::to_string(count_),
                  loc);
    detail::copyToDevice(*memory_, values.data(), count_ * sizeof(T));
  }
  std::vector<T> to_host() const {
    std::vector<T> values(count_);
    detail::copyToHost(*memory_, values.data(), count_ * sizeof(T));
    return values;
  }

private:
  static_assert(!std::is_same_v<T, bool>, "View<bool> is not supported");
  static size_t bytesFor(size_t count, std::source_location loc) {
    if (count > SIZE_MAX / sizeof(T))
      throw Error(std::string("a View<") + name(dtype) + "> of " +
                      std::to_string(count) +
                      " elements is larger than the address space",
                  loc);
    return count * sizeof(T);
  }

  size_t count_;
  std::shared_ptr<detail::Allocation> memory_;
};

template <typename T>
View<T> Buffer<T>::view(size_t offset, size_t count,
                        std::source_location loc) const {
  return View<T>(device(loc), data(loc), count_, loc).view(offset, count, loc);
}

/// Stands for a Buffer<T> argument of Kernel::emit_as_launched() and
/// info_as_launched() where no buffer is at hand (an offline target such as
/// "gfx942"): a buffer as every device allocates it, at an address that is a
/// multiple of 16. It holds no memory: a launch refuses it.
template <typename T> struct AnyBuffer {
  static constexpr DType dtype = dtype_of<T>::value;
};

/// What a compiled kernel uses of the machine, read back from the code
/// object (AMDGPU notes) or the driver (CUDA). -1: not known for this target.
struct KernelInfo {
  std::string target;           // "gfx942", "sm_90", "host", ...
  int64_t registers = -1;       // VGPRs (AMD) or registers per thread
  int64_t scalar_registers = -1; // SGPRs (AMD)
  int64_t shared_bytes = 0;     // LDS / shared memory per workgroup (static + dynamic)
  int64_t scratch_bytes = 0;    // scratch / local memory per thread
  int64_t spills = 0;           // spilled registers
  int64_t wave_size = 0;
  int64_t max_threads = 0;      // threads per workgroup
};
/// "gfx942: 14 VGPRs, 14 SGPRs, 0 B LDS, 0 B scratch, 0 spills, wave64,
/// 256 threads".
std::string to_string(const KernelInfo &info);

/// What the compile cache did in this process. Kernels are compiled once per
/// specialisation and kept in memory; compiled code is also kept on disk
/// (KTC_CACHE_DIR, default ~/.cache/ktc; KTC_CACHE=off disables it), so
/// another process loads it instead of compiling.
struct CacheStats {
  uint64_t compiles = 0;        // kernels lowered and compiled
  bool disk_enabled = false;
  std::string disk_dir;
  uint64_t disk_hits = 0, disk_misses = 0;
  uint64_t disk_corrupt = 0;    // damaged entries found (and rebuilt)
  uint64_t disk_writes = 0, disk_write_failures = 0;
};
CacheStats cache_stats();

/// A launch grid of programs (x, y, z), e.g. `{cdiv(n, BLOCK)}`.
/// `Grid(x).on(stream)` launches on an application's Stream (its device
/// must be the buffers'); otherwise on the device's own stream.
struct Grid {
  Grid(int64_t x, int64_t y = 1, int64_t z = 1,
       std::source_location loc = std::source_location::current())
      : x(x), y(y), z(z), loc(loc) {}
  Grid on(const Stream &s) const {
    Grid g = *this;
    g.stream = s;
    return g;
  }
  int64_t x, y, z;
  std::source_location loc;
  Stream stream; // none: the device's own
};

} // namespace ktc

#endif // KTC_RUNTIME_H
