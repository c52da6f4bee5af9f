// Step 3 of writing: sort the surviving sections into ptxas's segment order, encode the symbol
// table, assign file offsets and build the program headers of executables.
#include "WriterState.h"
#include "optxas/elf/ElfFormat.h"

#include <algorithm>
#include <numeric>

namespace optxas::elf {

namespace {

uint64_t alignUp(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

bool occupiesNoFileSpace(const BuildSection &s) {
  return occupiesNoFileBytes(s.type, s.flags) || (s.group == SectionGroup::Mercury && s.data.empty() && s.size);
}

// ptxas places .strtab after .shstrtab plus a gap of zero bytes: on sm_90, 14 bytes plus
// (18 + name length) per function; from sm_100 on, 36 bytes. (Measured.)
uint64_t shstrtabSlack(const Cubin &c) {
  if (c.target.sm >= 100) return 36;
  uint64_t n = 14;
  for (const auto &f : c.functions) n += 18 + f.name.size();
  return n;
}

} // namespace

std::vector<uint8_t> layoutFile(WriterState &w) {
  auto &b = w.b;
  auto &secs = b.sections();
  // Final order: by group, then creation order.
  std::vector<int> order;
  for (size_t i = 1; i < secs.size(); ++i)
    if (!secs[i].dropped) order.push_back(static_cast<int>(i));
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int c) { return static_cast<int>(secs[a].group) < static_cast<int>(secs[c].group); });
  order.insert(order.begin(), 0);
  std::vector<int> finalIndex(secs.size(), 0);
  for (size_t i = 0; i < order.size(); ++i) finalIndex[order[i]] = static_cast<int>(i);

  // Symbol table and string tables.
  std::vector<ElfSymbol> syms;
  for (const auto &y : b.symbols()) {
    ElfSymbol e;
    e.nameOffset = y.stName;
    e.info = y.info;
    e.other = y.other;
    e.shndx = y.section >= 0 ? static_cast<uint16_t>(finalIndex[y.section]) : 0;
    e.value = y.value;
    e.size = y.size;
    syms.push_back(e);
  }
  secs[w.symtab].data = encodeSymbols(syms);
  // sh_info: sm_90+ writes the symbol count; sm_8x the index of the first non-local symbol.
  uint32_t symInfoField = static_cast<uint32_t>(syms.size());
  if (w.legacy())
    for (size_t i = 0; i < syms.size(); ++i)
      if (symBind(syms[i].info) == STB_GLOBAL) {
        symInfoField = static_cast<uint32_t>(i);
        break;
      }
  // With texture references (undefined GLOBAL symbols after the last local one) ptxas writes
  // one past the last local symbol, which is the count whenever a section symbol comes last.
  if (!w.legacy() && !w.cubin.textureRefs.empty()) {
    symInfoField = 0;
    for (size_t i = 0; i < syms.size(); ++i)
      if (symBind(syms[i].info) == STB_LOCAL) symInfoField = static_cast<uint32_t>(i + 1);
  }
  secs[w.symtab].infoRaw = symInfoField;
  secs[w.strtab].data = b.strtab().bytes();
  secs[w.shstrtab].data = b.shstrtab().bytes();

  ElfImage img;
  img.osAbi = kElfOsAbiCuda;
  img.abiVersion = kElfAbiVersionCuda;
  img.type = w.relocatable() ? kEtRel : kEtExec;
  img.machine = kEmCuda;
  const Cubin &c = w.cubin;
  // Capmerc only when the cubin carries Mercury sections: the builder makes none, and a cubin
  // that claimed them without having them would crash nvlink (docs/elf.md).
  uint8_t kind = c.mercury.empty() ? kElfKindSass : kElfKindCapmerc;
  img.flags = static_cast<uint32_t>(c.headerFlagsHigh) << 24 | (c.target.sm & 0xff) << 8 | kind;
  img.shstrndx = static_cast<uint16_t>(finalIndex[w.shstrtab]);

  uint64_t pos = 64;
  for (int i : order) {
    const BuildSection &s = secs[i];
    ElfSection e;
    e.name = s.name;
    e.nameOffset = s.shName;
    e.type = s.type;
    e.flags = s.flags;
    e.align = s.align;
    e.entsize = s.entsize;
    e.link = s.linkSection >= 0 ? finalIndex[s.linkSection] : s.linkRaw;
    e.info = s.infoSection >= 0  ? finalIndex[s.infoSection]
             : s.infoSymbol >= 0 ? static_cast<uint32_t>(s.infoSymbol) | s.infoHighByte << 24
                                 : s.infoRaw;
    if (i == 0) {
      img.sections.push_back(e);
      continue;
    }
    if (s.aliasOf >= 0) {
      e.data = s.data;
      e.size = s.data.size();
      e.offset = img.sections[finalIndex[s.aliasOf]].offset;
    } else if (occupiesNoFileSpace(s)) {
      e.size = s.size;
      pos = alignUp(pos, s.align); // the position advances to the alignment, not past the size
      e.offset = pos;
    } else {
      e.data = s.data;
      e.size = s.data.size();
      e.offset = alignUp(pos, s.align);
      pos = e.offset + e.size;
    }
    if (i == w.shstrtab && !w.legacy()) pos += shstrtabSlack(c);
    if (i == w.strtab) pos += c.strtabPadding;
    img.sections.push_back(std::move(e));
  }
  img.shoff = alignUp(pos, 8);
  uint64_t end = img.shoff + 64 * img.sections.size();

  if (!w.relocatable()) {
    // sm_90+: PHDR and a LOAD of the program headers first, then one LOAD per allocated segment.
    // sm_8x: PHDR, one LOAD over constants and code, one over data, the program headers' LOAD last.
    struct Group {
      std::vector<SectionGroup> groups;
      uint32_t flags;
    };
    std::vector<Group> groups;
    if (w.legacy())
      groups = {{{SectionGroup::ConstantData, SectionGroup::Text}, PF_R | PF_X},
                {{SectionGroup::InitData, SectionGroup::Uninit}, PF_R | PF_W}};
    else
      groups = {{{SectionGroup::ConstantData}, PF_R},
                {{SectionGroup::Text}, PF_R | PF_X},
                {{SectionGroup::InitData, SectionGroup::Uninit}, PF_R | PF_W},
                {{SectionGroup::ParamBank}, PF_R}};
    std::vector<ElfSegment> loads;
    for (const auto &g : groups) {
      bool any = false;
      uint64_t nobits = 0;
      ElfSegment seg{PT_LOAD, g.flags, 0, 0, 0, 0, 0, 8};
      for (size_t k = 1; k < order.size(); ++k) {
        const BuildSection &s = secs[order[k]];
        if (std::find(g.groups.begin(), g.groups.end(), s.group) == g.groups.end()) continue;
        const ElfSection &e = img.sections[k];
        if (!any) seg.offset = e.offset;
        any = true;
        // The file part reaches the end of the last bytes, or the (aligned) start of NOBITS data.
        if (!occupiesNoFileSpace(s)) seg.filesz = e.offset + e.size - seg.offset;
        else nobits += e.size, seg.filesz = std::max(seg.filesz, e.offset - seg.offset);
      }
      seg.memsz = seg.filesz + nobits; // the NOBITS sections are counted one after another
      if (any) loads.push_back(seg);
    }
    uint64_t n = 2 + loads.size();
    img.phoff = end;
    uint32_t selfFlags = w.legacy() ? PF_R | PF_X : PF_R;
    ElfSegment phdr{PT_PHDR, selfFlags, img.phoff, 0, 0, 56 * n, 56 * n, 8};
    ElfSegment self{PT_LOAD, selfFlags, img.phoff, 0, 0, 56 * n, 56 * n, 8};
    img.segments.push_back(phdr);
    if (!w.legacy()) img.segments.push_back(self);
    for (auto &l : loads) img.segments.push_back(l);
    if (w.legacy()) img.segments.push_back(self);
    end = img.phoff + 56 * n;
  }
  if (img.segments.empty() && !w.legacy()) img.phentsize = 0;
  img.fileSize = end;
  return serializeElf(img);
}

} // namespace optxas::elf
