//===- Device.cpp - choosing devices, device memory ------------------------===//

#include "Device.h"

#include "lib/Support/Env.h"

#include "ktc/Occupancy.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>

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

Allocation::~Allocation() {
  if (owned)
    device->impl().release(address);
}

std::shared_ptr<Allocation> allocate(Device &device, size_t bytes,
                                     std::source_location loc) {
  void *address = device.impl().allocate(bytes);
  if (!address && bytes)
    throw Error("cannot allocate " + std::to_string(bytes) + " bytes on " +
                    device.name(),
                loc);
  return std::shared_ptr<Allocation>(new Allocation{&device, address, bytes});
}
std::shared_ptr<Allocation> wrap(Device &device, const void *address,
                                 size_t bytes, std::source_location loc) {
  if (!address && bytes)
    throw Error("a View of " + std::to_string(bytes) +
                    " bytes at a null address",
                loc);
  return std::shared_ptr<Allocation>(
      new Allocation{&device, const_cast<void *>(address), bytes, false});
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
  impl_->targetId = impl_->target().cacheId();
}
Device::~Device() = default;

DeviceKind Device::kind() const { return impl_->kind(); }
int Device::index() const { return impl_->index; }
std::string Device::spec() const {
  return std::string(ktc::name(kind())) + ":" + std::to_string(index());
}
std::string Device::name() const { return impl_->name(); }
int Device::compute_units() const { return impl_->computeUnits(); }
void Device::synchronize() { impl_->synchronize(); }

void Stream::synchronize(std::source_location loc) const {
  if (!device_)
    throw Error("Stream::synchronize: the stream has no device", loc);
  try {
    device_->impl().synchronizeStream(handle_);
  } catch (const Error &e) {
    if (!e.file().empty())
      throw;
    throw Error(e.message(), loc);
  }
}

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

namespace {

/// Every device this process has opened (by kind and index, and CUDA
/// devices of an application's own contexts), and the GPUs found, listed
/// once. Devices are never destroyed: callers keep references.
struct Registry {
  std::mutex mutex;
  std::map<std::pair<int, int>, std::unique_ptr<Device>> devices;
  std::map<void *, std::unique_ptr<Device>> contexts;
  std::optional<std::vector<DeviceInfo>> gpus[3]; // CUDA, HIP
  std::string why[3];                             // when none was found
};
Registry &registry() {
  static Registry *r = new Registry; // outlives static destructors
  return *r;
}

/// The GPUs of `kind` (with `r.mutex` held), listed on first use.
const std::vector<DeviceInfo> &gpus(Registry &r, DeviceKind kind) {
  int k = static_cast<int>(kind);
  if (!r.gpus[k])
    r.gpus[k] = kind == DeviceKind::CUDA ? detail::listCudaDevices(r.why[k])
                                         : detail::listHipDevices(r.why[k]);
  return *r.gpus[k];
}

std::vector<DeviceInfo> hostDevices() {
  std::vector<DeviceInfo> list;
  auto cpu = detail::createCpuDevice();
  for (int i = 0, n = detail::hostDeviceCount(); i < n; ++i)
    list.push_back(DeviceInfo{DeviceKind::CPU, i, cpu->name(),
                              cpu->target().name(), cpu->computeUnits()});
  return list;
}

/// "cuda:0 (NVIDIA H100, sm_90a, 132 compute units), cuda:1 (...)".
std::string describe(const std::vector<DeviceInfo> &list) {
  std::string s;
  for (const DeviceInfo &d : list)
    s += (s.empty() ? "" : ", ") + d.spec() + " (" + d.name + ", " + d.arch +
         ")";
  return s;
}

/// What exists, for errors: "cpu:0, cuda:0, cuda:1" (kinds absent left out).
std::string existing(Registry &r) {
  std::string s = "cpu:0";
  for (int i = 1, n = detail::hostDeviceCount(); i < n; ++i)
    s += ", cpu:" + std::to_string(i);
  for (DeviceKind kind : {DeviceKind::CUDA, DeviceKind::HIP})
    for (const DeviceInfo &d : gpus(r, kind))
      s += ", " + d.spec();
  return s;
}

/// Device `index` of `kind` (with `r.mutex` held), opened on first use;
/// `spec` and `loc` for errors.
Device &open(Registry &r, DeviceKind kind, int index, const std::string &spec,
             const std::string &from, std::source_location loc) {
  int k = static_cast<int>(kind);
  auto &slot = r.devices[{k, index}];
  if (slot)
    return *slot;
  if (kind == DeviceKind::CPU) {
    int n = detail::hostDeviceCount();
    if (index >= n)
      throw Error("device '" + spec + "'" + from +
                      " does not exist: this process presents " +
                      std::to_string(n) + " host device" +
                      (n == 1 ? "" : "s") + " (cpu:0" +
                      (n > 1 ? " to cpu:" + std::to_string(n - 1) : "") +
                      "; KTC_HOST_DEVICES=N presents N logical ones)",
                  loc);
    slot = std::make_unique<Device>(detail::createCpuDevice(index));
    return *slot;
  }
  const std::vector<DeviceInfo> &list = gpus(r, kind);
  if (list.empty())
    throw Error("device '" + spec + "'" + from + " is not available: " +
                    r.why[k] + "; devices here: " + existing(r),
                loc);
  if (index >= int(list.size()))
    throw Error("device '" + spec + "'" + from +
                    " does not exist: this process has " +
                    std::to_string(list.size()) + " " +
                    (kind == DeviceKind::CUDA ? "CUDA" : "HIP") + " device" +
                    (list.size() == 1 ? "" : "s") + ": " + describe(list),
                loc);
  std::string why;
  std::unique_ptr<detail::DeviceImpl> impl =
      kind == DeviceKind::CUDA ? detail::createCudaDevice(index, nullptr, why)
                               : detail::createHipDevice(index, why);
  if (!impl)
    throw Error("device '" + spec + "'" + from + " is not available: " + why,
                loc);
  slot = std::make_unique<Device>(std::move(impl));
  return *slot;
}

/// The calling thread's current device of `kind` (with `r.mutex` held).
Device &current(Registry &r, DeviceKind kind, const std::string &spec,
                const std::string &from, std::source_location loc) {
  if (kind == DeviceKind::CPU)
    return open(r, kind, 0, spec, from, loc);
  if (gpus(r, kind).empty()) // not available: open() says why
    return open(r, kind, 0, spec, from, loc);
  if (kind == DeviceKind::HIP)
    return open(r, kind, detail::currentHipDevice(), spec, from, loc);
  void *context = nullptr;
  int index = detail::currentCudaDevice(context);
  if (index < 0)
    return open(r, kind, 0, spec, from, loc);
  if (!context)
    return open(r, kind, index, spec, from, loc);
  auto &slot = r.contexts[context]; // the application's own context
  if (!slot) {
    std::string why;
    auto impl = detail::createCudaDevice(index, context, why);
    if (!impl)
      throw Error("the current CUDA context (on cuda:" +
                      std::to_string(index) + ") cannot be used: " + why,
                  loc);
    slot = std::make_unique<Device>(std::move(impl));
  }
  return *slot;
}

/// Parses "kind[:index]"; false if it is not spelt so.
bool parse(const std::string &spec, DeviceKind &kind, int &index) {
  std::string word = spec;
  index = -1;
  if (size_t colon = spec.find(':'); colon != std::string::npos) {
    word = spec.substr(0, colon);
    std::string digits = spec.substr(colon + 1);
    if (digits.empty() || digits.size() > 4 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      return false;
    index = std::stoi(digits);
  }
  if (word == "cpu" || word == "host")
    kind = DeviceKind::CPU;
  else if (word == "cuda")
    kind = DeviceKind::CUDA;
  else if (word == "hip")
    kind = DeviceKind::HIP;
  else
    return false;
  return true;
}

} // namespace

std::string DeviceInfo::spec() const {
  return std::string(ktc::name(kind)) + ":" + std::to_string(index);
}

std::vector<DeviceInfo> Device::list(DeviceKind kind) {
  if (kind == DeviceKind::CPU)
    return hostDevices();
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return gpus(r, kind);
}

int Device::count(DeviceKind kind) { return int(list(kind).size()); }

Device &Device::get(const std::string &spec, std::source_location loc) {
  std::string chosen = spec;
  std::string from;
  if (chosen == "auto") {
    if (auto env = env::word("KTC_DEVICE")) { // "CPU", " cuda:1 " too
      chosen = *env;
      from = " (from KTC_DEVICE)";
    }
  }
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (chosen == "auto") {
    for (DeviceKind kind : {DeviceKind::CUDA, DeviceKind::HIP})
      if (!gpus(r, kind).empty())
        return current(r, kind, ktc::name(kind), "", loc);
    return open(r, DeviceKind::CPU, 0, "cpu", "", loc);
  }
  DeviceKind kind;
  int index;
  if (!parse(chosen, kind, index))
    throw Error("unknown device '" + chosen +
                    "' (expected auto, cpu, host, cuda or hip, or one with "
                    "an index such as cuda:1" +
                    (from.empty() ? "" : ", from KTC_DEVICE") + ")",
                loc);
  if (index < 0)
    return current(r, kind, chosen, from, loc);
  return open(r, kind, index, chosen, from, loc);
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
