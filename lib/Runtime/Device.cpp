//===- Device.cpp - choosing devices, device memory ------------------------===//

#include "Device.h"

#include "lib/Support/Env.h"

#include "ktc/Occupancy.h"

#include <cstdlib>
#include <mutex>

namespace ktc {

const char *name(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::CPU:
    return "cpu";
  case DeviceKind::CUDA:
    return "cuda";
  case DeviceKind::HIP:
    return "hip";
  }
  return "?";
}

std::optional<DeviceLimits> limits_for(Device &device) {
  if (device.kind() == DeviceKind::CPU)
    return std::nullopt;
  std::optional<DeviceLimits> limits = limits_for(device.impl().target().name());
  if (limits)
    limits->compute_units = device.compute_units();
  if (limits && device.impl().maxSharedBytesPerBlock() > 0)
    limits->max_shared_bytes_per_workgroup =
        device.impl().maxSharedBytesPerBlock();
  return limits;
}

namespace detail {
Executable::~Executable() = default;
DeviceImpl::~DeviceImpl() = default;

Allocation::~Allocation() { device->impl().release(address); }

std::shared_ptr<Allocation> allocate(Device &device, size_t bytes,
                                     std::source_location loc) {
  void *address = device.impl().allocate(bytes);
  if (!address && bytes)
    throw Error("cannot allocate " + std::to_string(bytes) + " bytes on " +
                    device.name(),
                loc);
  return std::shared_ptr<Allocation>(new Allocation{&device, address, bytes});
}
void *address(const Allocation &a) { return a.address; }
Device &deviceOf(const Allocation &a) { return *a.device; }
void copyToDevice(Allocation &a, const void *src, size_t bytes) {
  a.device->impl().copyToDevice(a.address, src, bytes);
}
void copyToHost(const Allocation &a, void *dst, size_t bytes) {
  a.device->impl().copyToHost(dst, a.address, bytes);
}
} // namespace detail

Device::Device(std::unique_ptr<detail::DeviceImpl> impl)
    : impl_(std::move(impl)) {
  impl_->owner = this;
}
Device::~Device() = default;

DeviceKind Device::kind() const { return impl_->kind(); }
std::string Device::name() const { return impl_->name(); }
int Device::compute_units() const { return impl_->computeUnits(); }
void Device::synchronize() { impl_->synchronize(); }

Event Device::record() {
  void *event = impl_->createEvent();
  impl_->recordEvent(event);
  return Event(this, event);
}

double Event::elapsed_ms(const Event &start, std::source_location loc) const {
  if (!handle_ || !start.handle_)
    throw Error(std::string("Event::elapsed_ms: ") +
                    (handle_ ? "the start event" : "the event") +
                    " was moved from and holds no event",
                loc);
  if (start.device_ != device_)
    throw Error("Event::elapsed_ms: the events belong to different devices",
                loc);
  return device_->impl().elapsedMs(start.handle_, handle_);
}

Event::Event(Event &&other) noexcept
    : device_(other.device_), handle_(other.handle_) {
  other.handle_ = nullptr;
}

Event &Event::operator=(Event &&other) noexcept {
  if (&other != this) {
    if (handle_)
      device_->impl().destroyEvent(handle_);
    device_ = other.device_;
    handle_ = other.handle_;
    other.handle_ = nullptr;
  }
  return *this;
}

Event::~Event() {
  if (handle_)
    device_->impl().destroyEvent(handle_);
}

/// A device by kind, created on first use; null when it is not available
/// (`why` says why).
static Device *open(DeviceKind kind, std::string &why) {
  static std::mutex mutex;
  static std::unique_ptr<Device> devices[3];
  std::lock_guard<std::mutex> lock(mutex);
  auto &slot = devices[static_cast<int>(kind)];
  if (slot)
    return slot.get();
  switch (kind) {
  case DeviceKind::CPU:
    slot = std::make_unique<Device>(detail::createCpuDevice());
    return slot.get();
  case DeviceKind::CUDA:
    if (auto impl = detail::createCudaDevice(why)) {
      slot = std::make_unique<Device>(std::move(impl));
      return slot.get();
    }
    return nullptr;
  case DeviceKind::HIP:
    if (auto impl = detail::createHipDevice(why)) {
      slot = std::make_unique<Device>(std::move(impl));
      return slot.get();
    }
    return nullptr;
  }
  return nullptr;
}

Device &Device::get(const std::string &spec, std::source_location loc) {
  std::string chosen = spec;
  if (chosen == "auto") {
    if (auto env = env::word("KTC_DEVICE")) // "CPU", " cpu " too
      chosen = *env;
  }
  std::string why;
  if (chosen == "auto") {
    for (DeviceKind kind : {DeviceKind::CUDA, DeviceKind::HIP})
      if (Device *d = open(kind, why))
        return *d;
    return *open(DeviceKind::CPU, why);
  }
  for (DeviceKind kind : {DeviceKind::CPU, DeviceKind::CUDA, DeviceKind::HIP})
    if (chosen == ktc::name(kind)) {
      if (Device *d = open(kind, why))
        return *d;
      throw Error("device '" + chosen + "' is not available: " + why, loc);
    }
  throw Error("unknown device '" + chosen +
                  "' (expected auto, cpu, cuda or hip" +
                  (spec == "auto" ? ", from KTC_DEVICE" : "") + ")",
              loc);
}

} // namespace ktc

namespace ktc {
std::string to_string(const KernelInfo &info) {
  auto known = [](int64_t v, const char *unit) {
    return v < 0 ? std::string("? ") + unit : std::to_string(v) + " " + unit;
  };
  std::string s = info.target + ": " + known(info.registers, "registers");
  if (info.scalar_registers >= 0)
    s += ", " + std::to_string(info.scalar_registers) + " SGPRs";
  s += ", " + std::to_string(info.shared_bytes) + " B shared, " +
       std::to_string(info.scratch_bytes) + " B scratch, " +
       std::to_string(info.spills) + " spills";
  if (info.wave_size)
    s += ", wave" + std::to_string(info.wave_size);
  s += ", " + std::to_string(info.max_threads) + " threads";
  return s;
}
} // namespace ktc
