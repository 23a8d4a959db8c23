//===- flags.h - the example programs' command lines --------------*- C++ -*-===//
//
// Each example declares its flags as llvm::cl options in an OptionCategory of
// its own and parses them with example::parseFlags: `--help` lists exactly
// those flags; a boolean flag is on with `--info`, `--info=1` or
// `--info=true` and off with `--info=0` or `--info=false`; an integer flag
// (example::Int<Min, Max>) is checked against its range, never wrapped.
// Anything else -- a flag the program does not declare (LLVM's own options
// included), a bad value -- is an error naming it, exit status 1.
//
// lld, linking a gfx kernel in-process, resets every cl::opt to its default
// when it runs: a program copies its flags into plain variables right after
// parseFlags, before it compiles anything.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_EXAMPLES_COMMON_FLAGS_H
#define KTC_EXAMPLES_COMMON_FLAGS_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CommandLine.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace example {

/// Prints "error: <message>" and exits with status 1.
[[noreturn]] inline void fail(const std::string &message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::exit(1);
}

/// The parser of an integer flag from Min to Max, in any base strtoll reads
/// (12, 0x10): a value outside, or one that overflows 64 bits, is an error
/// ("error: --rows must be from 1 to 2147483647, got 99999999999999999999").
/// Declare the flag as cl::opt<long long, false, example::Int<Min, Max>>.
template <long long Min = INT64_MIN, long long Max = INT64_MAX>
class Int : public llvm::cl::parser<long long> {
public:
  using llvm::cl::parser<long long>::parser;

  /// True on an error (llvm::cl then exits with status 1).
  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             long long &value) {
    std::string text = arg.str();
    char *end = nullptr;
    errno = 0;
    value = std::strtoll(text.c_str(), &end, 0);
    const std::string name = "--" + option.ArgStr.str();
    if (text.empty() || *end)
      return error(name + " needs an integer, got '" + text + "'");
    if (errno == ERANGE || value < Min || value > Max)
      return error(name + " must be from " + std::to_string(Min) + " to " +
                   std::to_string(Max) + ", got " + text);
    return false;
  }
  llvm::StringRef getValueName() const override { return "int"; }

private:
  static bool error(const std::string &message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return true;
  }
};

/// Parses the command line into the flags declared in `category`, exiting
/// with status 1 and a message at anything else. LLVM's own options (the
/// libraries register hundreds) are unregistered first, so one of them is
/// an unknown flag here, and `--help` lists the program's flags only (and
/// --help, --help-list and --version).
inline void parseFlags(int argc, char **argv,
                       llvm::cl::OptionCategory &category,
                       llvm::StringRef overview) {
  llvm::cl::HideUnrelatedOptions(category);
  auto registered = llvm::cl::getRegisteredOptions(); // a copy
  // --help's category is llvm::cl's "Generic Options" (--help, --version...).
  llvm::cl::Option *help = registered.lookup("help");
  llvm::SmallPtrSet<llvm::cl::Option *, 32> others;
  for (auto &entry : registered) {
    const auto &categories = entry.second->Categories;
    if (!llvm::is_contained(categories, &category) &&
        !(help && llvm::is_contained(categories, help->Categories.front())))
      others.insert(entry.second);
  }
  for (llvm::cl::Option *option : others)
    option->removeArgument();
  llvm::cl::ParseCommandLineOptions(argc, argv, overview);
}

/// --device, as every program takes it. Declare one in the program's
/// category: `example::DeviceFlag common(category);`.
struct DeviceFlag {
  explicit DeviceFlag(llvm::cl::OptionCategory &category)
      : device("device",
               llvm::cl::desc("Where to run (default auto: KTC_DEVICE or the "
                              "best found)"),
               llvm::cl::value_desc("auto|cpu|cuda|hip"),
               llvm::cl::init("auto"), llvm::cl::cat(category)) {}
  llvm::cl::opt<std::string> device;
};

/// The kernel looked at instead of run (--emit, --target, --out, --info),
/// or timed after its check (--bench): the flags of the programs that run
/// one seed kernel (vector_add, softmax).
struct KernelFlags {
  explicit KernelFlags(llvm::cl::OptionCategory &category)
      : emit("emit",
             llvm::cl::desc(
                 "Print the kernel at that stage instead of running it"),
             llvm::cl::value_desc("mlir|llvm|asm|bin"),
             llvm::cl::cat(category)),
        target("target",
               llvm::cl::desc("The target for --emit and --info (default "
                              "host)"),
               llvm::cl::value_desc("host|<gfx arch>|<sm arch>"),
               llvm::cl::init("host"), llvm::cl::cat(category)),
        out("out", llvm::cl::desc("Where --emit writes (default stdout)"),
            llvm::cl::value_desc("file"), llvm::cl::cat(category)),
        info("info",
             llvm::cl::desc("Print what the kernel uses on --target "
                            "(registers, LDS/shared\nmemory, scratch, "
                            "spills) and its occupancy instead of running "
                            "it\n(--target=cuda|hip|cpu: the device)"),
             llvm::cl::cat(category)),
        bench("bench",
              llvm::cl::desc("After the check, time the launch with "
                             "ktc::bench::do_bench\n(L2 flushed before each "
                             "repetition) and print the median"),
              llvm::cl::cat(category)) {}
  llvm::cl::opt<std::string> emit, target, out;
  llvm::cl::opt<bool> info, bench;
};

} // namespace example

#endif // KTC_EXAMPLES_COMMON_FLAGS_H
