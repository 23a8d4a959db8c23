//===- ktc/Autotune.h - picking a kernel's best config per key ---*- C++ -*-===//
//
// The counterpart of @triton.autotune (library KtcAutotune):
//
//   auto add = ktc::Kernel("add", {"x", "y", "out", "n", "BLOCK_SIZE"},
//                          seeds::vector_add);
//   auto tuned = ktc::Autotuner(add,
//       {ktc::Config({{"BLOCK_SIZE", 256}}, {.num_warps = 2}),
//        ktc::Config({{"BLOCK_SIZE", 1024}}, {.num_warps = 4})},
//       /*key=*/{"n"});
//   // The tuned constexprs are left out of the arguments; the grid is a
//   // function of the config.
//   tuned.launch([&](const ktc::Config &c) {
//     return ktc::Grid(ktc::cdiv(n, c["BLOCK_SIZE"]));
//   }, x, y, out, n);
//
// On a launch whose key arguments (by name) have values not seen before,
// every config is timed with ktc::bench::do_bench on the launch's own
// arguments and device; the fastest is kept in memory and in the disk cache
// (KTC_CACHE_DIR), so later launches and later processes go straight to it.
// A config that fails to compile is skipped (and reported). Output buffers
// are written by every timed run: the winner runs once more at the end, so
// they hold its result; a kernel that reads what it writes (in place) must
// have its inputs restored by the caller before using the result.
//
// KTC_AUTOTUNE_LOG=1 (or AutotuneOptions::verbose) prints each config's time.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_AUTOTUNE_H
#define KTC_AUTOTUNE_H

#include "ktc/Bench.h"
#include "ktc/Kernel.h"

#include <functional>
#include <map>
#include <memory>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

namespace ktc {

/// A constexpr's name as Config::operator[] takes it: converted from the
/// caller's string, it records the caller's line (operator[] takes one
/// argument only, so no default source_location of its own).
struct ConstexprName {
  ConstexprName(const char *name,
                std::source_location loc = std::source_location::current())
      : name(name), loc(loc) {}
  ConstexprName(const std::string &name,
                std::source_location loc = std::source_location::current())
      : name(name), loc(loc) {}
  std::string name;
  std::source_location loc;
};

/// One candidate: values of some of the kernel's integer constexpr
/// parameters, by name, and launch options.
struct Config {
  Config(std::map<std::string, int64_t> values, Options options = {})
      : values(std::move(values)), options(options) {}
  std::map<std::string, int64_t> values;
  Options options;
  /// The value of constexpr `name`; throws ktc::Error at the caller's line
  /// if the config has none.
  int64_t operator[](const ConstexprName &name) const;
  /// "BLOCK_SIZE=1024, num_warps=4, num_stages=1".
  std::string str() const;
};

struct AutotuneOptions {
  /// Print each config's time and the winner (also KTC_AUTOTUNE_LOG=1).
  bool verbose = false;
  /// How each config is timed.
  bench::Options bench;
  /// Keep winners in the disk cache (when it is enabled).
  bool disk = true;
};

/// The grid of a tuned launch: a function of the config.
struct TunedGrid {
  template <typename G>
  TunedGrid(G grid, std::source_location loc = std::source_location::current())
      : fn(std::move(grid)), loc(loc) {}
  std::function<Grid(const Config &)> fn;
  std::source_location loc;
};

namespace detail {

/// What does not depend on the kernel's C++ type (lib/Autotune).
class AutotunerImpl {
public:
  AutotunerImpl(std::string kernel, std::vector<ParamSpec> params,
                std::vector<Config> configs, std::vector<std::string> key,
                AutotuneOptions options, std::source_location loc);
  /// The full arguments of `config`: the user's, with the tuned constexprs
  /// put in their places.
  std::vector<LaunchArg> arguments(const std::vector<LaunchArg> &user,
                                   const Config &config,
                                   std::source_location loc) const;
  /// The config to launch for these arguments: remembered, read from disk,
  /// or timed now with run(config index). `identity` names the kernel's
  /// code (its IR with the first config that traces).
  size_t choose(Device &device, const std::vector<LaunchArg> &user,
                const std::function<std::string()> &identity,
                const std::function<void(size_t)> &run,
                std::source_location loc);

  const std::vector<Config> &configs() const { return configs_; }
  size_t tunedKeys() const;

private:
  std::string keyOf(const std::vector<LaunchArg> &user) const;

  std::string kernel_;
  std::vector<ParamSpec> params_;
  std::vector<Config> configs_;
  std::vector<std::string> key_;
  std::vector<size_t> keyIndex_;   // user-argument index of each key
  std::vector<size_t> tunedParam_; // parameter index of each tuned name
  AutotuneOptions options_;
  struct State;
  std::shared_ptr<State> state_;
};

} // namespace detail

template <typename F> class Autotuner {
public:
  /// `configs` set constexprs by name (every config the same names) and
  /// options; `key` names the runtime arguments whose values select a
  /// tuning (e.g. the problem size).
  Autotuner(const Kernel<F> &kernel, std::vector<Config> configs,
            std::vector<std::string> key, AutotuneOptions options = {},
            std::source_location loc = std::source_location::current())
      : kernel_(kernel),
        impl_(std::make_shared<detail::AutotunerImpl>(
            kernel.name(), kernel.param_specs(), std::move(configs),
            std::move(key), std::move(options), loc)) {}

  /// Launches the best config for these arguments: every parameter of the
  /// kernel in order except the tuned constexprs.
  template <typename... A>
  void launch(const TunedGrid &grid, const A &...args) const {
    std::vector<detail::LaunchArg> user{detail::LaunchArg(args)...};
    auto full = [&](size_t i) {
      return impl_->arguments(user, impl_->configs()[i], grid.loc);
    };
    auto run = [&](size_t i) {
      const Config &c = impl_->configs()[i];
      Grid g = grid.fn(c);
      g.loc = grid.loc;
      kernel_.launch_with(g, c.options, full(i));
    };
    std::vector<detail::LaunchArg> first = full(0);
    Device &device = detail::launchDevice(kernel_.name(), kernel_.param_specs(),
                                          first, Grid(1, 1, 1, grid.loc));
    auto identity = [&] { // the first config that traces
      for (size_t i = 0; i < impl_->configs().size(); ++i) {
        try {
          return kernel_.ir_for(full(i), impl_->configs()[i].options,
                                grid.loc);
        } catch (const Error &) {
        }
      }
      return std::string();
    };
    best_ = impl_->choose(device, user, identity, run, grid.loc);
    run(best_);
  }

  /// The config of the last launch.
  const Config &best() const { return impl_->configs().at(best_); }
  /// How many keys have been tuned (in this process or read from disk).
  size_t num_tuned() const { return impl_->tunedKeys(); }

private:
  Kernel<F> kernel_; // a copy shares the kernel's compiled code
  std::shared_ptr<detail::AutotunerImpl> impl_;
  mutable size_t best_ = 0;
};

template <typename F>
Autotuner(const Kernel<F> &, std::vector<Config>, std::vector<std::string>,
          AutotuneOptions = {},
          std::source_location = std::source_location::current())
    -> Autotuner<F>;

} // namespace ktc

#endif // KTC_AUTOTUNE_H
