//===- Metadata.cpp - resource use read back from an HSACO's notes ---------===//

#include "lib/Target/LLVMCodegen.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELF.h"

namespace ktc::target::amdgpu {

llvm::Expected<KernelResources> readMetadata(llvm::StringRef hsaco,
                                             llvm::StringRef kernel) {
  auto elf = llvm::object::ELF64LEFile::create(hsaco);
  if (!elf)
    return elf.takeError();
  auto headers = elf->program_headers();
  if (!headers)
    return headers.takeError();
  for (const auto &header : *headers) {
    if (header.p_type != llvm::ELF::PT_NOTE)
      continue;
    llvm::Error error = llvm::Error::success();
    for (const auto &note : elf->notes(header, error)) {
      if (note.getName() != "AMDGPU" ||
          note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      llvm::ArrayRef<uint8_t> desc = note.getDesc(header.p_align);
      llvm::msgpack::Document doc;
      if (!doc.readFromBlob(llvm::StringRef(reinterpret_cast<const char *>(
                                                desc.data()),
                                            desc.size()),
                            /*Multi=*/false))
        return llvm::createStringError("malformed AMDGPU metadata note");
      auto kernels = doc.getRoot().getMap(true)["amdhsa.kernels"];
      if (!kernels.isArray())
        break;
      for (auto &k : kernels.getArray(true)) {
        auto &map = k.getMap(true);
        if (map[".name"].getString() != kernel)
          continue;
        auto num = [&](const char *key) -> int64_t {
          auto node = map[key];
          return node.isEmpty() ? 0 : int64_t(node.getUInt());
        };
        KernelResources r;
        r.registers = num(".vgpr_count");
        r.scalarRegisters = num(".sgpr_count");
        r.sharedBytes = num(".group_segment_fixed_size");
        r.scratchBytes = num(".private_segment_fixed_size");
        r.spills = num(".vgpr_spill_count") + num(".sgpr_spill_count");
        r.waveSize = num(".wavefront_size");
        r.maxThreads = num(".max_flat_workgroup_size");
        return r;
      }
    }
    if (error)
      return std::move(error);
  }
  return llvm::createStringError("no AMDGPU metadata for kernel " +
                                 kernel.str());
}

} // namespace ktc::target::amdgpu
