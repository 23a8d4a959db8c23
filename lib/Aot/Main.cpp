//===- Main.cpp - the main() of a ktc_add_kernels generator ---------------===//
//
//   <generator> --name NAME --namespace NS --targets host,sm_90,gfx942
//               --out-dir DIR [--jit-fallback yes|no]
//
// Linked with an export list (KTC_AOT_EXPORTS, ktc/Aot.h) into the generator
// ktc_add_kernels builds and runs at build time. Errors: one line on stderr,
// exit status 1.
//
//===----------------------------------------------------------------------===//

#include "Generate.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

int main(int argc, char **argv) {
  ktc::aot::GenerateOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "ktc-aot: error: %s needs a value\n", flag.c_str());
      return 1;
    }
    std::string value = argv[++i];
    if (flag == "--name") {
      options.name = value;
    } else if (flag == "--namespace") {
      options.ns = value;
    } else if (flag == "--out-dir") {
      options.outDir = value;
    } else if (flag == "--jit-fallback") {
      if (value != "yes" && value != "no") {
        std::fprintf(stderr, "ktc-aot: error: --jit-fallback takes yes or "
                             "no, not '%s'\n", value.c_str());
        return 1;
      }
      options.jitFallback = value == "yes";
    } else if (flag == "--targets") {
      // A comma- or semicolon-separated list (a CMake list works).
      size_t start = 0;
      while (start <= value.size()) {
        size_t end = value.find_first_of(",;", start);
        if (end == std::string::npos)
          end = value.size();
        if (end > start)
          options.targets.push_back(value.substr(start, end - start));
        start = end + 1;
      }
    } else {
      std::fprintf(stderr,
                   "ktc-aot: error: unknown flag '%s' (expected --name, "
                   "--namespace, --targets, --out-dir, --jit-fallback)\n",
                   flag.c_str());
      return 1;
    }
  }
  if (options.name.empty() || options.outDir.empty() ||
      options.targets.empty()) {
    std::fprintf(stderr, "ktc-aot: error: give --name, --targets and "
                         "--out-dir\n");
    return 1;
  }
  if (options.ns.empty())
    options.ns = options.name;
  try {
    ktc::aot::Exports exports;
    ktc_aot_exports(exports);
    ktc::aot::generate(exports.all(), options);
  } catch (const std::exception &e) {
    // A ktc::Error's text starts with "error: " already.
    std::string what = e.what();
    if (what.rfind("error: ", 0) != 0)
      what = "error: " + what;
    std::fprintf(stderr, "ktc-aot: %s\n", what.c_str());
    return 1;
  }
  return 0;
}
