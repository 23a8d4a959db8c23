//===- Link.cpp - AMDGPU object -> HSACO through lld, in process -----------===//

#include "lib/Target/LLVMCodegen.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

namespace ktc::target::amdgpu {

llvm::Expected<std::string> linkHsaco(llvm::StringRef object) {
  // lld reads and writes files and resets LLVM's options: it is not
  // re-entrant, one link at a time, and no target machine is created
  // meanwhile (LLVMCodegen.cpp).
  std::lock_guard<std::mutex> lock(llvmOptionsMutex());
  llvm::SmallString<128> in, out;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("ktc-kernel", "o", in))
    return llvm::createStringError(ec, "cannot create a temporary file");
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("ktc-kernel", "hsaco", out))
    return llvm::createStringError(ec, "cannot create a temporary file");
  auto cleanup = llvm::make_scope_exit([&] {
    llvm::sys::fs::remove(in);
    llvm::sys::fs::remove(out);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec);
    if (ec)
      return llvm::createStringError(ec, "cannot write " + in.str().str());
    os << object;
  }
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  const char *args[] = {"ld.lld", "-shared", in.c_str(), "-o", out.c_str()};
  lld::Result result = lld::lldMain(args, llvm::nulls(), errorStream,
                                    {{lld::Gnu, &lld::elf::link}});
  if (result.retCode != 0)
    return llvm::createStringError("lld failed to link the code object: " +
                                   errors);
  auto buffer = llvm::MemoryBuffer::getFile(out);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read the HSACO");
  return (*buffer)->getBuffer().str();
}

} // namespace ktc::target::amdgpu
