//===- TargetInfo.cpp - AMD GPU (AMDGPU) answers for the GPU lowering ------===//

#include "lib/Conversion/TargetInfo.h"

#include "lib/Target/LLVMCodegen.h"
#include "lib/Target/SharedLimits.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

class AMDGPUTargetInfo : public TargetInfo {
public:
  explicit AMDGPUTargetInfo(const ::ktc::target::Target &target) : target_(target) {}
  StringRef arch() const override { return target_.arch; }
  StringRef inlineAsmKey() const override { return "amdgpu"; }
  /// CDNA (gfx9) runs waves of 64, RDNA (gfx10+) of 32 (Target::parse).
  unsigned waveSize() const override { return target_.waveSize; }

  Value threadId(OpBuilder &b, Location loc) const override {
    return ROCDL::ThreadIdXOp::create(b, loc, b.getI32Type());
  }
  Value programId(OpBuilder &b, Location loc, int axis) const override {
    Type i32 = b.getI32Type();
    if (axis == 0)
      return ROCDL::BlockIdXOp::create(b, loc, i32);
    if (axis == 1)
      return ROCDL::BlockIdYOp::create(b, loc, i32);
    return ROCDL::BlockIdZOp::create(b, loc, i32);
  }
  Value numPrograms(OpBuilder &b, Location loc, int axis) const override {
    // Code object v5: hidden_block_count_{x,y,z} are the first three i32 of
    // the implicit kernel arguments.
    auto constantPtr = LLVM::LLVMPointerType::get(b.getContext(), 4);
    Value args = LLVM::CallIntrinsicOp::create(
                     b, loc, constantPtr,
                     b.getStringAttr("llvm.amdgcn.implicitarg.ptr"),
                     ValueRange{})
                     .getResult(0);
    Value count = LLVM::GEPOp::create(
        b, loc, constantPtr, b.getI32Type(), args,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(axis)});
    return LLVM::LoadOp::create(b, loc, b.getI32Type(), count, /*alignment=*/4,
                                /*isVolatile=*/false, /*isNonTemporal=*/false,
                                /*isInvariant=*/true);
  }
  Value butterflyPartner(OpBuilder &b, Location loc, Value value,
                         unsigned step) const override {
    // Within a row of 16 lanes, DPP moves the value in the same VALU
    // instruction: xor 1 and xor 2 as quad permutations, then the row's
    // half mirror (lane i <-> 7 - i within 8) reaches the other quad and the
    // row mirror (i <-> 15 - i) the other half-row.
    constexpr int kQuadPermXor1 = 0xB1;  // [1, 0, 3, 2]
    constexpr int kQuadPermXor2 = 0x4E;  // [2, 3, 0, 1]
    constexpr int kRowHalfMirror = 0x141;
    constexpr int kRowMirror = 0x140;
    int control = step == 1   ? kQuadPermXor1
                  : step == 2 ? kQuadPermXor2
                  : step == 4 ? kRowHalfMirror
                  : step == 8 ? kRowMirror
                              : -1;
    if (control >= 0)
      return ROCDL::DPPUpdateOp::create(b, loc, value.getType(), value, value,
                                        control, /*rowMask=*/0xF,
                                        /*bankMask=*/0xF, /*boundCtrl=*/true);
    unsigned mask = step;
    // Across rows, ds_bpermute: every lane reads lane (lane ^ mask);
    // addresses in bytes.
    Type i32 = b.getI32Type();
    Value tid = threadId(b, loc);
    Value laneMask = LLVM::ConstantOp::create(b, loc, i32, waveSize() - 1);
    Value lane = LLVM::AndOp::create(b, loc, tid, laneMask);
    Value other = LLVM::XOrOp::create(
        b, loc, lane, LLVM::ConstantOp::create(b, loc, i32, mask));
    Value address = LLVM::ShlOp::create(
        b, loc, other, LLVM::ConstantOp::create(b, loc, i32, 2));
    return ROCDL::DsBpermuteOp::create(b, loc, i32, address, value);
  }
  Value shuffleXor(OpBuilder &b, Location loc, Value value,
                   unsigned mask) const override {
    // xor 1 and 2: quad permutations; xor 8: rotating a row of 16 by 8.
    constexpr int kRowRor8 = 0x128;
    int control = mask == 1   ? 0xB1
                  : mask == 2 ? 0x4E
                  : mask == 8 ? kRowRor8
                              : -1;
    if (control >= 0)
      return ROCDL::DPPUpdateOp::create(b, loc, value.getType(), value, value,
                                        control, /*rowMask=*/0xF,
                                        /*bankMask=*/0xF, /*boundCtrl=*/true);
    if (mask < 32) {
      // ds_swizzle's bit mode within 32 lanes: and 0x1F, or 0, xor mask.
      Value pattern = LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                               int32_t(mask) << 10 | 0x1F);
      return ROCDL::DsSwizzleOp::create(b, loc, value.getType(), value,
                                        pattern);
    }
    return butterflyPartner(b, loc, value, mask); // ds_bpermute: lane ^ 32
  }
  Value shuffleIndex(OpBuilder &b, Location loc, Value value,
                     Value srcLane) const override {
    // ds_bpermute: every lane reads lane `srcLane`; addresses in bytes.
    Value address = LLVM::ShlOp::create(
        b, loc, srcLane, LLVM::ConstantOp::create(b, loc, b.getI32Type(), 2));
    return ROCDL::DsBpermuteOp::create(b, loc, b.getI32Type(), address, value);
  }
  void barrier(OpBuilder &b, Location loc) const override {
    ROCDL::BarrierOp::create(b, loc);
  }
  Value exp2(OpBuilder &b, Location loc, Value x) const override {
    // v_exp_f32.
    return LLVM::CallIntrinsicOp::create(
               b, loc, b.getF32Type(), b.getStringAttr("llvm.amdgcn.exp2"),
               ValueRange{x})
        .getResult(0);
  }
  /// LDS is static: the code object's group_segment_fixed_size. 64 KiB per
  /// workgroup on every GCN/CDNA/RDNA arch the table lacks.
  int64_t maxSharedBytes() const override {
    int64_t limit = ::ktc::max_shared_bytes_per_workgroup(target_.name());
    return limit > 0 ? limit : 64 * 1024;
  }
  void markKernel(Operation *func, unsigned numThreads) const override {
    Builder b(func->getContext());
    func->setAttr("rocdl.kernel", b.getUnitAttr());
    std::string size = std::to_string(numThreads);
    func->setAttr("rocdl.flat_work_group_size",
                  b.getStringAttr(size + "," + size));
    func->setAttr("rocdl.reqd_work_group_size",
                  b.getDenseI32ArrayAttr({int32_t(numThreads), 1, 1}));
  }
  StringRef syncScope(StringRef scope) const override {
    return scope == "cta" ? "workgroup" : scope == "gpu" ? "agent" : "";
  }
  /// Kernel arguments are device memory (hipMalloc): coarse-grained and
  /// local, which lets LLVM pick global_atomic_add_f32 and friends
  /// instead of a compare-and-swap loop.
  /// The hints that ask the caches not to keep the data (a streaming
  /// store, loads and stores that bypass L1 or write through, evict_first)
  /// become LLVM's !nontemporal: `nt` on gfx942's global_load/store. The
  /// others (.ca, .wb, evict_last) are the default. LLVM sets sc0/sc1 only
  /// for atomic or volatile accesses, so those bits are not used.
  static bool nontemporal(StringRef cache, StringRef evict) {
    return cache == ".cg" || cache == ".cv" || cache == ".cs" ||
           cache == ".wt" || evict == "evict_first";
  }
  Value globalLoad(OpBuilder &b, Location loc, Type type, Value ptr,
                   int64_t alignment, StringRef cache,
                   StringRef evict) const override {
    return LLVM::LoadOp::create(b, loc, type, ptr, alignment,
                                /*isVolatile=*/false,
                                nontemporal(cache, evict));
  }
  void globalStore(OpBuilder &b, Location loc, Value value, Value ptr,
                   int64_t alignment, StringRef cache,
                   StringRef evict) const override {
    LLVM::StoreOp::create(b, loc, value, ptr, alignment, /*isVolatile=*/false,
                          nontemporal(cache, evict));
  }

  /// device_print through ROCm's printf buffer: a call of OpenCL's
  /// `printf(ptr addrspace(4), ...)` that the backend turns into the
  /// buffered records HIP's runtime prints after the kernel
  /// (lib/Target/AMDGPU/Printf.cpp).
  bool hasPrint() const override { return true; }
  unsigned constantAddressSpace() const override { return 4; }
  void print(OpBuilder &b, Location loc, Value format,
             ValueRange args) const override {
    // The module of the format's global: the insertion point may be in a
    // region not yet attached.
    auto module = format.getDefiningOp()->getParentOfType<ModuleOp>();
    auto printf = module.lookupSymbol<LLVM::LLVMFuncOp>(::ktc::target::amdgpu::kAmdgpuPrintfName);
    if (!printf) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      printf = LLVM::LLVMFuncOp::create(
          b, module.getLoc(), ::ktc::target::amdgpu::kAmdgpuPrintfName,
          LLVM::LLVMFunctionType::get(b.getI32Type(), {format.getType()},
                                      /*isVarArg=*/true));
    }
    SmallVector<Value> operands{format};
    operands.append(args.begin(), args.end());
    LLVM::CallOp::create(b, loc, printf, operands);
  }

  void markAtomic(Operation *atomic) const override {
    Builder b(atomic->getContext());
    atomic->setAttr("rocdl.no_fine_grained_memory", b.getUnitAttr());
    atomic->setAttr("rocdl.no_remote_memory", b.getUnitAttr());
  }

private:
  ::ktc::target::Target target_;
};

} // namespace

std::unique_ptr<TargetInfo>
mlir::ktc::createAMDGPUTargetInfo(const ::ktc::target::Target &target) {
  return std::make_unique<AMDGPUTargetInfo>(target);
}
