// The DWARF sections of a debug build's PTX (.debug_abbrev, .debug_info, .debug_loc, ...) in the
// cubin, as ptxas 13.0 writes them: the bytes as the PTX gives them, every label (.b64
// $L__func_begin0) an R_CUDA_64 relocation against its function with the label's code offset as
// addend (and in the bytes), label differences resolved to numbers. References to sections, parameters and the
// local depot stay zero (ptxas fills some of them in; docs/elf.md, "Differences"). In -c objects
// the addresses of variables and offsets into .debug_loc are relocations, as ptxas writes them.
#include "optxas/codegen/CubinAssembly.h"
#include "optxas/codegen/Emit.h"

#include <algorithm>

namespace optxas::codegen {

namespace {

// The code offset of PTX line `line` (0: the section's end): the first instruction made from the
// nearest PTX line at or after it (code from later lines may have moved earlier).
uint64_t offsetOfLine(const ori::Function &f, const target::MachineModel &model, uint32_t line, uint64_t end) {
  if (line == 0) return end;
  Layout layout = layoutFunction(f, model);
  uint32_t best = 0;
  uint64_t at = end;
  for (size_t k = 0; k < layout.order.size(); ++k) {
    uint32_t l = layout.order[k]->loc().line;
    if (l >= line && (best == 0 || l < best)) best = l, at = k * model.instrBytes();
  }
  return at;
}

// ptxas's order of the debug sections (after .debug_frame); others follow in PTX order.
int rank(const std::string &name) {
  static const char *const order[] = {".debug_line", ".debug_str",    ".nv_debug_line_sass", ".nv_debug_ptx_txt",
                                      ".debug_abbrev", ".debug_loc", ".debug_info"};
  if (name.starts_with(".nv_debug_ptx_txt")) return 3;   // -c: ".nv_debug_ptx_txt.<hash>"
  for (int k = 0; k < 7; ++k)
    if (name == order[k]) return k;
  return name == ".debug_macinfo" ? 8 : 7;
}

} // namespace

std::vector<elf::DebugSection> dwarfSections(const ori::Module &m, const PtxDeclarations &decls,
                                             const std::vector<elf::Function> &functions, bool relocatable) {
  std::vector<elf::DebugSection> out;
  const target::MachineModel *model = target::machineModel(m.smVersion());
  if (!model) return out;
  const std::vector<DwarfSectionInput> &in = decls.dwarf;
  std::vector<elf::DebugSection> lines = lineTables(m, decls.lines, functions);
  bool haveLines = !lines.empty();
  std::vector<const DwarfSectionInput *> sorted;
  for (const DwarfSectionInput &s : in) sorted.push_back(&s);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const DwarfSectionInput *a, const DwarfSectionInput *b) { return rank(a->name) < rank(b->name); });
  for (const DwarfSectionInput *s : sorted) {
    elf::DebugSection d;
    d.name = s->name;
    d.data = s->bytes;
    for (const DwarfLabelRef &r : s->refs) {
      if (!r.symbol.empty()) {
        bool known = std::any_of(in.begin(), in.end(), [&](const DwarfSectionInput &x) { return x.name == r.symbol; }) ||
                     m.findSymbol(r.symbol) >= 0 || (haveLines && r.symbol == ".debug_line");
        if (relocatable && known)
          d.relocations.push_back({r.offset, r.width == 4 ? elf::RelocType::R_CUDA_32 : elf::RelocType::R_CUDA_64,
                                   r.symbol, r.addend, true});
        continue;
      }
      const ori::Function *f = m.findFunction(r.function);
      auto ef = std::find_if(functions.begin(), functions.end(), [&](const elf::Function &x) { return x.name == r.function; });
      if (!f || ef == functions.end() || r.offset + r.width > d.data.size()) continue;   // not emitted: stays 0
      uint64_t end = ef->code.size();
      uint64_t at = offsetOfLine(*f, *model, r.line, end);
      if (r.difference) {
        uint64_t v = at - offsetOfLine(*f, *model, r.otherLine, end);
        for (unsigned b = 0; b < r.width; ++b) d.data[r.offset + b] = static_cast<uint8_t>(v >> (8 * b));
        continue;
      }
      // ptxas also leaves the offset in the bytes.
      for (unsigned b = 0; b < r.width; ++b) d.data[r.offset + b] = static_cast<uint8_t>(at >> (8 * b));
      elf::Relocation rel;
      rel.offset = r.offset;
      rel.type = r.width == 4 ? elf::RelocType::R_CUDA_32 : elf::RelocType::R_CUDA_64;
      rel.symbol = r.function;
      rel.addend = static_cast<int64_t>(at);
      d.relocations.push_back(rel);
    }
    out.push_back(std::move(d));
  }
  for (elf::DebugSection &l : lines) out.push_back(std::move(l));
  std::stable_sort(out.begin(), out.end(),
                   [](const elf::DebugSection &a, const elf::DebugSection &b) { return rank(a.name) < rank(b.name); });
  return out;
}

} // namespace optxas::codegen
