//===- SharedMemory.h - how a kernel's dynamic shared memory travels -*- C++ -*-===//
//
// A kernel needing more shared memory than its target declares statically
// (PTX: 48 KiB) declares it dynamic (`.extern .shared ktc_smem[]`), and the
// launch must ask for the size (cuFuncSetAttribute, cuLaunchKernel's
// sharedMemBytes). The lowering writes the size into the module as a
// module-level assembly comment, which the PTX carries as a line
//
//   // ktc.dynamic_shared_bytes 131072
//
// so that the binary alone (as the disk cache keeps it) tells the runtime.
// Plain C++: the CUDA runtime reads it without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_SHAREDMEMORY_H
#define KTC_LIB_CONVERSION_SHAREDMEMORY_H

#include <cstdint>
#include <string_view>

namespace ktc {

inline constexpr std::string_view kDynamicSharedMarker =
    "// ktc.dynamic_shared_bytes ";

/// The dynamic shared memory (bytes) a kernel's PTX says it needs; 0 when
/// it declares none (static shared memory only) or the number is malformed.
inline int64_t dynamicSharedBytes(std::string_view ptx) {
  size_t at = ptx.find(kDynamicSharedMarker);
  if (at == std::string_view::npos)
    return 0;
  int64_t bytes = 0;
  for (size_t i = at + kDynamicSharedMarker.size();
       i < ptx.size() && ptx[i] >= '0' && ptx[i] <= '9'; ++i) {
    bytes = bytes * 10 + (ptx[i] - '0');
    if (bytes > (int64_t(1) << 40))
      return 0;
  }
  return bytes;
}

} // namespace ktc

#endif // KTC_LIB_CONVERSION_SHAREDMEMORY_H
