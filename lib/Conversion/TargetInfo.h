//===- TargetInfo.h - the hardware facts the GPU lowering asks for -*- C++ -*-===//
//
// The lowering of ktc to the LLVM dialect is target-neutral; every hardware
// choice (ids, wave size, cross-lane exchange, barriers, exp2, address
// spaces, kernel attributes) is a question to a TargetInfo. Adding a target
// means adding one of these (lib/Target/<T>/TargetInfo.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CONVERSION_TARGETINFO_H
#define KTC_LIB_CONVERSION_TARGETINFO_H

#include "lib/Target/Target.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <memory>

namespace mlir::ktc {

class TargetInfo {
public:
  virtual ~TargetInfo();

  /// "sm_90", "gfx942", ...
  virtual StringRef arch() const = 0;
  /// Threads per wave (warp): 32 on NVIDIA and RDNA, 64 on CDNA.
  virtual unsigned waveSize() const = 0;

  /// The thread's index in the workgroup (x), the program's index and the
  /// grid's size along `axis`: i32 values.
  virtual Value threadId(OpBuilder &b, Location loc) const = 0;
  virtual Value programId(OpBuilder &b, Location loc, int axis) const = 0;
  virtual Value numPrograms(OpBuilder &b, Location loc, int axis) const = 0;

  /// One step of a wave reduction (butterfly): the i32 `value` of a lane
  /// in the other half of the lane's aligned group of 2 * `step` lanes.
  /// Steps come in increasing order (1, 2, 4, ...), so by step s every lane
  /// of an aligned group of s lanes holds the same partial and any partner
  /// in the other half will do: NVIDIA uses the xor partner (shfl.sync.bfly),
  /// AMD the cheapest cross-lane move that reaches the other half (DPP
  /// within rows of 16, ds_bpermute beyond).
  virtual Value butterflyPartner(OpBuilder &b, Location loc, Value value,
                                 unsigned step) const = 0;
  /// The i32 `value` of lane (lane ^ `mask`), `mask` a power of two below
  /// the wave size: an exact butterfly partner, for reductions over lane
  /// bits that are not the lowest ones. NVIDIA: shfl.sync.bfly; AMD: DPP
  /// where a row permutation is that xor, ds_swizzle within 32 lanes,
  /// ds_bpermute across the halves of a wave of 64.
  virtual Value shuffleXor(OpBuilder &b, Location loc, Value value,
                           unsigned mask) const = 0;
  /// The i32 `value` of lane `srcLane` (i32, below the wave size) of the
  /// thread's own wave, for layout conversions within a wave (every lane
  /// active). NVIDIA: shfl.sync.idx; AMD: ds_bpermute.
  virtual Value shuffleIndex(OpBuilder &b, Location loc, Value value,
                             Value srcLane) const = 0;
  /// The i32 `value`, the same in every lane of the wave (a warp or
  /// warpgroup index), in a form the code generator knows to be uniform,
  /// so that what is computed from it lives in the wave's uniform
  /// registers. NVIDIA: shfl.sync.idx from lane 0 (ptxas cannot tell that
  /// tid.x >> 7 is uniform; a wgmma descriptor built from it otherwise
  /// takes an R2UR per instruction in the loop). By default, `value`.
  virtual Value waveUniform(OpBuilder &b, Location loc, Value value) const {
    return value;
  }
  /// Waits for every thread of the workgroup (and makes shared-memory
  /// writes visible).
  virtual void barrier(OpBuilder &b, Location loc) const = 0;
  /// 2^x for an f32 x, with the hardware instruction.
  virtual Value exp2(OpBuilder &b, Location loc, Value x) const = 0;
  /// log2(x) for an f32 x. llvm.log2 unless a target says otherwise (NVPTX
  /// has no instruction or libcall LLVM could pick for it).
  virtual Value log2(OpBuilder &b, Location loc, Value x) const;
  /// lhs / rhs for f32 values. Correctly rounded (IEEE) unless `fast`;
  /// `fast` (ktc::fdiv, arith.divf with `afn`) is the target's quick
  /// division, within the bound docs/numerics.md states for it.
  virtual Value divide(OpBuilder &b, Location loc, Value lhs, Value rhs,
                       bool fast) const;

  /// Whether loadMatrices exists (NVIDIA sm_75 and later: ldmatrix).
  virtual bool hasMatrixLoads() const { return false; }
  /// Loads `num` (1, 2 or 4) 8x8 matrices of 16-bit elements from shared
  /// memory, lane l giving the address of row l % 8 of matrix l / 8 (8
  /// contiguous elements, 16-byte aligned): thread t receives, as one i32
  /// per matrix, its row t / 4, columns 2 (t % 4) and 2 (t % 4) + 1 (low
  /// half first); with `trans`, those of the transposed matrix.
  virtual SmallVector<Value> loadMatrices(OpBuilder &b, Location loc,
                                          Value rowAddress, unsigned num,
                                          bool trans) const {
    return {};
  }
  /// Whether storeMatrices exists (NVIDIA sm_90 and later: stmatrix).
  virtual bool hasMatrixStores() const { return false; }
  /// loadMatrices' inverse: `words` (1, 2 or 4 i32, one a matrix, in
  /// loadMatrices' fragment layout) stored as 8x8 matrices of 16-bit
  /// elements, lane l giving the address of row l % 8 of matrix l / 8.
  virtual void storeMatrices(OpBuilder &b, Location loc, Value rowAddress,
                             ValueRange words) const {}

  /// Whether the asynchronous global -> shared copies below exist (NVIDIA
  /// sm_80 and later: cp.async); ktc-pipeline-async stages a pipelined
  /// dot's operands with them.
  virtual bool hasAsyncCopies() const { return false; }
  /// Starts copying `bytes` (4, 8 or 16) from `global` to `shared`, both
  /// aligned to `bytes`; where `enabled` (i1) is false nothing is read and
  /// zeros are written.
  virtual void asyncCopy(OpBuilder &b, Location loc, Value shared,
                         Value global, int64_t bytes, Value enabled) const {}
  /// Closes the group of this thread's copies started since the last one.
  virtual void asyncCommit(OpBuilder &b, Location loc) const {}
  /// Waits until at most `pending` of this thread's groups are in flight.
  virtual void asyncWait(OpBuilder &b, Location loc, int pending) const {}

  /// The most shared memory (bytes) one workgroup of this arch may use
  /// (the occupancy table, lib/Target/SharedLimits.h: NVIDIA's opt-in maximum per block, AMD's
  /// LDS per workgroup), and the most it may declare statically; a kernel
  /// needing more than the latter and at most the former declares its
  /// shared memory dynamic (extern) and the launch asks for the size.
  virtual int64_t maxSharedBytes() const = 0;
  virtual int64_t maxStaticSharedBytes() const { return maxSharedBytes(); }

  unsigned globalAddressSpace() const { return 1; }
  unsigned sharedAddressSpace() const { return 3; }

  /// Marks `func` a kernel launched with `numThreads` threads per workgroup.
  virtual void markKernel(Operation *func, unsigned numThreads) const = 0;

  /// Atomics: the LLVM syncscope of a ktc scope (`cta`, `gpu`, `sys`; the
  /// empty string is LLVM's system scope), and any marks an atomic on
  /// global memory needs (AMDGPU: no fine-grained or remote memory, so
  /// that float adds take the hardware instruction).
  virtual StringRef syncScope(StringRef scope) const = 0;
  virtual void markAtomic(Operation *atomic) const {}
  /// One atomic read-modify-write of `val` at the global `ptr`, when the
  /// target writes its own instruction (NVPTX: LLVM's backend drops the
  /// ordering and scope of an atomicrmw); null for the lowering's
  /// llvm.atomicrmw. With `resultUsed` false the result may be undefined
  /// (a reduction-only instruction such as red).
  virtual Value atomicRMW(OpBuilder &b, Location loc, LLVM::AtomicBinOp op,
                          Value ptr, Value val, LLVM::AtomicOrdering ordering,
                          StringRef scope, bool resultUsed) const {
    return {};
  }

  /// Debugging (device_print, device_assert; DebugOpToLLVM.cpp). Whether
  /// the target prints, and the call of its printf with `format` (a
  /// constant string's address) and `args` (ints of 32 or 64 bits, f64).
  virtual bool hasPrint() const { return false; }
  virtual void print(OpBuilder &b, Location loc, Value format,
                     ValueRange args) const {}
  /// The address space of those constant strings: generic (0) on NVPTX;
  /// AMDGPU's constant memory (4), where clang puts string literals and
  /// where its printf lowering reads a format from.
  virtual unsigned constantAddressSpace() const { return 0; }
  /// Stops the thread for a failed device_assert: `message`, `file` and
  /// `function` are constant strings' addresses. The default traps
  /// (llvm.trap: s_trap on AMDGPU), without a message.
  virtual void assertFail(OpBuilder &b, Location loc, Value message,
                          Value file, unsigned line, Value function) const;

  // Cache hints (issue 19): Triton's cache_modifier and eviction_policy of
  // a ktc.load / ktc.store (empty: none; verified, one or the other).
  /// A global load of `type` (a scalar or a vector of up to 16 bytes) from
  /// `ptr`; the default, a plain LLVM load, ignores the hints
  /// (MemoryOpToLLVM.cpp).
  virtual Value globalLoad(OpBuilder &b, Location loc, Type type, Value ptr,
                           int64_t alignment, StringRef cache,
                           StringRef evict) const;
  /// The same for a store of `value`.
  virtual void globalStore(OpBuilder &b, Location loc, Value value, Value ptr,
                           int64_t alignment, StringRef cache,
                           StringRef evict) const;

  // Masked accesses without branches (issue 18): a masked-off element must
  // not be read or written, and an scf.if per element made the lowering
  // and LLVM slow on odd shapes (thousands of tiny blocks a loop).
  /// globalLoad where the i1 `mask` holds, `other` (of `type`) where it
  /// does not, in straight-line code; null where the target has no such
  /// form for `type` (the lowering then branches on the mask). NVPTX: a
  /// predicated ld after a mov of `other`, as Triton's NVIDIA backend.
  virtual Value maskedGlobalLoad(OpBuilder &b, Location loc, Type type,
                                 Value ptr, Value mask, Value other,
                                 int64_t alignment, StringRef cache,
                                 StringRef evict) const {
    return {};
  }
  /// globalStore where `mask` holds, in straight-line code; false where
  /// the target has no such form (the lowering then branches).
  virtual bool maskedGlobalStore(OpBuilder &b, Location loc, Value value,
                                 Value ptr, Value mask, int64_t alignment,
                                 StringRef cache, StringRef evict) const {
    return false;
  }

  /// The key of this target's entry in ktc.inline_asm_elementwise's
  /// assembly (InlineAsmToLLVM.cpp): the language its LLVM backend reads,
  /// "nvptx" (PTX) or "amdgpu" (AMDGPU assembly).
  virtual StringRef inlineAsmKey() const = 0;
};

/// The TargetInfo of a GPU target; null (with `error` set) for a name that
/// does not parse (Target::parse) or is not a GPU.
std::unique_ptr<TargetInfo> createTargetInfo(StringRef name,
                                             std::string &error);
std::unique_ptr<TargetInfo>
createNVPTXTargetInfo(const ::ktc::target::Target &target);
std::unique_ptr<TargetInfo>
createAMDGPUTargetInfo(const ::ktc::target::Target &target);

} // namespace mlir::ktc

#endif // KTC_LIB_CONVERSION_TARGETINFO_H
