//===- TestDevice.h - the device the unit tests run on -----------*- C++ -*-===//
//
// KTC_SHAPES_DEVICE names it (cuda, hip, cuda:1...); the host CPU when it
// is unset, as in CI. GPU machines run the same tests with it set.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_TEST_UNIT_TESTDEVICE_H
#define KTC_TEST_UNIT_TESTDEVICE_H

#include "ktc/ktc.h"

#include <cstdlib>

namespace ktc::test {

inline Device &testDevice() {
  const char *name = std::getenv("KTC_SHAPES_DEVICE");
  return Device::get(name && *name ? name : "cpu");
}

} // namespace ktc::test

#endif // KTC_TEST_UNIT_TESTDEVICE_H
