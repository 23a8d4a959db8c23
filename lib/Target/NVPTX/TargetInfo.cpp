//===- TargetInfo.cpp - NVIDIA (NVPTX) answers for the GPU lowering --------===//

#include "lib/Conversion/TargetInfo.h"

#include "Debug.h"

#include "lib/Target/SharedLimits.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ktc;

namespace {

class NVPTXTargetInfo : public TargetInfo {
public:
  explicit NVPTXTargetInfo(const ::ktc::target::Target &target) : target_(target) {}
  StringRef arch() const override { return target_.arch; }
  StringRef inlineAsmKey() const override { return "nvptx"; }
  unsigned waveSize() const override { return 32; }

  Value threadId(OpBuilder &b, Location loc) const override {
    return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  }
  Value programId(OpBuilder &b, Location loc, int axis) const override {
    Type i32 = b.getI32Type();
    if (axis == 0)
      return NVVM::BlockIdXOp::create(b, loc, i32);
    if (axis == 1)
      return NVVM::BlockIdYOp::create(b, loc, i32);
    return NVVM::BlockIdZOp::create(b, loc, i32);
  }
  Value numPrograms(OpBuilder &b, Location loc, int axis) const override {
    Type i32 = b.getI32Type();
    if (axis == 0)
      return NVVM::GridDimXOp::create(b, loc, i32);
    if (axis == 1)
      return NVVM::GridDimYOp::create(b, loc, i32);
    return NVVM::GridDimZOp::create(b, loc, i32);
  }
  Value butterflyPartner(OpBuilder &b, Location loc, Value value,
                         unsigned mask) const override {
    Value all = LLVM::ConstantOp::create(b, loc, b.getI32Type(), -1);
    Value offset = LLVM::ConstantOp::create(b, loc, b.getI32Type(), mask);
    Value clamp = LLVM::ConstantOp::create(b, loc, b.getI32Type(), 0x1f);
    return NVVM::ShflOp::create(b, loc, value.getType(), all, value, offset,
                                clamp, NVVM::ShflKind::bfly, UnitAttr());
  }
  Value shuffleXor(OpBuilder &b, Location loc, Value value,
                   unsigned mask) const override {
    return butterflyPartner(b, loc, value, mask); // already the xor partner
  }
  Value shuffleIndex(OpBuilder &b, Location loc, Value value,
                     Value srcLane) const override {
    Value all = LLVM::ConstantOp::create(b, loc, b.getI32Type(), -1);
    Value clamp = LLVM::ConstantOp::create(b, loc, b.getI32Type(), 0x1f);
    return NVVM::ShflOp::create(b, loc, value.getType(), all, value, srcLane,
                                clamp, NVVM::ShflKind::idx, UnitAttr());
  }
  Value waveUniform(OpBuilder &b, Location loc, Value value) const override {
    return shuffleIndex(b, loc, value,
                        LLVM::ConstantOp::create(b, loc, b.getI32Type(), 0));
  }
  void barrier(OpBuilder &b, Location loc) const override {
    NVVM::BarrierOp::create(b, loc);
  }
  Value exp2(OpBuilder &b, Location loc, Value x) const override {
    // ex2.approx.ftz.f32, as Triton emits.
    return LLVM::CallIntrinsicOp::create(
               b, loc, b.getF32Type(),
               b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"), ValueRange{x})
        .getResult(0);
  }
  Value log2(OpBuilder &b, Location loc, Value x) const override {
    // lg2.approx.f32 (llvm.log2 has no NVPTX lowering: LLVM exits).
    return LLVM::CallIntrinsicOp::create(
               b, loc, b.getF32Type(),
               b.getStringAttr("llvm.nvvm.lg2.approx.f"), ValueRange{x})
        .getResult(0);
  }
  Value divide(OpBuilder &b, Location loc, Value lhs, Value rhs,
               bool fast) const override {
    // `/` is div.rn.f32 (correctly rounded, as on the host); fdiv is
    // div.full.f32 (at most 2 ulp from the exact quotient), which is what
    // Triton's `/` gives on f32.
    if (!fast)
      return LLVM::FDivOp::create(b, loc, lhs, rhs);
    return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(),
                                         b.getStringAttr("llvm.nvvm.div.full"),
                                         ValueRange{lhs, rhs})
        .getResult(0);
  }
  /// PTX declares at most 48 KiB of .shared statically; a block may opt in
  /// to more (227 KiB on sm_90), dynamic. An arch not in the table keeps to
  /// the 48 KiB every NVIDIA GPU gives without opting in.
  int64_t maxStaticSharedBytes() const override { return 48 * 1024; }
  bool hasMatrixLoads() const override { return target_.smVersion() >= 75; }
  SmallVector<Value> loadMatrices(OpBuilder &b, Location loc, Value rowAddress,
                                  unsigned num, bool trans) const override {
    Type i32 = b.getI32Type();
    Type type = num == 1 ? i32
                         : LLVM::LLVMStructType::getLiteral(
                               b.getContext(), SmallVector<Type>(num, i32));
    Value m = NVVM::LdMatrixOp::create(
        b, loc, type, rowAddress, num,
        trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    if (num == 1)
      return {m};
    SmallVector<Value> out;
    for (unsigned i = 0; i < num; ++i)
      out.push_back(LLVM::ExtractValueOp::create(b, loc, m, i));
    return out;
  }
  bool hasMatrixStores() const override { return target_.smVersion() >= 90; }
  void storeMatrices(OpBuilder &b, Location loc, Value rowAddress,
                     ValueRange words) const override {
    NVVM::StMatrixOp::create(
        b, loc, rowAddress, words, NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
  }
  bool hasAsyncCopies() const override { return target_.smVersion() >= 80; }
  void asyncCopy(OpBuilder &b, Location loc, Value shared, Value global,
                 int64_t bytes, Value enabled) const override {
    // cp.async with its ignore-src predicate: nothing read (zeros written)
    // when off. The predicate goes straight to LDGSTS's own; a source size
    // of `enabled ? 16 : 0` (NVVM's intrinsic, and Triton's) takes two
    // SELs and an ISETP to turn back into it, per mask, per iteration.
    // 16-byte copies bypass L1 (.cg), as the operands of a tile are read
    // once per program.
    Value off = LLVM::XOrOp::create(
        b, loc, enabled,
        LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true)));
    std::string text = std::string("cp.async.") +
                       (bytes == 16 ? "cg" : "ca") +
                       ".shared.global [$0], [$1], " + std::to_string(bytes) +
                       ", $2;";
    LLVM::InlineAsmOp::create(
        b, loc, TypeRange{}, ValueRange{shared, global, off}, text,
        "r,l,b,~{memory}", /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  }
  void asyncCommit(OpBuilder &b, Location loc) const override {
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }
  void asyncWait(OpBuilder &b, Location loc, int pending) const override {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, pending);
    // No fence.proxy.async here, though wgmma may read the copies' writes
    // next through the async proxy: as in Triton's and CUTLASS's cp.async
    // mainloops, the wait and the barrier order them. The fence would cost
    // a MEMBAR.ALL.CTA, which waits for every copy still in flight and so
    // undoes the pipeline (ptxas emits MEMBAR.ALL.CTA + FENCE.VIEW.ASYNC.S;
    // 128x256x64 f16 4096^3 ran 0.78x Triton's time with it).
  }
  int64_t maxSharedBytes() const override {
    int64_t limit = ::ktc::max_shared_bytes_per_workgroup(target_.name());
    return limit > 0 ? limit : maxStaticSharedBytes();
  }
  void markKernel(Operation *func, unsigned numThreads) const override {
    Builder b(func->getContext());
    func->setAttr("nvvm.kernel", b.getUnitAttr());
    // Every launch has exactly numThreads threads (the runtime launches
    // num_warps waves): .reqntid, not just .maxntid, so that ptxas may rely
    // on the block size as Triton's kernels let it.
    func->setAttr("nvvm.reqntid",
                  b.getDenseI32ArrayAttr({int32_t(numThreads), 1, 1}));
  }
  /// NVPTX's syncscopes: "block" (.cta), "device" (.gpu), "" (.sys).
  StringRef syncScope(StringRef scope) const override {
    return scope == "cta" ? "block" : scope == "gpu" ? "device" : "";
  }
  /// atom (red when the result is unused and the ordering allows it:
  /// relaxed or release) with the ordering and scope spelt out, as inline
  /// PTX: LLVM 22's NVPTX backend lowers an atomicrmw to a plain
  /// atom.global (relaxed, .gpu) whatever its ordering and syncscope.
  Value atomicRMW(OpBuilder &b, Location loc, LLVM::AtomicBinOp op, Value ptr,
                  Value val, LLVM::AtomicOrdering ordering, StringRef scope,
                  bool resultUsed) const override {
    using Bin = LLVM::AtomicBinOp;
    Type type = val.getType();
    unsigned bits = type.getIntOrFloatBitWidth();
    std::string w = std::to_string(bits), name;
    switch (op) {
    case Bin::add:
      name = "add.u" + w;
      break;
    case Bin::fadd:
      name = "add.f" + w;
      break;
    case Bin::max:
      name = "max.s" + w;
      break;
    case Bin::min:
      name = "min.s" + w;
      break;
    case Bin::umax:
      name = "max.u" + w;
      break;
    case Bin::umin:
      name = "min.u" + w;
      break;
    case Bin::xchg:
      name = "exch.b" + w;
      break;
    case Bin::_and:
      name = "and.b" + w;
      break;
    case Bin::_or:
      name = "or.b" + w;
      break;
    case Bin::_xor:
      name = "xor.b" + w;
      break;
    default:
      return {};
    }
    StringRef sem = ordering == LLVM::AtomicOrdering::monotonic ? "relaxed"
                    : ordering == LLVM::AtomicOrdering::acquire ? "acquire"
                    : ordering == LLVM::AtomicOrdering::release ? "release"
                                                                : "acq_rel";
    std::string qualifiers =
        "." + sem.str() + "." + scope.str() + ".global." + name;
    std::string reg = isa<FloatType>(type) ? "f" : bits == 64 ? "l" : "r";
    // red has no exchange: an unused exchange is still an atom.
    if (!resultUsed && op != Bin::xchg &&
        (sem == "relaxed" || sem == "release")) {
      LLVM::InlineAsmOp::create(b, loc, TypeRange{}, ValueRange{ptr, val},
                                "red" + qualifiers + " [$0], $1;",
                                "l," + reg + ",~{memory}", true, false,
                                LLVM::TailCallKind::None,
                                LLVM::AsmDialectAttr(), ArrayAttr());
      return LLVM::UndefOp::create(b, loc, type);
    }
    return LLVM::InlineAsmOp::create(
               b, loc, TypeRange{type}, ValueRange{ptr, val},
               "atom" + qualifiers + " $0, [$1], $2;",
               "=" + reg + ",l," + reg + ",~{memory}", true, false,
               LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
        .getResult(0);
  }

  // device_print and device_assert through CUDA's vprintf and __assertfail
  // (Debug.cpp).
  bool hasPrint() const override { return true; }
  void print(OpBuilder &b, Location loc, Value format,
             ValueRange args) const override {
    nvptxPrint(b, loc, format, args);
  }
  void assertFail(OpBuilder &b, Location loc, Value message, Value file,
                  unsigned line, Value function) const override {
    nvptxAssertFail(b, loc, message, file, line, function);
  }

  /// PTX's qualifier for Triton's hints: the cache operator (".cg", ...)
  /// or the L1 eviction priority (".L1::evict_first"); PTX's ld and st
  /// take one or the other, as ktc.load/ktc.store verify.
  static std::string ptxHint(StringRef cache, StringRef evict) {
    if (!cache.empty())
      return cache.str();
    if (!evict.empty())
      return ".L1::" + evict.str();
    return "";
  }
  /// How `type` moves as PTX registers: `n` words of `bits` (32, or 16
  /// for a lone 16-bit element); 0 when asm cannot move it (i1).
  static std::pair<int64_t, unsigned> ptxWords(Type type) {
    auto vec = dyn_cast<VectorType>(type);
    Type element = vec ? vec.getElementType() : type;
    unsigned bits = element.getIntOrFloatBitWidth();
    int64_t total = bits * (vec ? vec.getNumElements() : 1);
    if (bits < 8 || total % 16 != 0)
      return {0, 0};
    if (total == 16)
      return {1, 16};
    return {total / 32, 32};
  }
  static std::string ptxOperands(int64_t first, int64_t n) {
    std::string s = n > 1 ? "{" : "";
    for (int64_t i = 0; i < n; ++i)
      s += (i ? ", $" : "$") + std::to_string(first + i);
    return s + (n > 1 ? "}" : "");
  }
  static std::string ptxType(int64_t n, unsigned bits) {
    return (n > 1 ? ".v" + std::to_string(n) : std::string()) + ".b" +
           std::to_string(bits);
  }

  Value globalLoad(OpBuilder &b, Location loc, Type type, Value ptr,
                   int64_t alignment, StringRef cache,
                   StringRef evict) const override {
    auto [n, bits] = ptxWords(type);
    std::string hint = ptxHint(cache, evict);
    if (hint.empty() || n == 0)
      return TargetInfo::globalLoad(b, loc, type, ptr, alignment, cache,
                                    evict);
    Type word = b.getIntegerType(bits);
    Type result = asmResult(b, n, word);
    std::string constraints;
    for (int64_t i = 0; i < n; ++i)
      constraints += bits == 16 ? "=h," : "=r,";
    Value loaded =
        LLVM::InlineAsmOp::create(
            b, loc, TypeRange{result}, ValueRange{ptr},
            "ld.global" + hint + ptxType(n, bits) + " " +
                ptxOperands(0, n) + ", [$" + std::to_string(n) + "];",
            constraints + "l,~{memory}", /*has_side_effects=*/true,
            /*is_align_stack=*/false, LLVM::TailCallKind::None,
            LLVM::AsmDialectAttr(), ArrayAttr())
            .getResult(0);
    return fromWords(b, loc, type, loaded, n, word);
  }

  void globalStore(OpBuilder &b, Location loc, Value value, Value ptr,
                   int64_t alignment, StringRef cache,
                   StringRef evict) const override {
    auto [n, bits] = ptxWords(value.getType());
    std::string hint = ptxHint(cache, evict);
    if (hint.empty() || n == 0)
      return TargetInfo::globalStore(b, loc, value, ptr, alignment, cache,
                                     evict);
    Type word = b.getIntegerType(bits);
    SmallVector<Value> operands = {ptr};
    if (n == 1) {
      operands.push_back(LLVM::BitcastOp::create(b, loc, word, value));
    } else {
      Value words =
          LLVM::BitcastOp::create(b, loc, VectorType::get({n}, word), value);
      for (int64_t i = 0; i < n; ++i)
        operands.push_back(LLVM::ExtractElementOp::create(
            b, loc, words, LLVM::ConstantOp::create(b, loc, b.getI32Type(), i)));
    }
    std::string constraints = "l";
    for (int64_t i = 0; i < n; ++i)
      constraints += bits == 16 ? ",h" : ",r";
    LLVM::InlineAsmOp::create(
        b, loc, TypeRange{}, operands,
        "st.global" + hint + ptxType(n, bits) + " [$0], " +
            ptxOperands(1, n) + ";",
        constraints + ",~{memory}", /*has_side_effects=*/true,
        /*is_align_stack=*/false, LLVM::TailCallKind::None,
        LLVM::AsmDialectAttr(), ArrayAttr());
  }

  // Masked accesses (issue 18), predicated as Triton's NVIDIA backend
  // writes them: `other` moved into the destination first, then
  // `@p ld.global`; `@p st.global`. No branch, so a tile's masked
  // elements stay one basic block.
  Value maskedGlobalLoad(OpBuilder &b, Location loc, Type type, Value ptr,
                         Value mask, Value other, int64_t alignment,
                         StringRef cache, StringRef evict) const override {
    auto [n, bits] = maskedWords(type);
    if (n == 0)
      return {};
    SmallVector<Value> operands = {ptr, mask};
    llvm::append_range(operands, toWords(b, loc, other, n, bits));
    Type word = b.getIntegerType(bits == 8 ? 16 : bits);
    Type result = asmResult(b, n, word);
    std::string asmText, constraints;
    for (int64_t i = 0; i < n; ++i) {
      asmText += "mov.b" + std::to_string(bits == 8 ? 16 : bits) + " $" +
                 std::to_string(i) + ", $" + std::to_string(n + 2 + i) +
                 ";\n\t";
      constraints += "=" + reg(bits) + ",";
    }
    asmText += "@$" + std::to_string(n + 1) + " ld.global" +
               ptxHint(cache, evict) + ptxType(n, bits) + " " +
               ptxOperands(0, n) + ", [$" + std::to_string(n) + "];";
    constraints += "l,b";
    for (int64_t i = 0; i < n; ++i)
      constraints += "," + reg(bits);
    Value loaded = LLVM::InlineAsmOp::create(
                       b, loc, TypeRange{result}, operands, asmText,
                       constraints + ",~{memory}", /*has_side_effects=*/true,
                       /*is_align_stack=*/false, LLVM::TailCallKind::None,
                       LLVM::AsmDialectAttr(), ArrayAttr())
                       .getResult(0);
    if (bits == 8)
      return LLVM::TruncOp::create(b, loc, type, loaded);
    return fromWords(b, loc, type, loaded, n, word);
  }

  bool maskedGlobalStore(OpBuilder &b, Location loc, Value value, Value ptr,
                         Value mask, int64_t alignment, StringRef cache,
                         StringRef evict) const override {
    auto [n, bits] = maskedWords(value.getType());
    if (n == 0)
      return false;
    SmallVector<Value> operands = {ptr, mask};
    llvm::append_range(operands, toWords(b, loc, value, n, bits));
    std::string constraints = "l,b";
    for (int64_t i = 0; i < n; ++i)
      constraints += "," + reg(bits);
    LLVM::InlineAsmOp::create(
        b, loc, TypeRange{}, operands,
        "@$1 st.global" + ptxHint(cache, evict) + ptxType(n, bits) + " [$0], " +
            ptxOperands(2, n) + ";",
        constraints + ",~{memory}", /*has_side_effects=*/true,
        /*is_align_stack=*/false, LLVM::TailCallKind::None,
        LLVM::AsmDialectAttr(), ArrayAttr());
    return true;
  }

private:
  /// ptxWords for a masked access, which also moves a lone byte (an i8:
  /// fp8's bits), as {1, 8}: ld/st .b8 with a 16-bit register; and a lone
  /// 64-bit element as one .b64 word.
  std::pair<int64_t, unsigned> maskedWords(Type type) const {
    if (!getElementTypeOrSelf(type).isIntOrFloat()) // pointers: branch
      return {0, 0};
    // sm_100 and later add f32 pairs (add.rn.f32x2) that LLVM forms only
    // from the vector loads it sees: there a masked vector keeps its
    // branch (test/Target/NVPTX/blackwell.mlir).
    if (isa<VectorType>(type) && target_.smVersion() >= 100)
      return {0, 0};
    if (type.isInteger(8))
      return {1, 8};
    if (!isa<VectorType>(type) && type.getIntOrFloatBitWidth() == 64)
      return {1, 64};
    return ptxWords(type);
  }
  /// The inline-asm register class of a maskedWords word.
  static std::string reg(unsigned bits) {
    return bits == 64 ? "l" : bits == 32 ? "r" : "h";
  }
  /// What an inline-asm load of n registers of `word` returns: the word,
  /// or a struct of n of them.
  static Type asmResult(OpBuilder &b, int64_t n, Type word) {
    if (n == 1)
      return word;
    SmallVector<Type> words(n, word);
    return LLVM::LLVMStructType::getLiteral(b.getContext(), words);
  }
  /// An inline-asm load's result (asmResult) as the `type` it loaded.
  static Value fromWords(OpBuilder &b, Location loc, Type type, Value loaded,
                         int64_t n, Type word) {
    if (n == 1)
      return LLVM::BitcastOp::create(b, loc, type, loaded);
    Value packed = LLVM::UndefOp::create(b, loc, VectorType::get({n}, word));
    for (int64_t i = 0; i < n; ++i)
      packed = LLVM::InsertElementOp::create(
          b, loc, packed, LLVM::ExtractValueOp::create(b, loc, loaded, i),
          LLVM::ConstantOp::create(b, loc, b.getI32Type(), i));
    return LLVM::BitcastOp::create(b, loc, type, packed);
  }
  /// `value` as the n registers of maskedWords.
  static SmallVector<Value> toWords(OpBuilder &b, Location loc, Value value,
                                    int64_t n, unsigned bits) {
    if (bits == 8)
      return {LLVM::ZExtOp::create(b, loc, b.getI16Type(), value)};
    Type word = b.getIntegerType(bits);
    if (n == 1)
      return {LLVM::BitcastOp::create(b, loc, word, value)};
    Value words =
        LLVM::BitcastOp::create(b, loc, VectorType::get({n}, word), value);
    SmallVector<Value> out;
    for (int64_t i = 0; i < n; ++i)
      out.push_back(LLVM::ExtractElementOp::create(
          b, loc, words, LLVM::ConstantOp::create(b, loc, b.getI32Type(), i)));
    return out;
  }

  ::ktc::target::Target target_;
};

} // namespace

std::unique_ptr<TargetInfo>
mlir::ktc::createNVPTXTargetInfo(const ::ktc::target::Target &target) {
  return std::make_unique<NVPTXTargetInfo>(target);
}
