#include "optxas/elf/CubinPrinter.h"

#include <fmt/format.h>

namespace optxas::elf {

namespace {
std::string hexWords(const std::vector<uint32_t> &w) {
  std::string s = "[";
  for (size_t i = 0; i < w.size(); ++i) s += fmt::format("{}{:#x}", i ? " " : "", w[i]);
  return s + "]";
}
std::string bytesSummary(const std::vector<uint8_t> &d) {
  uint32_t sum = 0;
  for (uint8_t b : d) sum = sum * 31 + b;
  return fmt::format("{} bytes (hash {:08x})", d.size(), sum);
}
} // namespace

std::string formatAttribute(const Attribute &a) {
  std::string name = nvInfoKindName(static_cast<uint8_t>(a.kind));
  switch (a.format) {
  case NvInfoFormat::None: return name;
  case NvInfoFormat::Byte:
  case NvInfoFormat::Half: return fmt::format("{} {:#x}", name, a.value);
  case NvInfoFormat::Sized: {
    std::string s = name + " " + hexWords(a.words);
    for (const auto &sym : a.symbols) s += " " + sym;
    return s;
  }
  }
  return name;
}

std::string formatRelocation(const Relocation &r) {
  return fmt::format("{:#x} {} {}{:+#x} ({})", r.offset, relocTypeName(r.type), r.symbol.empty() ? "-" : r.symbol,
                     r.addend, r.explicitAddend ? "rela" : "rel");
}

std::string formatKernelParam(const KernelParam &p) {
  return fmt::format("#{} offset {:#x} size {} logAlign {} space {} cbank {:#x}{}{}", p.ordinal, p.offset, p.size,
                     p.logAlign, p.space, p.cbank, p.inSharedMemory ? " smem" : "",
                     p.index ? fmt::format(" index {}", p.index) : "");
}

std::string printCubin(const Cubin &c, bool withCode) {
  std::string out;
  auto line = [&](const std::string &s) { out += s + "\n"; };
  line(fmt::format("target {} {} e_flags-high {:#x}", c.target.name(),
                   c.kind == ObjectKind::Executable ? "executable" : "relocatable", c.headerFlagsHigh));
  line(fmt::format("cuinfo version {} virtual sm_{} toolkit {}", c.cudaNote.noteVersion, c.cudaNote.virtualSm,
                   c.cudaNote.toolkitVersion));
  line(fmt::format("tkinfo \"{}\" \"{}\" \"{}\" \"{}\" object \"{}\"", c.toolkit.toolName, c.toolkit.toolVersion,
                   c.toolkit.toolBranch, c.toolkit.commandLine, c.toolkit.objectFile));
  for (const auto &r : c.compat)
    line(fmt::format("compat {} {}", compatKindName(r.kind),
                     r.format == NvInfoFormat::Sized ? hexWords(r.words()) : fmt::format("{:#x}", r.value)));
  for (const auto &f : c.functions) {
    line(fmt::format("function {} {}{}{} code {}", f.name, f.isKernel() ? "kernel" : "device",
                     f.weak ? " weak" : f.global ? " global" : " local", f.visibility ? " vis" : "",
                     withCode ? bytesSummary(f.code) : fmt::format("{} bytes", f.code.size())));
    line(fmt::format("  registers {} frame {:#x}{}{}{}", f.registerCount, f.frameSize,
                     f.minStackSize ? fmt::format(" min-stack {:#x}", *f.minStackSize) : "",
                     f.maxStackSize ? fmt::format(" max-stack {:#x}", *f.maxStackSize) : "",
                     f.genErrbarAtExit ? " errbar-at-exit" : ""));
    for (const auto &p : f.params) line("  param " + formatKernelParam(p));
    if (!f.params.empty() || f.paramBlockSize) line(fmt::format("  param-block {:#x}", f.paramBlockSize));
    for (const auto &a : f.attributes) line("  " + formatAttribute(a));
    for (const auto &s : f.subroutines)
      line(fmt::format("  subroutine {} at {:#x} size {:#x} frame {:#x}{}{}", s.name, s.offset, s.size, s.frameSize,
                       s.weak ? " weak" : "", s.global ? " global" : ""));
    if (f.sharedSize)
      line(fmt::format("  shared {:#x} align {}{}", *f.sharedSize, f.sharedAlign, f.staticShared ? " static" : ""));
    if (f.constant2) line("  constant2 " + bytesSummary(*f.constant2));
    for (const auto &r : f.relocations) line("  reloc " + formatRelocation(r));
  }
  for (const auto &v : c.variables)
    line(fmt::format("variable {} space {} {}offset {:#x} size {:#x}{}", v.name, static_cast<int>(v.space),
                     v.owner.empty() ? "" : v.owner + " ", v.offset, v.size, v.global ? " global" : ""));
  for (const auto &e : c.externals)
    line(fmt::format("external {} kind {}{} size {}", e.name, static_cast<int>(e.kind), e.weak ? " weak" : "", e.size));
  for (const auto &b : c.constantBanks) {
    line(fmt::format("bank {} {} align {}", b.bank, bytesSummary(b.data), b.align));
    for (const auto &r : b.relocations) line("  reloc " + formatRelocation(r));
  }
  if (c.globalSize) line(fmt::format("global {:#x} align {}", *c.globalSize, c.globalAlign));
  if (c.globalInit) line(fmt::format("global-init {} align {}", bytesSummary(*c.globalInit), c.globalInitAlign));
  for (const auto &r : c.globalInitRelocations) line("  reloc " + formatRelocation(r));
  for (const auto &e : c.callGraph.calls) line("call " + e.first + " -> " + e.second);
  for (const auto &e : c.callGraph.addressTaken) line("address-taken " + e.first + " " + e.second);
  for (const auto &e : c.callGraph.indirectCalls) line("indirect-call " + e.first + " " + e.second);
  for (const auto &e : c.callGraph.indirectTargets) line("indirect-target " + e.first + " -> " + e.second);
  for (const auto &p : c.prototypes) line("prototype " + p.symbol + " " + p.prototype);
  for (const auto &d : c.debugSections) line(fmt::format("debug {} {}", d.name, bytesSummary(d.data)));
  for (const auto &m : c.mercury) line(fmt::format("mercury {} {}", m.name, bytesSummary(m.data)));
  return out;
}

} // namespace optxas::elf
