//===- Symbols.h - entry points of a dlopen'ed library ----------*- C++ -*-===//
//
// What CudaDriver.cpp and HipDriver.cpp both do with the library they open:
// look each entry point up into its function-pointer slot, one small call
// per entry point, remembering the first one missing for the message.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_DRIVERS_SYMBOLS_H
#define KTC_LIB_DRIVERS_SYMBOLS_H

namespace ktc::drivers {

struct Symbols {
  void *library;
  /// The first entry point not found (null while none is missing).
  const char *missing = nullptr;
  /// Stores the address of `name` into the function pointer at `slot`.
  void get(void *slot, const char *name);
};

} // namespace ktc::drivers

#endif // KTC_LIB_DRIVERS_SYMBOLS_H
