// .debug_frame as ptxas writes it even without -g: 64-bit DWARF, one CIE (code alignment 4,
// data alignment -4, CFA = R1 + 0, return address column 0xffffffff), then one FDE per function
// whose initial location is relocated (R_CUDA_64) to the function symbol.
#include "optxas/codegen/CubinAssembly.h"

namespace optxas::codegen {

namespace {

// DWARF register number of R1 on CUDA (ULEB128 81 80 80 28).
constexpr uint32_t kDwarfR1 = 0x05000001;
constexpr uint32_t kDwarfRZ = 0x050000ff;

void put32(std::vector<uint8_t> &o, uint32_t v) {
  for (int i = 0; i < 4; ++i) o.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put64(std::vector<uint8_t> &o, uint64_t v) {
  for (int i = 0; i < 8; ++i) o.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void uleb(std::vector<uint8_t> &o, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    if (v) b |= 0x80;
    o.push_back(b);
  } while (v);
}
// A 64-bit DWARF entry: 0xffffffff, 64-bit length, body padded to 4 bytes.
void entry(std::vector<uint8_t> &o, std::vector<uint8_t> body) {
  while (body.size() % 4) body.push_back(0);
  put32(o, 0xffffffff);
  put64(o, body.size());
  o.insert(o.end(), body.begin(), body.end());
}

} // namespace

elf::DebugSection debugFrame(const std::vector<const ori::Function *> &functions,
                             const std::vector<uint32_t> &codeSizes,
                             const std::vector<uint32_t> &cfaOffsets) {
  elf::DebugSection s;
  s.name = ".debug_frame";
  std::vector<uint8_t> cie;
  put64(cie, ~0ull);      // CIE id
  cie.push_back(3);       // version
  cie.push_back(0);       // augmentation ""
  uleb(cie, 4);           // code alignment factor
  cie.push_back(0x7c);    // data alignment factor -4
  uleb(cie, 0xffffffff);  // return address column
  cie.push_back(0x0c);    // DW_CFA_def_cfa R1, 0
  uleb(cie, kDwarfR1);
  uleb(cie, 0);
  cie.push_back(0x08);    // DW_CFA_same_value RZ
  uleb(cie, kDwarfRZ);
  cie.push_back(0x08);    // DW_CFA_same_value R1
  uleb(cie, kDwarfR1);
  entry(s.data, cie);
  for (size_t k = 0; k < functions.size(); ++k) {
    std::vector<uint8_t> fde;
    put64(fde, 0);                       // CIE pointer
    size_t locAt = s.data.size() + 12 + fde.size();
    put64(fde, 0);                       // initial location (relocated)
    put64(fde, codeSizes[k]);            // address range
    if (cfaOffsets[k]) {
      fde.push_back(0x04);               // DW_CFA_advance_loc4
      put32(fde, cfaOffsets[k] / 4);
      fde.push_back(0x0c);               // DW_CFA_def_cfa R1, 0
      uleb(fde, kDwarfR1);
      uleb(fde, 0);
    }
    entry(s.data, fde);
    elf::Relocation r;
    r.offset = locAt;
    r.type = elf::RelocType::R_CUDA_64;
    r.symbol = functions[k]->name();
    r.addend = 0;
    s.relocations.push_back(r);
  }
  return s;
}

} // namespace optxas::codegen
