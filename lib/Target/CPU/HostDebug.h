//===- HostDebug.h - device_print and device_assert on the host -*- C++ -*-===//
//
// convert-ktc-to-host expands ktc.print and ktc.assert (expandHostDebugOps)
// into loops over the block's elements: printf of each element, and a call
// of `ktc.host.assert_fail(site, x, y, z, rank, i0, i1, i2)` for each false
// one, where `site` is "FILE\nLINE\nCOLUMN\nMESSAGE". Each kernel's
// JITDylib defines that symbol (defineHostDebugSymbols); it records the
// first failure, in program then element order, in the AssertRecord of the
// launch running on the thread (AssertScope), which the CPU device turns
// into a ktc::Error after the launch.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_CPU_HOSTDEBUG_H
#define KTC_LIB_TARGET_CPU_HOSTDEBUG_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <string>

namespace llvm::orc {
class LLJIT;
class JITDylib;
}

namespace ktc::host {

/// Replaces the kernel's ktc.print and ktc.assert ops (before its grid
/// arguments are added: it uses ktc.program_id).
void expandHostDebugOps(mlir::func::FuncOp kernel);

/// The first failed device_assert of one launch.
struct AssertRecord {
  std::mutex mutex;
  bool failed = false;
  std::string site; // "FILE\nLINE\nCOLUMN\nMESSAGE"
  std::array<int32_t, 3> pid{};
  std::array<int32_t, 3> grid{};
  int32_t rank = 0;
  std::array<int64_t, 3> index{};
  /// The message, file, line and column of the failure.
  std::string message() const;
  std::string file() const;
  unsigned line() const, column() const;
};

/// Makes failures on this thread go to `record` while it lives (nothing
/// changes for a null record).
class AssertScope {
public:
  AssertScope(AssertRecord *record, std::array<int32_t, 3> grid);
  ~AssertScope();

private:
  AssertRecord *previous_;
  std::array<int32_t, 3> previousGrid_;
  bool active_;
};

/// Defines ktc.host.assert_fail in a kernel's JITDylib.
llvm::Error defineHostDebugSymbols(llvm::orc::LLJIT &jit,
                                   llvm::orc::JITDylib &dylib);

} // namespace ktc::host

#endif // KTC_LIB_TARGET_CPU_HOSTDEBUG_H
