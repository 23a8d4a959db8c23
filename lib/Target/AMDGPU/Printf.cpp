//===- Printf.cpp - device_print on AMD GPUs: ROCm's buffered printf ------===//
//
// The lowering (TargetInfo::print) calls `printf(ptr addrspace(4) format,
// ...)`; here, before LLVM optimises the module, each call becomes what
// clang emits for HIP's printf with -mprintf-kind=buffered (LLVM's
// emitAMDGPUPrintfCall): a record written into the printf buffer that the
// ROCm runtime (ROCclr) allocates when the code object lists printf
// formats, passes as the hidden_printf_buffer kernel argument and prints
// after the kernel (rocprintf.cpp, its HIP branch). A record is
//
//   u32 control   (record bytes << 2) | 2 (a constant format)
//   u64 format    low 64 bits of the format's MD5
//   u64 argument  ... (ints zero-extended, floats as double)
//
// and the formats reach the amdhsa.printf note as "0:0:<md5>,<format>"
// (the llvm.printf.fmts metadata). ROCclr rejects a note that lists a
// format twice ("Hash value collision detected", and no kernel runs), which
// clang's lowering produces for two calls of one format: the list is made
// unique here.
//
// The record's space comes from `__printf_alloc(bytes)`, which ROCm's
// device libraries (ockl) define and ktc does not link: defined here to
// the same contract. The buffer's first u32 is the offset of the next free
// byte after the 8-byte header, the second the bytes available; a
// compare-and-swap loop reserves `bytes` or returns null when they do not
// fit (the print is then dropped, as on ROCm).
//
//===----------------------------------------------------------------------===//

#include "lib/Target/LLVMCodegen.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/AMDGPUEmitPrintf.h"

namespace ktc::target::amdgpu {
namespace {

/// Code object v5: the printf buffer's address is the implicit kernel
/// argument at byte 72 (hidden_printf_buffer; ockl reads size_t slot 9).
constexpr uint64_t kPrintfBufferOffset = 72;
/// The buffer's header: next free offset (u32), bytes available (u32).
constexpr uint32_t kHeaderBytes = 8;

/// Replaces `call` (a printf) by the buffered record writes.
void lowerCall(llvm::CallInst *call) {
  llvm::BasicBlock *block = call->getParent();
  // emitAMDGPUPrintfCall ends the builder's block with its branch and
  // leaves the builder in a block of its own: split after the call.
  llvm::BasicBlock *rest =
      block->splitBasicBlock(std::next(call->getIterator()), "printf.cont");
  block->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> b(block);
  b.SetCurrentDebugLocation(call->getDebugLoc());
  llvm::SmallVector<llvm::Value *> args(call->args());
  llvm::Value *result =
      llvm::emitAMDGPUPrintfCall(b, args, /*isBuffered=*/true);
  b.CreateBr(rest);
  call->replaceAllUsesWith(result);
  call->eraseFromParent();
}

/// The body of `alloc` (ptr addrspace(1) __printf_alloc(i32 bytes)), as
/// ockl's: inlined into the kernel, which then reads the implicit argument.
void defineAlloc(llvm::Function &alloc) {
  llvm::LLVMContext &ctx = alloc.getContext();
  alloc.setLinkage(llvm::GlobalValue::InternalLinkage);
  alloc.addFnAttr(llvm::Attribute::AlwaysInline);
  alloc.addFnAttr(llvm::Attribute::NoUnwind);
  auto *entry = llvm::BasicBlock::Create(ctx, "entry", &alloc);
  auto *header = llvm::BasicBlock::Create(ctx, "header", &alloc);
  auto *loop = llvm::BasicBlock::Create(ctx, "reserve", &alloc);
  auto *attempt = llvm::BasicBlock::Create(ctx, "attempt", &alloc);
  auto *done = llvm::BasicBlock::Create(ctx, "reserved", &alloc);
  auto *full = llvm::BasicBlock::Create(ctx, "full", &alloc);
  llvm::Type *i8 = llvm::Type::getInt8Ty(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  auto *globalPtr = llvm::cast<llvm::PointerType>(alloc.getReturnType());
  llvm::Value *bytes = alloc.getArg(0);

  llvm::IRBuilder<> b(entry);
  llvm::Value *implicit = b.CreateIntrinsic(
      llvm::Intrinsic::amdgcn_implicitarg_ptr, {}, {}, nullptr, "implicit");
  llvm::Value *slot =
      b.CreateConstInBoundsGEP1_64(i8, implicit, kPrintfBufferOffset);
  llvm::LoadInst *buffer =
      b.CreateAlignedLoad(globalPtr, slot, llvm::Align(8), "buffer");
  buffer->setMetadata(llvm::LLVMContext::MD_invariant_load,
                      llvm::MDNode::get(ctx, {}));
  // A runtime that does not service printf leaves the argument null.
  b.CreateCondBr(b.CreateIsNull(buffer), full, header);

  b.SetInsertPoint(header);
  llvm::Value *available = b.CreateAlignedLoad(
      i32, b.CreateConstInBoundsGEP1_64(i8, buffer, 4), llvm::Align(4),
      "available");
  llvm::LoadInst *first =
      b.CreateAlignedLoad(i32, buffer, llvm::Align(4), "offset");
  first->setAtomic(llvm::AtomicOrdering::Monotonic,
                   ctx.getOrInsertSyncScopeID("agent"));
  b.CreateBr(loop);

  b.SetInsertPoint(loop);
  llvm::PHINode *offset = b.CreatePHI(i32, 2, "offset");
  offset->addIncoming(first, header);
  llvm::Value *end = b.CreateAdd(offset, bytes);
  // ockl's test, in its u32 arithmetic: header + offset + bytes > size.
  llvm::Value *tooBig =
      b.CreateICmpUGT(b.CreateAdd(end, b.getInt32(kHeaderBytes)), available);
  b.CreateCondBr(tooBig, full, attempt);

  b.SetInsertPoint(attempt);
  llvm::Value *pair = b.CreateAtomicCmpXchg(
      buffer, offset, end, llvm::MaybeAlign(4),
      llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic,
      ctx.getOrInsertSyncScopeID("agent"));
  offset->addIncoming(b.CreateExtractValue(pair, 0), attempt);
  b.CreateCondBr(b.CreateExtractValue(pair, 1), done, loop);

  b.SetInsertPoint(done);
  llvm::Value *data = b.CreateConstInBoundsGEP1_64(i8, buffer, kHeaderBytes);
  b.CreateRet(b.CreateInBoundsGEP(
      i8, data, b.CreateZExt(offset, b.getInt64Ty()), "record"));

  b.SetInsertPoint(full);
  b.CreateRet(llvm::ConstantPointerNull::get(globalPtr));
}

} // namespace

void lowerPrintf(llvm::Module &module) {
  llvm::Function *printf = module.getFunction(kAmdgpuPrintfName);
  if (printf && !printf->isDeclaration())
    return;
  if (!printf)
    return;
  // In program order, which is the order of the formats in the note.
  llvm::SmallVector<llvm::CallInst *> calls;
  for (llvm::Function &function : module)
    for (llvm::Instruction &inst : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (call->getCalledFunction() == printf)
          calls.push_back(call);
  for (llvm::CallInst *call : calls)
    lowerCall(call);
  if (printf->use_empty())
    printf->eraseFromParent();

  if (llvm::NamedMDNode *formats =
          module.getNamedMetadata("llvm.printf.fmts")) {
    llvm::SetVector<llvm::MDNode *> unique;
    for (llvm::MDNode *format : formats->operands())
      unique.insert(format);
    formats->clearOperands();
    for (llvm::MDNode *format : unique)
      formats->addOperand(format);
  }
  if (llvm::Function *alloc = module.getFunction("__printf_alloc"))
    if (alloc->isDeclaration())
      defineAlloc(*alloc);
}

} // namespace ktc::target::amdgpu
