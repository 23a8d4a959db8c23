//===- example.h - what the example programs share ---------------*- C++ -*-===//
//
// Flags of the form --name=value, random inputs, the float64 check, and the
// last line every example prints (PASS or FAIL).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_COMMON_EXAMPLE_H
#define KTC_EXAMPLES_COMMON_EXAMPLE_H

#include "ktc/ktc.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace example {

/// --name=value flags; every flag must be one the program declared.
class Flags {
public:
  Flags(int argc, char **argv, std::map<std::string, std::string> defaults,
        const char *usage)
      : values_(std::move(defaults)) {
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        std::cout << usage;
        std::exit(0);
      }
      size_t eq = arg.find('=');
      std::string name = arg.substr(0, eq);
      if (arg.rfind("--", 0) != 0 || eq == std::string::npos ||
          !values_.count(name.substr(2)))
        fail("unknown or malformed argument '" + arg + "'\n" + usage);
      values_[name.substr(2)] = arg.substr(eq + 1);
    }
  }
  const std::string &str(const std::string &name) const {
    return values_.at(name);
  }
  int64_t integer(const std::string &name) const {
    const std::string &v = str(name);
    char *end = nullptr;
    long long n = std::strtoll(v.c_str(), &end, 0);
    if (v.empty() || *end)
      fail("--" + name + " needs an integer, got '" + v + "'");
    return n;
  }
  [[noreturn]] static void fail(const std::string &message) {
    std::cerr << "error: " << message << "\n";
    std::exit(2);
  }

private:
  std::map<std::string, std::string> values_;
};

/// Writes `text` to --out (or stdout).
inline int writeOut(const Flags &flags, const std::string &text) {
  const std::string &out = flags.str("out");
  if (out.empty() || out == "-") {
    std::cout << text;
    return 0;
  }
  std::ofstream file(out);
  file << text;
  if (!file)
    Flags::fail("cannot write '" + out + "'");
  return 0;
}

inline std::vector<float> randomVector(size_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

/// Prints the max relative error and the last line; returns the exit code.
inline int report(const std::vector<float> &got,
                  const std::vector<double> &want, double tolerance,
                  const std::string &what) {
  double worst = 0;
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double err = std::isfinite(got[i])
                     ? std::fabs(got[i] - want[i]) /
                           std::max(std::fabs(want[i]), 1e-30)
                     : INFINITY; // unwritten (poisoned) or broken
    worst = std::max(worst, err);
    bad += !(err <= tolerance);
  }
  std::printf("max relative error: %.3g (tolerance %.1g)\n", worst, tolerance);
  if (bad) {
    std::printf("FAIL %s: %zu of %zu elements off\n", what.c_str(), bad,
                got.size());
    return 1;
  }
  std::printf("PASS %s\n", what.c_str());
  return 0;
}

} // namespace example

#endif // KTC_EXAMPLES_COMMON_EXAMPLE_H
