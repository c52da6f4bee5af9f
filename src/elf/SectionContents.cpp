// Step 2 of writing: the bytes of the notes, .nv.info sections, call graph, prototypes and
// relocation tables. Symbol operands are symbol-table indices, known once step 1 is done.
#include "ByteIO.h"
#include "NvInfoOrder.h"
#include "WriterState.h"
#include "optxas/elf/ElfFormat.h"

#include <fmt/format.h>

#include <algorithm>

namespace optxas::elf {

namespace {

std::vector<uint8_t> note(uint32_t type, const std::vector<uint8_t> &desc) {
  std::vector<uint8_t> out;
  ByteWriter w(out);
  static const char owner[] = "NVIDIA Corp";
  w.u32(sizeof owner);
  w.u32(static_cast<uint32_t>(desc.size()));
  w.u32(type);
  w.cstr(owner);
  w.bytes(desc);
  return out;
}

std::vector<uint8_t> toolkitNote(const ToolkitNote &t) {
  std::vector<uint8_t> strings;
  ByteWriter s(strings);
  uint32_t offs[5];
  const std::string *src[5] = {&t.objectFile, &t.toolName, &t.toolVersion, &t.toolBranch, &t.commandLine};
  for (int i = 0; i < 5; ++i) {
    offs[i] = static_cast<uint32_t>(strings.size());
    s.cstr(*src[i]);
  }
  s.alignTo(4);
  std::vector<uint8_t> desc;
  ByteWriter d(desc);
  d.u32(t.noteVersion);
  for (uint32_t o : offs) d.u32(o);
  d.bytes(strings);
  return note(kNoteToolkitInfo, desc);
}

std::vector<uint8_t> cudaNote(const CudaNote &n) {
  std::vector<uint8_t> desc;
  ByteWriter d(desc);
  d.u16(n.noteVersion);
  d.u16(n.virtualSm);
  d.u32(n.toolkitVersion);
  return note(kNoteCudaInfo, desc);
}

uint8_t k(NvInfoKind kind) { return static_cast<uint8_t>(kind); }

// Module .nv.info: functions from last to first, then the minimum stack sizes.
std::vector<NvInfoRecord> moduleInfo(const WriterState &w) {
  std::vector<NvInfoRecord> recs;
  const auto &fns = w.cubin.functions;
  auto sym = [&](const std::string &n) { return static_cast<uint32_t>(w.symbolIndex(n)); };
  if (w.cubin.istypepUsed) recs.push_back(NvInfoRecord::flag(k(NvInfoKind::ISTYPEP_USED)));
  for (auto it = fns.rbegin(); it != fns.rend(); ++it) {
    const Function &f = *it;
    uint32_t s = sym(f.name);
    recs.push_back(NvInfoRecord::sized(k(NvInfoKind::REGCOUNT), std::vector<uint32_t>{s, f.registerCount}));
    // The samplers' initial states, last symbol first, follow the first REGCOUNT (ptxas, one
    // kernel; with several functions their place is a guess).
    if (it == fns.rbegin())
      for (auto t = w.cubin.textureRefs.rbegin(); t != w.cubin.textureRefs.rend(); ++t)
        if (t->kind == TextureReference::Kind::Sampler)
          recs.push_back(NvInfoRecord::sized(k(NvInfoKind::SAMPLER_INIT), std::vector<uint32_t>{sym(t->name), t->samplerInit}));
    if (f.maxStackSize)
      recs.push_back(NvInfoRecord::sized(k(NvInfoKind::MAX_STACK_SIZE), std::vector<uint32_t>{s, *f.maxStackSize}));
    if (f.queriesTextures && f.minStackSize)
      recs.push_back(NvInfoRecord::sized(k(NvInfoKind::MIN_STACK_SIZE), std::vector<uint32_t>{s, *f.minStackSize}));
    for (auto sub = f.subroutines.rbegin(); sub != f.subroutines.rend(); ++sub)
      recs.push_back(
          NvInfoRecord::sized(k(NvInfoKind::FRAME_SIZE), std::vector<uint32_t>{sym(sub->name), sub->frameSize}));
    recs.push_back(NvInfoRecord::sized(k(NvInfoKind::FRAME_SIZE), std::vector<uint32_t>{s, f.frameSize}));
    if (f.genErrbarAtExit) recs.push_back(NvInfoRecord::flag(k(NvInfoKind::GEN_ERRBAR_AT_EXIT)));
  }
  if (w.cubin.texmodeIndependent) recs.push_back(NvInfoRecord::flag(k(NvInfoKind::TEXMODE_INDEPENDENT)));
  // Minimum stack sizes follow in symbol-table order.
  std::vector<std::pair<uint32_t, uint32_t>> minStacks;
  for (const auto &f : fns)
    if (f.minStackSize && !f.queriesTextures) minStacks.push_back({sym(f.name), *f.minStackSize});
  std::sort(minStacks.begin(), minStacks.end());
  for (auto [s, v] : minStacks)
    recs.push_back(NvInfoRecord::sized(k(NvInfoKind::MIN_STACK_SIZE), std::vector<uint32_t>{s, v}));
  return recs;
}

std::vector<uint8_t> callGraph(WriterState &w) {
  std::vector<uint8_t> out;
  ByteWriter o(out);
  const auto &g = w.cubin.callGraph;
  auto sym = [&](const std::string &n) -> uint32_t { return n.empty() ? 0 : w.symbolIndex(n); };
  auto str = [&](const std::string &s) { return w.b.strtab().add(s); };
  o.u32(0), o.u32(static_cast<uint32_t>(-1));
  for (const auto &p : g.calls) o.u32(sym(p.first)), o.u32(sym(p.second));
  o.u32(0), o.u32(static_cast<uint32_t>(-2));
  for (const auto &p : g.addressTaken) o.u32(sym(p.first)), o.u32(str(p.second));
  o.u32(0), o.u32(static_cast<uint32_t>(-3));
  for (const auto &p : g.indirectCalls) o.u32(sym(p.first)), o.u32(str(p.second));
  o.u32(0), o.u32(static_cast<uint32_t>(-4));
  for (const auto &p : g.indirectTargets) o.u32(sym(p.first)), o.u32(sym(p.second));
  return out;
}

void fillRelocations(WriterState &w, int target, const std::vector<Relocation> &relocs) {
  for (bool rela : {false, true}) {
    auto &m = rela ? w.rela : w.rel;
    auto it = m.find(target);
    // Newest first, as ptxas writes them.
    std::vector<ElfReloc> entries;
    for (auto ri = relocs.rbegin(); ri != relocs.rend(); ++ri)
      if (const Relocation &r = *ri; r.explicitAddend == rela)
        entries.push_back({r.offset, static_cast<uint32_t>(w.symbolIndex(r.symbol)), static_cast<uint32_t>(r.type),
                           rela ? r.addend : 0});
    if (it == m.end() || w.b.section(it->second).dropped) {
      if (!entries.empty()) throw WriteError("relocations without a relocation section");
      continue;
    }
    w.b.section(it->second).data = encodeRelocs(entries, rela);
  }
}

} // namespace

void fillContents(WriterState &w) {
  auto &b = w.b;
  const Cubin &c = w.cubin;
  b.section(w.tkinfo).data = toolkitNote(c.toolkit);
  b.section(w.cuinfo).data = cudaNote(c.cudaNote);
  if (w.compat >= 0) b.section(w.compat).data = encodeNvInfo(c.compat);
  b.section(w.moduleInfo).data = encodeNvInfo(moduleInfo(w));
  for (const auto &f : c.functions) {
    auto &fs = w.fn.at(f.name);
    b.section(fs.text).data = f.code;
    if (fs.info >= 0) {
      uint32_t bank = fs.bank0 >= 0 ? b.section(fs.bank0).symbol : 0;
      auto recs = functionInfoRecords(c.target, f, bank,
                                      [&](const std::string &n) { return static_cast<uint32_t>(w.symbolIndex(n)); });
      b.section(fs.info).data = encodeNvInfo(recs);
    }
    if (fs.bank0 >= 0) {
      b.section(fs.bank0).data.assign(c.target.paramBase() + f.paramBlockSize + f.textureRefSlotBytes, 0);
      fillRelocations(w, fs.bank0, f.constant0Relocations);
    }
    fillRelocations(w, fs.text, f.relocations);
    if (fs.bank2 >= 0) fillRelocations(w, fs.bank2, f.constant2Relocations);
  }
  for (const auto &cb : c.constantBanks) fillRelocations(w, w.banks.at(cb.bank), cb.relocations);
  if (w.globalInit >= 0) fillRelocations(w, w.globalInit, c.globalInitRelocations);
  for (const auto &d : c.debugSections) {
    int s = w.debug.at(d.name);
    b.section(s).data = d.data;
    fillRelocations(w, s, d.relocations);
  }
  b.section(w.callgraph).data = callGraph(w);
  std::vector<uint8_t> proto;
  ByteWriter p(proto);
  std::vector<std::pair<uint32_t, uint32_t>> protos; // sorted by symbol in the section
  for (const auto &pr : c.prototypes)
    protos.push_back({static_cast<uint32_t>(w.symbolIndex(pr.symbol)), b.strtab().add(pr.prototype)});
  std::sort(protos.begin(), protos.end());
  for (auto [sym, str] : protos) p.u32(sym), p.u32(str);
  b.section(w.prototype).data = proto;
}

} // namespace optxas::elf
