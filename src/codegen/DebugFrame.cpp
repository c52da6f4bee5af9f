// .debug_frame as ptxas writes it even without -g: 64-bit DWARF, one CIE (code alignment 4,
// data alignment -4, CFA = R1 + 0, return address column 0xffffffff), then one FDE per function
// whose initial location is relocated (R_CUDA_64) to the function symbol, covering the function's
// own code; each subroutine placed in its section gets a CIE of its own (how to find the return
// address) and an FDE.
#include "optxas/codegen/CubinAssembly.h"

namespace optxas::codegen {

namespace {

// DWARF register number of R1 on CUDA (ULEB128 81 80 80 28).
constexpr uint32_t kDwarfR1 = 0x05000001;
constexpr uint32_t kDwarfRZ = 0x050000ff;
constexpr uint32_t kDwarfR20 = 0x05000014;
// The column ptxas gives a subroutine's return address.
constexpr uint32_t kDwarfReturnAddress = 0x05000100;

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

// A CIE's fixed fields as ptxas writes them: id, version 3, no augmentation, code alignment 4,
// data alignment -4, then the return address column.
std::vector<uint8_t> cieHeader(uint32_t returnColumn) {
  std::vector<uint8_t> cie;
  put64(cie, ~0ull);      // CIE id
  cie.push_back(3);       // version
  cie.push_back(0);       // augmentation ""
  uleb(cie, 4);           // code alignment factor
  cie.push_back(0x7c);    // data alignment factor -4
  uleb(cie, returnColumn);
  return cie;
}

// The CIE of a subroutine placed in a kernel's section (whole programs): its return address is a
// pseudo register (column 0x05000100) whose value is the kernel's address plus the register the
// caller put the return offset in (R20, docs/abi.md): DW_OP_addr <kernel> (relocated),
// DW_OP_bregx R20 0, DW_OP_plus. ptxas writes one such CIE before each subroutine's FDE.
std::vector<uint8_t> subroutineCie(uint32_t dwarfReturnReg, size_t &addrAt) {
  std::vector<uint8_t> cie = cieHeader(kDwarfReturnAddress);
  cie.push_back(0x0c);    // DW_CFA_def_cfa R1, 0
  uleb(cie, kDwarfR1);
  uleb(cie, 0);
  cie.push_back(0x08);    // DW_CFA_same_value RZ, R1 and the return register
  uleb(cie, kDwarfRZ);
  cie.push_back(0x08);
  uleb(cie, kDwarfR1);
  cie.push_back(0x08);
  uleb(cie, dwarfReturnReg);
  cie.push_back(0x16);    // DW_CFA_val_expression return address:
  uleb(cie, kDwarfReturnAddress);
  std::vector<uint8_t> expr;
  expr.push_back(0x03);   //   DW_OP_addr <kernel> (bytes 0, relocated)
  put64(expr, 0);
  expr.push_back(0x92);   //   DW_OP_bregx <return register> 0
  uleb(expr, dwarfReturnReg);
  uleb(expr, 0);
  expr.push_back(0x22);   //   DW_OP_plus
  uleb(cie, expr.size());
  addrAt = cie.size() + 1;
  cie.insert(cie.end(), expr.begin(), expr.end());
  return cie;
}

} // namespace

elf::DebugSection debugFrame(const std::vector<elf::Function> &functions,
                             const std::vector<uint32_t> &cfaOffsets, bool implicitAddends) {
  elf::DebugSection s;
  s.name = ".debug_frame";
  std::vector<uint8_t> cie = cieHeader(0xffffffff);   // no return address column
  cie.push_back(0x0c);    // DW_CFA_def_cfa R1, 0
  uleb(cie, kDwarfR1);
  uleb(cie, 0);
  cie.push_back(0x08);    // DW_CFA_same_value RZ
  uleb(cie, kDwarfRZ);
  cie.push_back(0x08);    // DW_CFA_same_value R1
  uleb(cie, kDwarfR1);
  entry(s.data, cie);
  // ptxas creates the relocations of the subroutines' CIEs first, then those of the FDEs (each
  // group in section order; the writer lists them newest first).
  std::vector<elf::Relocation> cieRelocs, fdeRelocs;
  // An R_CUDA_64 against `symbol` + `addend` at `at`; the addend is also in the data (REL
  // entries on sm_8x carry it only there).
  auto relocate = [&](std::vector<elf::Relocation> &out, size_t at, const std::string &symbol, uint64_t addend) {
    for (int i = 0; i < 8; ++i) s.data[at + i] = static_cast<uint8_t>(addend >> (8 * i));
    elf::Relocation r;
    r.offset = at;
    r.type = elf::RelocType::R_CUDA_64;
    r.symbol = symbol;
    r.addend = implicitAddends ? 0 : static_cast<int64_t>(addend);
    out.push_back(r);
  };
  // An FDE for [start, start + size) of `symbol`'s section under the CIE at `ciePos`.
  auto fde = [&](size_t ciePos, const std::string &symbol, uint64_t start, uint64_t size, uint32_t cfaAt) {
    std::vector<uint8_t> body;
    put64(body, ciePos);                 // CIE pointer
    size_t locAt = s.data.size() + 12 + body.size();
    put64(body, 0);                      // initial location (relocated)
    put64(body, size);                   // address range
    if (cfaAt) {
      body.push_back(0x04);              // DW_CFA_advance_loc4
      put32(body, cfaAt / 4);
      body.push_back(0x0c);              // DW_CFA_def_cfa R1, 0
      uleb(body, kDwarfR1);
      uleb(body, 0);
    }
    entry(s.data, body);
    relocate(fdeRelocs, locAt, symbol, start);
  };
  for (size_t k = 0; k < functions.size(); ++k) {
    const elf::Function &f = functions[k];
    // The function's own code ends where its first subroutine starts (ptxas: one FDE each).
    uint64_t own = f.subroutines.empty() ? f.code.size() : f.subroutines.front().offset;
    fde(0, f.name, 0, own, cfaOffsets[k]);
    // Subroutines keep the return offset in R20 until their RET; their frame and saved-register
    // rows (ptxas writes them for its own code) are not written yet.
    for (const elf::Subroutine &sub : f.subroutines) {
      size_t ciePos = s.data.size();
      size_t addrAt = 0;
      entry(s.data, subroutineCie(kDwarfR20, addrAt));
      relocate(cieRelocs, ciePos + 12 + addrAt, f.name, 0);
      fde(ciePos, f.name, sub.offset, sub.size, 0);
    }
  }
  s.relocations = std::move(cieRelocs);
  s.relocations.insert(s.relocations.end(), fdeRelocs.begin(), fdeRelocs.end());
  return s;
}

} // namespace optxas::codegen
