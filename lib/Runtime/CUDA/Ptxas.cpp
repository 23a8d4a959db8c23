//===- Ptxas.cpp - PTX to a cubin with the toolkit's ptxas -----------------===//

#include "lib/Runtime/CUDA/Ptxas.h"

#include "ktc/Error.h"
#include "lib/Support/Env.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace ktc::detail {

std::optional<std::string> ptxasFromEnvironment() {
  return env::raw("KTC_PTXAS");
}

std::string assembleWithPtxas(const std::string &ptxas, const std::string &ptx,
                              const std::string &arch) {
  auto fail = [&](const std::string &what) -> Error {
    return Error("KTC_PTXAS=" + ptxas + ": " + what);
  };
  std::string program = ptxas;
  if (program.find('/') == std::string::npos) {
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(program);
    if (!found)
      throw fail("no such program in PATH");
    program = *found;
  } else if (!llvm::sys::fs::can_execute(program)) {
    throw fail("not an executable file");
  }
  llvm::SmallString<128> in, out, log;
  int fd = -1;
  if (llvm::sys::fs::createTemporaryFile("ktc-kernel", "ptx", fd, in))
    throw fail("cannot create a temporary file for the PTX");
  auto cleanup = llvm::make_scope_exit([&] {
    for (const auto &path : {in, out, log})
      if (!path.empty())
        llvm::sys::fs::remove(path);
  });
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
    if (os.has_error())
      throw fail("cannot write the PTX to " + in.str().str());
  }
  if (llvm::sys::fs::createTemporaryFile("ktc-kernel", "cubin", out) ||
      llvm::sys::fs::createTemporaryFile("ktc-ptxas", "log", log))
    throw fail("cannot create a temporary file for the cubin");
  std::string archFlag = "-arch=" + arch;
  llvm::SmallVector<llvm::StringRef> args{program, archFlag, "-O3",
                                          in.str(), "-o", out.str()};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(),
                                                log.str()};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(program, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/300, 0, &message);
  if (rc != 0) {
    std::string diagnostics;
    if (auto text = llvm::MemoryBuffer::getFile(log))
      diagnostics = (*text)->getBuffer().trim().str();
    if (rc < 0)
      throw fail("could not run it (" + message + ")");
    throw fail("exit code " + std::to_string(rc) +
               (diagnostics.empty() ? "" : ": " + diagnostics));
  }
  auto cubin = llvm::MemoryBuffer::getFile(out, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin || (*cubin)->getBufferSize() == 0)
    throw fail("wrote no cubin");
  return (*cubin)->getBuffer().str();
}

} // namespace ktc::detail
