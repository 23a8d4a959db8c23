//===- ThreadDiagnostics.h - one thread's diagnostics -------------*- C++ -*-===//
//
// Every kernel of a process is traced and compiled in one MLIRContext, from
// any number of threads at once. A handler registered on that context sees
// the diagnostics of every thread, the newest handler first; a compile that
// collected all of them would take another thread's error for its own, and
// write to its message while that thread reads it. ThreadDiagnosticHandler
// takes only the diagnostics emitted on the thread that made it and passes
// the others on to the handlers below it (their own threads').
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_SUPPORT_THREADDIAGNOSTICS_H
#define KTC_LIB_SUPPORT_THREADDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <functional>
#include <thread>

namespace ktc {

class ThreadDiagnosticHandler : public mlir::ScopedDiagnosticHandler {
public:
  /// `handle` gets this thread's diagnostics while the object lives.
  ThreadDiagnosticHandler(mlir::MLIRContext *ctx,
                          std::function<void(mlir::Diagnostic &)> handle)
      : mlir::ScopedDiagnosticHandler(ctx) {
    setHandler([owner = std::this_thread::get_id(),
                handle = std::move(handle)](mlir::Diagnostic &diag) {
      if (std::this_thread::get_id() != owner)
        return mlir::failure(); // another thread's: its own handler's
      handle(diag);
      return mlir::success();
    });
  }
};

} // namespace ktc

#endif // KTC_LIB_SUPPORT_THREADDIAGNOSTICS_H
