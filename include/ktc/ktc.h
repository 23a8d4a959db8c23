//===- ktc/ktc.h - the ktc public API (umbrella header) ---------*- C++ -*-===//

#ifndef KTC_KTC_H
#define KTC_KTC_H

#include "ktc/BlockPtr.h"
#include "ktc/DType.h"
#include "ktc/DotScaled.h"
#include "ktc/Error.h"
#include "ktc/Half.h"
#include "ktc/Kernel.h"
#include "ktc/Occupancy.h"
#include "ktc/Ops.h"
#include "ktc/Random.h"
#include "ktc/Runtime.h"
#include "ktc/Standard.h"
#include "ktc/Value.h"

#endif // KTC_KTC_H
