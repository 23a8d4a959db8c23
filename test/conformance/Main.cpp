//===- Main.cpp - ktc-conformance: one numerics contract on every target --===//
//
// ktc-conformance runs a catalogue of small kernels, one per builder
// operation and type, on the edges (+-0, +-inf, NaN, subnormals, the
// largest finite values, ties, MIN and -1) and on random data, at odd
// sizes, and checks every result against a float64 or exact reference
// within the operation's documented bound (docs/numerics.md). With
// --against=cpu it also runs each kernel on the host CPU in the same
// process and counts the elements whose bits differ: correctly rounded
// operations must not differ at all.
//
//   ktc-conformance --device=cpu                 (CI)
//   ktc-conformance --device=cuda --against=cpu  (the device run)
//   ktc-conformance --device=hip --against=cpu   (scripts/gfx942-conformance.sh)
//   ktc-conformance --list                       (row ids, op, type)
//   ktc-conformance --filter=REGEX ...           (rows whose id matches)
//   ktc-conformance --compile=gfx942             (emit each kernel only;
//                                                 elements = asm bytes)
//   ktc-conformance --no-header ...              (rows only, for joining)
//   ktc-conformance --show=N ...                 (N wrong elements a row)
//
// Prints a markdown table (op, type, target, elements, max ulp, bound,
// differences from the host, verdict); exits 1 when an operation is out of
// its bound, differs from the host where it must not, or could not run
// (its compile or launch failed: the verdict says why), unless the row is
// a documented open item (marked "known").
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

using namespace conformance;

static void printRow(const Row &r) {
  std::string verdict = r.ok()             ? "PASS"
                        : !r.error.empty() ? "ERROR: " + r.error
                        : r.known.empty()  ? "FAIL"
                                           : "known: " + r.known;
  char ulp[32], bound[32];
  std::snprintf(ulp, sizeof ulp, "%.3g", r.maxUlp);
  std::snprintf(bound, sizeof bound, r.exact ? "exact" : "%.3g", r.bound);
  std::string diffs = r.hasHost && r.error.empty()
                          ? std::to_string(r.hostDiffs) +
                                (r.exact ? " (must be 0)" : "")
                          : std::string("-");
  if (!r.error.empty())
    std::snprintf(ulp, sizeof ulp, "-");
  std::printf("| %s | %s | %s | %zu | %s | %s | %s | %s |\n", r.op.c_str(),
              r.type.c_str(), r.target.c_str(), r.n, ulp, bound,
              diffs.c_str(), verdict.c_str());
  std::fflush(stdout);
}

int main(int argc, char **argv) {
  std::string device = "cpu", against, filter;
  Context c;
  bool header = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--device=", 0) == 0)
      device = a.substr(9);
    else if (a.rfind("--against=", 0) == 0)
      against = a.substr(10);
    else if (a.rfind("--filter=", 0) == 0)
      filter = a.substr(9);
    else if (a.rfind("--compile=", 0) == 0 && a.size() > 10)
      c.compile = a.substr(10);
    else if (a.rfind("--show=", 0) == 0)
      c.show = std::atoi(a.c_str() + 7);
    else if (a == "--list")
      c.list = true;
    else if (a == "--no-header")
      header = false;
    else {
      std::fprintf(stderr,
                   "usage: ktc-conformance [--device=cpu|cuda|hip] "
                   "[--against=cpu] [--filter=REGEX] [--list] "
                   "[--compile=TARGET] [--no-header] [--show=N]\n");
      return 2;
    }
  }
  try {
    c.filter = std::regex(filter);
  } catch (const std::regex_error &e) {
    std::fprintf(stderr, "ktc-conformance: --filter=%s is not a regular "
                 "expression: %s\n", filter.c_str(), e.what());
    return 2;
  }
  try {
    if (!c.list && c.compile.empty()) {
      c.device = &Device::get(device);
      if (!against.empty())
        c.host = &Device::get(against);
    }
    if (header && !c.list)
      std::printf("| op | type | target | elements | max ulp | bound | "
                  "bits differing from the host | verdict |\n"
                  "|---|---|---|---|---|---|---|---|\n");
    // Each entry prints its rows as soon as they are measured, so that a
    // run stopped part way (a slow emulator) still shows what it did.
    size_t printed = 0;
    auto flush = [&] {
      for (; printed < c.rows.size(); ++printed)
        printRow(c.rows[printed]);
    };
    for (void (*part)(Context &) :
         {float32Rows, integerRows, halfRows, memoryRows, reductionRows,
          sharedMemoryRows, inlineAsmRows, blockPtrRows, dotScaledRows}) {
      part(c);
      flush();
    }
    if (c.list)
      return 0;
    int failures = 0;
    for (const Row &r : c.rows)
      failures += !r.ok() && (r.known.empty() || !r.error.empty());
    std::printf("%s: %d of %zu rows out of bound\n",
                failures ? "FAIL" : "PASS", failures, c.rows.size());
    return failures ? 1 : 0;
  } catch (const Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
