//===- ThreadShares.cpp - blocks too large for a thread -------------------===//
//
// See ThreadShares.h.
//
//===----------------------------------------------------------------------===//

#include "ThreadShares.h"

#include "dialect/KtcDialect.h"
#include "dialect/LinearLayout.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using namespace mlir::ktc;

/// Registers (32-bit) a thread would need for its share of `type`.
static int64_t registersPerThread(RankedTensorType type) {
  int64_t elements = toLinearLayout(type).numRegisters();
  Type e = type.getElementType();
  int64_t bits = isa<PtrType>(e) ? 64 : e.getIntOrFloatBitWidth();
  return elements * std::max<int64_t>(1, bits / 32);
}

/// Refuses kernels whose per-thread share no GPU can hold, before the
/// lowering unrolls them into scalars and LLVM spends minutes spilling
/// (online softmax with a 2^20 block took minutes for gfx90a): one block
/// beyond the largest register file any target gives a thread (1024 VGPRs
/// on gfx1250; 512 on CDNA, counting AGPRs; 255 on NVIDIA), or a kernel
/// whose blocks add up to more scalar operations per thread than
/// kMaxScalarOps.
static constexpr int64_t kMaxRegisters = 1024;
static constexpr int64_t kMaxScalarOps = 1 << 16;
LogicalResult mlir::ktc::checkThreadShares(func::FuncOp func, unsigned numWarps,
                                          unsigned waveSize) {
  int64_t threads = int64_t(numWarps) * waveSize, total = 0;
  auto spread = [&] {
    return std::to_string(threads) + " threads (" +
           std::to_string(numWarps) + " waves of " +
           std::to_string(waveSize) + ")";
  };
  // The first block too large, preferring one with the user's line
  // (hoisted constants have none).
  Operation *worst = nullptr;
  RankedTensorType worstType;
  int64_t worstRegs = 0;
  func.walk([&](Operation *op) {
    total += 1;
    for (Value v : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || !isLayout(type.getEncoding()))
        continue;
      int64_t regs = registersPerThread(type);
      total += regs;
      if (regs > kMaxRegisters &&
          (!worst || (isa<UnknownLoc>(worst->getLoc()) &&
                      !isa<UnknownLoc>(op->getLoc())))) {
        worst = op;
        worstType = type;
        worstRegs = regs;
      }
    }
  });
  if (worst) {
    std::string block; // printed without its layout, and unquoted
    llvm::raw_string_ostream(block) << RankedTensorType::get(
        worstType.getShape(), worstType.getElementType());
    worst->emitError()
        << "a " << block << " spread over " << spread() << " needs " << worstRegs
        << " registers per thread, more than any GPU has (" << kMaxRegisters
        << "); use a smaller block or more warps (num_warps)";
    return failure();
  }
  if (total > kMaxScalarOps) {
    func.emitError() << "kernel '" << func.getSymName() << "' is " << total
                     << " scalar operations per thread once its blocks are "
                        "spread over "
                     << spread() << ", more than ktc compiles for a GPU ("
                     << kMaxScalarOps
                     << "); use smaller blocks, more warps (num_warps), or "
                        "a for_range loop instead of repeating the body in "
                        "C++";
    return failure();
  }
  return success();
}

