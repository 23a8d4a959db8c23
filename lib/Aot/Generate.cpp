//===- Generate.cpp - ktc-aot: compiling exported kernels -----------------===//
//
// Each export's traced kernel is parsed into the compiler's context, renamed
// to its export name (the symbol of every code object, so specialisations
// of one kernel link side by side), its pointer arguments marked aligned to
// 16 bytes, and compiled for each target through lib/Compiler (the disk
// cache included) as a launch would compile it. Then three files:
//
//   NAME.h       one typed launch function per export, in namespace NS
//   NAME.cpp     the GPU code objects embedded as byte arrays, the tables
//                ktc::aot::launch reads, the launch functions
//   NAME_host.a  the host code objects (entries ktc.entry.<export>)
//   EXPORT.TARGET.ptx / .hsaco   each GPU code object, for inspection
//
//===----------------------------------------------------------------------===//

#include "Generate.h"

#include "lib/Compiler/Compiler.h"
#include "lib/Conversion/SharedMemory.h"
#include "lib/Target/Backend.h"
#include "lib/Target/Target.h"

#include "dialect/KtcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <cstring>
#include <set>

namespace ktc::aot {
namespace {

bool isIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

/// The C++ type of a runtime parameter in a launch function.
std::string cType(const detail::ParamSpec &p, const std::string &exportName) {
  const char *t = nullptr;
  switch (p.kind.dtype) {
  case DType::i1: t = "bool"; break;
  case DType::i8: t = "int8_t"; break;
  case DType::i16: t = "int16_t"; break;
  case DType::i32: t = "int32_t"; break;
  case DType::i64: t = "int64_t"; break;
  case DType::u8: t = "uint8_t"; break;
  case DType::u16: t = "uint16_t"; break;
  case DType::u32: t = "uint32_t"; break;
  case DType::u64: t = "uint64_t"; break;
  case DType::f32: t = "float"; break;
  case DType::f64: t = "double"; break;
  default: break; // f16, bf16, fp8: bits in memory, no C++ scalar type
  }
  if (p.kind.pointer)
    return std::string(t ? t : "void") + " *";
  if (!t)
    throw Error("export '" + exportName + "': a " + name(p.kind.dtype) +
                " scalar argument cannot be passed to an AOT kernel yet "
                "(pass it as float, or through memory)");
  return t;
}

/// The CPU the portable `host` target compiles for: x86-64-v2 (SSE4.2,
/// POPCNT; every x86-64 CPU since about 2009, and the baseline of current
/// Linux distributions), or the architecture's generic CPU elsewhere.
std::string baselineCpu() {
  llvm::Triple triple(llvm::sys::getProcessTriple());
  return triple.getArch() == llvm::Triple::x86_64 ? "x86-64-v2" : "generic";
}

/// A host target of an AOT export list: `host` (the portable baseline),
/// `host-native` (the build machine's CPU and all its features, as the JIT
/// compiles) or `host-<cpu>` (an LLVM CPU name: host-x86-64-v3,
/// host-sapphirerapids, ...). `cpu` is set to what it compiles for.
target::Target hostTarget(const std::string &name, std::string &cpu) {
  if (name == "host-native") {
    target::Target t = target::Target::host();
    cpu = "native, " + t.arch;
    return t;
  }
  cpu = name == "host" ? baselineCpu() : name.substr(5);
  if (name != "host") {
    llvm::InitializeNativeTarget();
    llvm::Triple triple(llvm::sys::getProcessTriple());
    std::string error;
    const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, error);
    std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
        t ? t->createMCSubtargetInfo(triple, "", "") : nullptr);
    if (cpu.empty() || !subtarget || !subtarget->isCPUStringValid(cpu))
      throw Error("unknown host target '" + name + "': '" + cpu +
                  "' is not a CPU LLVM knows for " + triple.str() +
                  " (host: the portable " + baselineCpu() +
                  "; host-native: the build machine's CPU; host-<cpu>: "
                  "host-x86-64-v3, host-x86-64-v4, host-sapphirerapids, ...)");
  }
  return target::Target::host(cpu, "");
}

bool isHostTarget(const std::string &name) {
  return name == "host" || name.rfind("host-", 0) == 0;
}

struct Compiled {
  std::string target;
  std::string hostCpu; // host: the CPU it was compiled for
  compiler::CompiledKernel kernel;
  unsigned dynamicShared = 0;
};

struct Prepared {
  const Export *e;
  std::vector<const detail::ParamSpec *> runtime;
  std::vector<std::string> argNames;
  std::string constexprs; // as the kernel records them
  std::vector<Compiled> compiled;
};

Prepared prepare(const Export &e, const GenerateOptions &options) {
  Prepared p;
  p.e = &e;
  mlir::MLIRContext &context = compiler::context();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(e.mlir, &context);
  if (!module)
    throw Error("export '" + e.name + "': the traced kernel did not parse");
  mlir::func::FuncOp func;
  module->walk([&](mlir::func::FuncOp f) {
    if (f->hasAttr(mlir::ktc::KtcDialect::getKernelAttrName()))
      func = f;
  });
  if (!func)
    throw Error("export '" + e.name + "': no kernel in the trace");
  mlir::SymbolTable::setSymbolName(func, e.name);
  mlir::OpBuilder b(&context);
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (mlir::isa<mlir::ktc::PtrType>(func.getArgument(i).getType()))
      func.setArgAttr(i, mlir::ktc::KtcDialect::getDivisibilityAttrName(),
                      b.getI32IntegerAttr(16));
  if (auto dict = func->getAttrOfType<mlir::DictionaryAttr>(
          mlir::ktc::KtcDialect::getConstexprAttrName())) {
    llvm::raw_string_ostream os(p.constexprs);
    for (auto [i, entry] : llvm::enumerate(dict)) {
      os << (i ? ", " : "") << entry.getName().strref() << " = ";
      if (auto v = mlir::dyn_cast<mlir::IntegerAttr>(entry.getValue()))
        os << v.getValue();
      else
        entry.getValue().print(os);
    }
  }
  std::set<std::string> used = {"grid", "stream", "slots", "args"};
  for (const detail::ParamSpec &param : e.params) {
    if (!param.runtime)
      continue;
    std::string argName = param.name;
    if (!isIdentifier(argName) || used.count(argName))
      argName = "arg" + std::to_string(p.runtime.size());
    used.insert(argName);
    p.runtime.push_back(&param);
    p.argNames.push_back(argName);
  }
  if (p.runtime.size() != func.getNumArguments())
    throw Error("export '" + e.name + "': the kernel has " +
                std::to_string(func.getNumArguments()) +
                " arguments, its parameters say " +
                std::to_string(p.runtime.size()));
  if (p.runtime.size() > 64)
    throw Error("export '" + e.name + "': more than 64 runtime arguments");

  auto compileOptions = target::CompileOptions::make(
      e.options.num_warps, e.options.num_stages, false, "Options::num_warps",
      "Options::num_stages");
  if (!compileOptions)
    throw Error("export '" + e.name +
                "': " + llvm::toString(compileOptions.takeError()));
  for (const std::string &name : options.targets) {
    std::string hostCpu;
    auto target = isHostTarget(name)
                      ? llvm::Expected<target::Target>(hostTarget(name, hostCpu))
                      : target::Target::parse(name);
    if (!target)
      throw Error(llvm::toString(target.takeError()));
    mlir::OwningOpRef<mlir::ModuleOp> copy = module->clone();
    auto kernel = compiler::compile(*copy, *target, *compileOptions);
    if (!kernel)
      throw Error("export '" + e.name + "' for " + name + ": " +
                  llvm::toString(kernel.takeError()));
    Compiled c;
    c.target = isHostTarget(name) ? "host" : target->name();
    c.hostCpu = hostCpu;
    c.kernel = std::move(*kernel);
    if (target->kind == target::Target::Kind::NVPTX)
      c.dynamicShared = unsigned(dynamicSharedBytes(c.kernel.binary));
    p.compiled.push_back(std::move(c));
  }
  return p;
}

/// Host objects are made for ORC's JIT, in the large code model: their
/// .eh_frame FDEs are 64-bit PC-relative (R_X86_64_PC64), which ld.lld
/// misreads when it builds .eh_frame_hdr, and the frames of the whole
/// program then lose their unwind entries (a C++ exception thrown anywhere
/// terminates). Kernels never throw and no exception unwinds through them,
/// so their unwind tables are renamed away (".eh_frame" -> ".ktcunwnd", in
/// the section name table, which .rela.eh_frame shares): the linker keeps
/// them as plain data. GNU ld reads them either way.
void hideUnwindTables(std::string &object) {
  auto read = [&](size_t at, size_t size) -> uint64_t {
    if (at + size > object.size())
      return 0;
    uint64_t v = 0;
    std::memcpy(&v, object.data() + at, size); // ELF64 little-endian
    return v;
  };
  if (object.size() < 64 || object.compare(0, 4, "\x7f" "ELF") != 0 ||
      object[4] != 2 || object[5] != 1)
    return;
  uint64_t shoff = read(0x28, 8), shentsize = read(0x3a, 2),
           shnum = read(0x3c, 2), shstrndx = read(0x3e, 2);
  if (!shoff || shentsize < 64 || shstrndx >= shnum)
    return;
  uint64_t strtab = read(shoff + shstrndx * shentsize + 0x18, 8);
  uint64_t strsize = read(shoff + shstrndx * shentsize + 0x20, 8);
  for (uint64_t i = 0; i < shnum; ++i) {
    uint64_t name = read(shoff + i * shentsize, 4);
    if (name + 10 > strsize || strtab + name + 10 > object.size())
      continue;
    if (object.compare(strtab + name, 10, std::string(".eh_frame\0", 10)) == 0)
      object.replace(strtab + name, 9, ".ktcunwnd");
  }
}

/// `target` as part of an identifier: gfx942:sramecc+ -> gfx942_sramecc_.
std::string identifierOf(const std::string &target) {
  std::string s = target;
  for (char &c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return s;
}

std::string bytesOf(llvm::StringRef data) {
  std::string s;
  for (size_t i = 0; i < data.size(); ++i) {
    s += std::to_string(static_cast<unsigned char>(data[i]));
    s += (i % 24 == 23) ? ",\n" : ",";
  }
  return s + "0"; // PTX is loaded as a C string
}

void writeFile(const std::string &path, const std::string &text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    throw Error("cannot write " + path + ": " + ec.message());
  os << text;
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    throw Error("cannot write " + path + ": " + message);
  }
}

} // namespace

void generate(const std::vector<Export> &exports,
              const GenerateOptions &options) {
  if (!isIdentifier(options.name) || !isIdentifier(options.ns))
    throw Error("--name '" + options.name + "' and --namespace '" +
                options.ns + "' must be C identifiers");
  if (exports.empty())
    throw Error("the export list (KTC_AOT_EXPORTS) exports no kernel");
  int hosts = 0;
  for (const std::string &t : options.targets)
    hosts += isHostTarget(t);
  if (hosts > 1)
    throw Error("more than one host target in --targets (host, host-native, "
                "host-<cpu>): a program links one host variant of each "
                "kernel");
  std::set<std::string> names;
  for (const Export &e : exports) {
    if (!isIdentifier(e.name))
      throw Error("export name '" + e.name + "' is not a C identifier");
    if (!names.insert(e.name).second)
      throw Error("export name '" + e.name + "' is used twice");
  }
  std::vector<Prepared> all;
  for (const Export &e : exports)
    all.push_back(prepare(e, options));

  std::string header, source, targets;
  for (const std::string &t : options.targets) {
    std::string cpu;
    if (isHostTarget(t))
      hostTarget(t, cpu);
    targets += (targets.empty() ? "" : ", ") + t +
               (cpu.empty() ? "" : " (" + cpu + ")");
  }
  llvm::raw_string_ostream h(header), s(source);
  h << "// Generated by ktc-aot (ktc_add_kernels " << options.name
    << "): do not edit.\n// Targets: " << targets
    << ". Link ktc::aot-runtime; docs/aot.md.\n#pragma once\n\n"
    << "#include \"ktc/aot/Runtime.h\"\n\n#include <cstdint>\n\n"
    << "namespace " << options.ns << " {\n";
  s << "// Generated by ktc-aot (ktc_add_kernels " << options.name
    << "): do not edit.\n#include \"" << options.name << ".h\"\n\n"
    << "#include <cstring>\n\n";
  if (options.jitFallback)
    s << "// JIT_FALLBACK: no code object for the device -> ktc's JIT with\n"
         "// the export list (lib/Aot/JitFallback.cpp).\n"
         "namespace ktc::aot {\nclass Exports;\nvoid jitLaunch(const "
         "KernelDesc &, const Grid &, void **, Stream, void (*)(Exports &));"
         "\n}\nvoid ktc_aot_exports(ktc::aot::Exports &);\nnamespace {\n"
         "void jit(const ktc::aot::KernelDesc &kernel, const ktc::aot::Grid "
         "&grid, void **args,\n         ktc::aot::Stream stream) {\n"
         "  ktc::aot::jitLaunch(kernel, grid, args, stream, "
         "&ktc_aot_exports);\n}\n} // namespace\n\n";
  std::vector<llvm::NewArchiveMember> members;
  std::vector<std::string> hostObjects, memberNames;
  for (const Prepared &p : all) {
    const std::string &n = p.e->name;
    bool host = false;
    for (const Compiled &c : p.compiled)
      host |= c.target == "host";
    if (host)
      s << "extern \"C\" void ktc_aot_host_" << n << "(void **) __asm__(\"ktc.entry."
        << n << "\");\n";
    s << "namespace {\n";
    for (const Compiled &c : p.compiled)
      if (c.target != "host")
        s << "alignas(16) const unsigned char " << n << "_"
          << identifierOf(c.target) << "_code[] = {\n" << bytesOf(c.kernel.binary) << "};\n";
    s << "const ktc::aot::CodeObject " << n << "_objects[] = {\n";
    for (const Compiled &c : p.compiled) {
      if (c.target == "host")
        s << "  {\"host\", nullptr, 0, 1, 0, &ktc_aot_host_" << n << "},\n";
      else
        s << "  {\"" << c.target << "\", " << n << "_"
          << identifierOf(c.target) << "_code, sizeof(" << n << "_"
          << identifierOf(c.target) << "_code), "
          << c.kernel.threadsPerBlock << ", " << c.dynamicShared
          << ", nullptr},\n";
      if (c.target == "host") {
        hostObjects.push_back(c.kernel.binary);
        hideUnwindTables(hostObjects.back());
        memberNames.push_back(n + ".o");
      }
    }
    uint64_t pointers = 0;
    for (size_t i = 0; i < p.runtime.size(); ++i)
      if (p.runtime[i]->kind.pointer)
        pointers |= uint64_t(1) << i;
    s << "};\nktc::aot::KernelDesc " << n << "_kernel = {\"" << n << "\", "
      << n << "_objects, " << p.compiled.size() << ", " << p.runtime.size()
      << ", " << pointers << "u, {}"
      << (options.jitFallback ? ", &jit" : "")
      << "};\n} // namespace\n\n";

    std::string params = "ktc::aot::Grid grid";
    for (size_t i = 0; i < p.runtime.size(); ++i)
    {
      std::string type = cType(*p.runtime[i], n);
      params += ", " + type + (type.back() == '*' ? "" : " ") + p.argNames[i];
    }
    h << "\n/// Kernel '" << p.e->kernel << "'"
      << (p.constexprs.empty() ? "" : " with " + p.constexprs)
      << ", num_warps = " << p.e->options.num_warps
      << ", num_stages = " << p.e->options.num_stages
      << "; for " << targets << ".\nvoid " << n << "(" << params
      << ", ktc::aot::Stream stream = {});\n";
    s << "void " << options.ns << "::" << n << "(" << params
      << ", ktc::aot::Stream stream) {\n";
    size_t count = std::max<size_t>(p.runtime.size(), 1);
    s << "  uint64_t slots[" << count << "] = {};\n  void *args[" << count
      << "] = {";
    for (size_t i = 0; i < count; ++i)
      s << (i ? ", " : "") << "&slots[" << i << "]";
    s << "};\n";
    for (size_t i = 0; i < p.runtime.size(); ++i)
      s << "  std::memcpy(&slots[" << i << "], &" << p.argNames[i]
        << ", sizeof(" << p.argNames[i] << "));\n";
    s << "  ktc::aot::launch(" << n << "_kernel, grid, args, stream);\n}\n\n";
  }
  h << "\n} // namespace " << options.ns << "\n";

  if (std::error_code ec = llvm::sys::fs::create_directories(options.outDir))
    throw Error("cannot create " + options.outDir + ": " + ec.message());
  auto path = [&](const std::string &file) {
    llvm::SmallString<256> p(options.outDir);
    llvm::sys::path::append(p, file);
    return p.str().str();
  };
  // Each GPU code object also as a file, to inspect or to load by hand
  // (test/aot's CUDA program times cuLaunchKernel on it).
  for (const Prepared &p : all)
    for (const Compiled &c : p.compiled)
      if (c.target != "host")
        writeFile(path(p.e->name + "." + c.target +
                       (c.target.rfind("sm_", 0) == 0 ? ".ptx" : ".hsaco")),
                  c.kernel.binary);
  writeFile(path(options.name + ".h"), header);
  writeFile(path(options.name + ".cpp"), source);
  for (size_t k = 0; k < hostObjects.size(); ++k)
    members.emplace_back(
        llvm::MemoryBufferRef(hostObjects[k], memberNames[k]));
  if (llvm::Error e = llvm::writeArchive(
          path(options.name + "_host.a"), members,
          llvm::SymtabWritingMode::NormalSymtab,
          llvm::object::Archive::K_GNU, /*Deterministic=*/true,
          /*Thin=*/false))
    throw Error("cannot write the host archive: " +
                llvm::toString(std::move(e)));
}

} // namespace ktc::aot
