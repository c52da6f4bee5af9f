// The register maps of debug builds (-g), as ptxas 13.0 writes them (docs/elf.md, "Register
// maps"): per function section, in section order, its name and a u32 count, then
//   .nv_debug_info_reg_sass  per entry: u32 piece, the PTX register's name (NUL-terminated),
//                            u8 SASS register, u16 0, u8 register file, u32 start, u32 end;
//   .nv_debug_info_reg_type  per entry: the type byte of the PTX register.
// The entries are Function::registerMap (phase 149, CalcRegisterMap). No relocations.
#include "optxas/codegen/CubinAssembly.h"

namespace optxas::codegen {

namespace {

void put32(std::vector<uint8_t> &o, uint32_t v) {
  for (int b = 0; b < 4; ++b) o.push_back(static_cast<uint8_t>(v >> (8 * b)));
}

void text(std::vector<uint8_t> &o, const std::string &s) {
  o.insert(o.end(), s.begin(), s.end());
  o.push_back(0);
}

} // namespace

std::vector<elf::DebugSection> registerMaps(const ori::Module &m, const std::vector<elf::Function> &functions) {
  elf::DebugSection sass, type;
  sass.name = ".nv_debug_info_reg_sass";
  type.name = ".nv_debug_info_reg_type";
  for (const elf::Function &ef : functions) {
    const ori::Function *f = m.findFunction(ef.name);
    if (!f) continue;
    const std::vector<ori::RegisterMapEntry> &map = f->registerMap;
    text(sass.data, ef.name);
    put32(sass.data, static_cast<uint32_t>(map.size()));
    text(type.data, ef.name);
    put32(type.data, static_cast<uint32_t>(map.size()));
    for (const ori::RegisterMapEntry &e : map) {
      put32(sass.data, e.piece);
      text(sass.data, e.name);
      sass.data.push_back(static_cast<uint8_t>(e.reg));
      sass.data.insert(sass.data.end(), {0, 0});
      sass.data.push_back(e.file);
      put32(sass.data, e.start);
      put32(sass.data, e.end);
      type.data.push_back(e.type);
    }
  }
  if (sass.data.empty()) return {};
  std::vector<elf::DebugSection> out;
  out.push_back(std::move(sass));
  out.push_back(std::move(type));
  return out;
}

} // namespace optxas::codegen
