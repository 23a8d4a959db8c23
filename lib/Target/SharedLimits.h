//===- SharedLimits.h - the shared memory a workgroup may use ----*- C++ -*-===//
//
// The GPU lowering checks a kernel's shared memory against its target's
// limit at compile time. The limit is the occupancy table's
// (ktc::limits_for(arch).max_shared_bytes_per_workgroup, lib/Target/
// Occupancy.cpp), reached through this header because ktc/Occupancy.h
// brings in ktc/Runtime.h, whose inline code throws, and the lowering is
// built without exceptions. Part of KtcOccupancy (plain C++).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_TARGET_SHAREDLIMITS_H
#define KTC_LIB_TARGET_SHAREDLIMITS_H

#include <cstdint>
#include <string>

namespace ktc {

/// The most shared memory (bytes) one workgroup may use on `arch`: AMD's LDS
/// per workgroup (64 KiB on gfx942, 160 KiB on gfx950), NVIDIA's opt-in
/// maximum per block (227 KiB on sm_90); 0 for an arch not in the table.
int64_t max_shared_bytes_per_workgroup(const std::string &arch);

} // namespace ktc

#endif // KTC_LIB_TARGET_SHAREDLIMITS_H
