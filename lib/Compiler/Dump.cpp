//===- Dump.cpp - per-stage dumps and failure reproducers ------------------===//

#include "Dump.h"

#include "lib/Support/Env.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <set>

namespace ktc::compiler {

namespace {
struct Config {
  std::set<std::string> stages;
  std::string dir;
};

/// Read at every compile (cheap next to compiling): a program may set
/// KTC_DUMP for one kernel only.
Config config() {
  Config c;
  {
    if (std::optional<std::string> env = env::raw("KTC_DUMP")) {
      llvm::SmallVector<llvm::StringRef> parts;
      llvm::StringRef(*env).split(parts, ',', -1, false);
      for (llvm::StringRef part : parts) {
        std::string p = part.trim().lower(); // "LLVM", " asm" too
        if (p == "all")
          c.stages.insert({"mlir", "layout", "llvm", "asm"});
        else if (p == "mlir" || p == "layout" || p == "llvm" || p == "asm")
          c.stages.insert(p);
        else if (!p.empty())
          env::warnOnce("KTC_DUMP", *env,
                        "names an unknown stage '" + part.trim().str() +
                            "' (mlir, layout, llvm, asm or all); it is "
                            "ignored");
      }
    }
    c.dir = env::raw("KTC_DUMP_DIR").value_or("ktc-dump");
  }
  return c;
}

bool writeFile(const std::string &path, llvm::StringRef text) {
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  os << text;
  return !os.has_error();
}

/// MLIR's IR printing, after one pass, into the dumper's file for a stage.
struct DumpAfterPass : mlir::PassManager::IRPrinterConfig {
  DumpAfterPass(Dumper &dumper, std::string pass, std::string stage)
      : dumper(dumper), pass(std::move(pass)), stage(std::move(stage)) {}
  void printAfterIfEnabled(mlir::Pass *p, mlir::Operation *,
                           PrintCallbackFn print) override {
    if (p->getArgument() != pass)
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    print(os);
    dumper.dump(stage, "mlir", text);
  }
  Dumper &dumper;
  std::string pass, stage;
};
} // namespace

Dumper::Dumper(mlir::ModuleOp module, llvm::StringRef kernel)
    : kernel_(kernel.str()) {
  llvm::raw_string_ostream os(module_);
  module.print(os, mlir::OpPrintingFlags().enableDebugInfo(false));
  hash_ = llvm::utohexstr(llvm::xxh3_64bits(module_), /*LowerCase=*/true);
  dump("mlir", "mlir", module_);
}

bool Dumper::wants(llvm::StringRef stage) const {
  return config().stages.count(stage.str()) != 0;
}

bool Dumper::wantsLowering() const {
  Config c = config();
  return c.stages.count("layout") || c.stages.count("llvm") ||
         c.stages.count("asm");
}

std::string Dumper::base(bool reproducer) const {
  std::string dir = config().dir;
  if (reproducer && !env::raw("KTC_DUMP_DIR")) {
    llvm::SmallString<128> tmp;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, tmp);
    llvm::sys::path::append(tmp, "ktc-repro");
    dir = std::string(tmp);
  }
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, kernel_ + "-" + hash_);
  return std::string(path);
}

void Dumper::dump(llvm::StringRef stage, llvm::StringRef ext,
                  llvm::StringRef text) {
  if (!wants(stage))
    return;
  std::string path = base(false) + "." + stage.str() +
                     (stage == ext ? "" : "." + ext.str());
  if (!writeFile(path, text))
    llvm::errs() << "ktc: warning: cannot write the dump " << path << "\n";
}

void Dumper::after(mlir::PassManager &pm, llvm::StringRef passArgument,
                   llvm::StringRef stage) {
  if (wants(stage))
    pm.enableIRPrinting(std::make_unique<DumpAfterPass>(
        *this, passArgument.str(), stage.str()));
}

std::string Dumper::reproducerPath() const {
  return base(true) + ".repro.mlir";
}

std::string Dumper::reproducer(llvm::StringRef error, llvm::StringRef pipeline,
                               llvm::StringRef command) {
  std::string path = reproducerPath();
  std::string text = "// ktc reproducer for a failed compile of kernel '" +
                     kernel_ + "'. Reproduce with:\n//   " + command.str() +
                     " " + path + "\n// The error was:\n";
  llvm::SmallVector<llvm::StringRef> lines;
  error.split(lines, '\n');
  for (llvm::StringRef line : lines)
    text += "//   " + line.str() + "\n";
  text += module_;
  // MLIR's reproducer: the pipeline that failed, which
  // `ktc-opt --run-reproducer` runs on the module above.
  text += "\n{-#\n  external_resources: {\n    mlir_reproducer: {\n"
          "      pipeline: \"" +
          pipeline.str() +
          "\",\n      disable_threading: true,\n"
          "      verify_each: true\n    }\n  }\n#-}\n";
  return writeFile(path, text) ? path : "";
}

} // namespace ktc::compiler
