//===- Autotune.cpp - choosing a kernel's config per key -------------------===//
//
// The part of ktc::Autotuner that does not depend on the kernel's C++ type:
// checking the configs against the parameters, merging the tuned constexprs
// into a launch's arguments, and choosing a config per key (remembered, read
// from the disk cache, or timed with the benchmark harness).
//
//===----------------------------------------------------------------------===//

#include "ktc/Autotune.h"

#include "lib/Cache/DiskCache.h"
#include "lib/Runtime/Device.h"
#include "lib/Support/Env.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>

namespace ktc {

int64_t Config::operator[](const ConstexprName &name) const {
  auto it = values.find(name.name);
  if (it == values.end())
    throw Error("config (" + str() + ") sets no constexpr '" + name.name + "'",
                name.loc);
  return it->second;
}

std::string Config::str() const {
  std::string s;
  for (const auto &[name, value] : values)
    s += name + "=" + std::to_string(value) + ", ";
  return s + "num_warps=" + std::to_string(options.num_warps) +
         ", num_stages=" + std::to_string(options.num_stages);
}

namespace detail {

struct AutotunerImpl::State {
  std::mutex mutex;
  std::map<std::string, size_t> chosen; // target id + key -> config index
};

static bool logging(const AutotuneOptions &options) {
  if (options.verbose)
    return true;
  return env::flag("KTC_AUTOTUNE_LOG", false);
}

AutotunerImpl::AutotunerImpl(std::string kernel, std::vector<ParamSpec> params,
                             std::vector<Config> configs,
                             std::vector<std::string> key,
                             AutotuneOptions options, std::source_location loc)
    : kernel_(std::move(kernel)), params_(std::move(params)),
      configs_(std::move(configs)), key_(std::move(key)),
      options_(std::move(options)), state_(std::make_shared<State>()) {
  std::string what = "autotuning kernel '" + kernel_ + "': ";
  if (configs_.empty())
    throw Error(what + "no configs", loc);
  auto find = [&](const std::string &name) -> size_t {
    for (size_t i = 0; i < params_.size(); ++i)
      if (params_[i].name == name)
        return i;
    throw Error(what + "no parameter named '" + name +
                    "' (name the parameters: Kernel(name, {names...}, fn))",
                loc);
  };
  for (const auto &[name, value] : configs_[0].values) {
    size_t i = find(name);
    if (params_[i].runtime ||
        params_[i].value.kind != ConstexprValue::Kind::Int)
      throw Error(what + "'" + name +
                      "' is not an integer constexpr parameter; configs set "
                      "integer constexprs",
                  loc);
    tunedParam_.push_back(i);
  }
  for (const Config &c : configs_) {
    if (c.values.size() != configs_[0].values.size() ||
        !std::equal(c.values.begin(), c.values.end(),
                    configs_[0].values.begin(),
                    [](const auto &a, const auto &b) {
                      return a.first == b.first;
                    }))
      throw Error(what + "config (" + c.str() +
                      ") does not set the same constexprs as config (" +
                      configs_[0].str() + ")",
                  loc);
    checkOptions(c.options, loc);
  }
  // Key arguments by their index among the user's arguments (the tuned
  // constexprs are not passed).
  for (const std::string &name : key_) {
    size_t i = find(name);
    if (std::count(tunedParam_.begin(), tunedParam_.end(), i))
      throw Error(what + "key '" + name + "' is a tuned constexpr", loc);
    size_t before = std::count_if(tunedParam_.begin(), tunedParam_.end(),
                                  [&](size_t t) { return t < i; });
    keyIndex_.push_back(i - before);
  }
}

std::vector<LaunchArg>
AutotunerImpl::arguments(const std::vector<LaunchArg> &user,
                         const Config &config, std::source_location loc) const {
  size_t want = params_.size() - tunedParam_.size();
  if (user.size() != want) {
    std::string names;
    for (size_t i = 0; i < params_.size(); ++i)
      if (!std::count(tunedParam_.begin(), tunedParam_.end(), i))
        names += (names.empty() ? "" : ", ") +
                 (params_[i].name.empty() ? "arg" + std::to_string(i + 1)
                                          : params_[i].name);
    throw Error("autotuned kernel '" + kernel_ + "' takes " +
                    std::to_string(want) + " arguments (" + names +
                    "; the configs set the rest), got " +
                    std::to_string(user.size()),
                loc);
  }
  std::vector<LaunchArg> full;
  full.reserve(params_.size());
  for (size_t i = 0, u = 0; i < params_.size(); ++i) {
    if (std::count(tunedParam_.begin(), tunedParam_.end(), i))
      full.push_back(LaunchArg(config.values.at(params_[i].name)));
    else
      full.push_back(user[u++]);
  }
  return full;
}

std::string AutotunerImpl::keyOf(const std::vector<LaunchArg> &user) const {
  std::ostringstream key;
  for (size_t k = 0; k < key_.size(); ++k) {
    const LaunchArg &a = user.at(keyIndex_[k]);
    key << (k ? ", " : "") << key_[k] << "=";
    switch (a.kind) {
    case LaunchArg::Kind::Int:
    case LaunchArg::Kind::Bool:
      key << a.i;
      break;
    case LaunchArg::Kind::Float:
      key << a.f;
      break;
    case LaunchArg::Kind::Buffer:
    case LaunchArg::Kind::AnyBuffer:
      key << name(a.dtype) << "[" << a.count << "]";
      break;
    case LaunchArg::Kind::Null:
      key << "null";
      break;
    }
  }
  // Like Triton, the element types of all buffers are part of the key.
  for (const LaunchArg &a : user)
    if (a.kind == LaunchArg::Kind::Buffer)
      key << " " << name(a.dtype);
  return key.str();
}

size_t AutotunerImpl::tunedKeys() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->chosen.size();
}

size_t AutotunerImpl::choose(Device &device, const std::vector<LaunchArg> &user,
                             const std::function<std::string()> &identity,
                             const std::function<void(size_t)> &run,
                             std::source_location loc) {
  std::string key = keyOf(user);
  // Winners are kept per target arch: devices of one arch share them, a
  // device of another arch tunes its own.
  std::string chosenKey = device.impl().targetId + "\n" + key;
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (auto it = state_->chosen.find(chosenKey); it != state_->chosen.end())
    return it->second;
  bool log = logging(options_);
  std::string tag = kernel_ + " [" + key + "]";

  // The disk cache: the winner for this kernel's code, configs, key and
  // device, from an earlier process.
  cache::DiskCache &disk = cache::DiskCache::global();
  std::string diskKey;
  if (options_.disk && disk.enabled()) {
    cache::KeyBuilder k;
    k.add("ktc autotune").add(compiler::buildId()).add(device.impl().target().cacheId());
    k.add(identity()).add(key);
    for (const Config &c : configs_)
      k.add(c.str());
    diskKey = k.hex();
    if (std::optional<std::string> entry = disk.get(diskKey)) {
      // "index\nconfig": both must still agree with the configs.
      auto [index, text] = llvm::StringRef(*entry).split('\n');
      size_t i = 0;
      if (!index.getAsInteger(10, i) && i < configs_.size() &&
          text == configs_[i].str()) {
        if (log)
          std::fprintf(stderr, "ktc: autotune %s: config %zu of %zu (%s), "
                       "chosen earlier (disk cache)\n",
                       tag.c_str(), i + 1, configs_.size(), text.str().c_str());
        state_->chosen[chosenKey] = i;
        return i;
      }
    }
  }

  std::vector<double> times(configs_.size(),
                            std::numeric_limits<double>::infinity());
  std::string firstError;
  for (size_t i = 0; i < configs_.size(); ++i) {
    try {
      times[i] = bench::do_bench(device, [&] { run(i); }, options_.bench, loc)
                     .median_ms;
      if (log)
        std::fprintf(stderr, "ktc: autotune %s: config %zu of %zu (%s): "
                     "%.4f ms\n",
                     tag.c_str(), i + 1, configs_.size(),
                     configs_[i].str().c_str(), times[i]);
    } catch (const Error &e) {
      if (firstError.empty())
        firstError = e.message();
      if (log)
        std::fprintf(stderr, "ktc: autotune %s: config %zu of %zu (%s) "
                     "skipped: %s\n",
                     tag.c_str(), i + 1, configs_.size(),
                     configs_[i].str().c_str(), e.message().c_str());
    }
  }
  size_t best = std::min_element(times.begin(), times.end()) - times.begin();
  if (std::isinf(times[best]))
    throw Error("autotuning kernel '" + kernel_ + "': no config ran; the "
                "first failed with: " + firstError,
                loc);
  if (log)
    std::fprintf(stderr, "ktc: autotune %s: best is config %zu of %zu (%s), "
                 "%.4f ms\n",
                 tag.c_str(), best + 1, configs_.size(),
                 configs_[best].str().c_str(), times[best]);
  state_->chosen[chosenKey] = best;
  if (!diskKey.empty())
    disk.put(diskKey, std::to_string(best) + "\n" + configs_[best].str());
  return best;
}

} // namespace detail
} // namespace ktc
