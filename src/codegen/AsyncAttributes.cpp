// EICOMPAT_ATTR_ISA_CLASS / INST_TENSORMAP_V1 and the mbarrier attributes, as ptxas 13.0 writes
// them for sm_90(a) (observed on small kernels: docs/elf.md, "Hopper asynchronous units").
#include "optxas/codegen/AsyncAttributes.h"
#include "optxas/isa/Mma.h"
#include "optxas/isa/Syncs.h"

#include <algorithm>
#include <unordered_map>

namespace optxas::codegen {

using isa::Opcode;

namespace {
template <typename F> void forEachInstr(const ori::Module &m, F f) {
  for (const auto &fn : m.functions())
    for (const ori::BasicBlock *bb : fn->blocks())
      for (const ori::Instr *i : *bb) f(*i);
}
uint64_t field(uint64_t w, unsigned pos, unsigned width) { return (w >> pos) & ((1ull << width) - 1); }

uint64_t wordAt(const std::vector<uint8_t> &code, size_t pc, unsigned half) {
  uint64_t w = 0;
  for (unsigned b = 0; b < 8; ++b) w |= static_cast<uint64_t>(code[pc + 8 * half + b]) << (8 * b);
  return w;
}

constexpr size_t kNoNop = ~size_t{0};

// The NOP that opens a cp.async.mbarrier.arrive sequence ending in the ARRIVES at `pc`:
// NOP; {SYNCS.ARRIVE.TRANS64.RED.A0T1;} ARRIVES (src/lower/HopperAsync.cpp, lowerCpAsyncArrive).
size_t framingNopBefore(const std::vector<uint8_t> &code, size_t pc) {
  auto opAt = [&](size_t at) { return static_cast<unsigned>(field(wordAt(code, at, 0), 0, 12)); };
  size_t start = pc;
  if (start >= 16 && opAt(start - 16) == 0x9a7) {
    uint64_t hi = wordAt(code, start - 16, 1);
    if (field(hi, 74 - 64, 1) && field(hi, 84 - 64, 2) == 2) start -= 16;   // .RED.A0T1
  }
  return start >= 16 && opAt(start - 16) == 0x918 ? start - 16 : kNoNop;
}

// sm_8x: the NOP that opens NOP; {VOTE ... ATOMS;} {@!PT LDS x4;} ARRIVES (lowerCpAsyncArriveAmpere),
// the nearest NOP before the ARRIVES: the scheduler may put other work in between, and an address
// not provably uniform its per-lane loop (ptxas's record names the NOP before its loop too). None
// past another ARRIVES.
size_t ampereFramingNopBefore(const std::vector<uint8_t> &code, size_t pc) {
  constexpr unsigned kReach = 48;
  for (unsigned k = 1; k <= kReach && pc >= 16 * k; ++k) {
    const size_t at = pc - 16 * k;
    const unsigned op = static_cast<unsigned>(field(wordAt(code, at, 0), 0, 12));
    if (op == 0x918) return at;
    if (op == 0x9b0) return kNoNop;
  }
  return kNoNop;
}

// sm_120 only (measured with one-instruction kernels under ptxas -arch=sm_120; sm_90 and sm_100
// never emit these): the 64-bit integer min/max (IMNMX.U64/S64, vector or uniform), the packed
// byte forms of VIMNMX/VIADD (VIMNMX.U8x4, VIADD.U8x4: vabsdiff4) are class 2, and so are the
// uniform min/max (UVIMNMX) and floating-point ops (UFADD, UFMUL), which optxas does not emit
// (no opcode for them: nothing to test here). optxas emits IMNMX.U64/.S64 for 64-bit min/max on
// sm_120 (codegen.corpus_blackwell compares the class with ptxas's). The uniform integer ops optxas
// emits (UIADD3, UIMAD, ULOP3, USHF, UPOPC, UFLO, UBREV, USGXT, UBMSK, UPRMT, 64-bit UIADD3,
// UISETP.S64, USHF.R.U64) stay class 1; so do VIMNMX.S32/U32, IDP, DSETP, MUFU.TANH and FMNMX.
bool sm120Class2(const ori::Instr &i) {
  const isa::IntType t = i.mods().intType;
  switch (i.opcode()) {
  case Opcode::IMNMX: case Opcode::VIMNMX:
    if (t == isa::IntType::U64 || t == isa::IntType::S64) return true;
    [[fallthrough]];
  case Opcode::VIADD:
    return t == isa::IntType::U8x4 || t == isa::IntType::S8x4;
  default:
    return false;
  }
}
} // namespace

uint8_t isaClassOf(const ori::Module &m, unsigned sm) {
  uint8_t c = 1;
  forEachInstr(m, [&](const ori::Instr &i) {
    if (sm / 10 == 12 && sm120Class2(i)) c = std::max<uint8_t>(c, 2);
    switch (i.opcode()) {
    case Opcode::UBLKCP: case Opcode::UTMALDG: case Opcode::UTMACCTL: c = std::max<uint8_t>(c, 2); break;
    // Texture and surface instructions are class 2 as well (textures_surfaces.sm_86).
    case Opcode::TEX: case Opcode::TLD: case Opcode::TLD4: case Opcode::TXD: case Opcode::TXQ:
    case Opcode::SULD: case Opcode::SUST: case Opcode::SURED:
      c = std::max<uint8_t>(c, 2);
      break;
    case Opcode::WARPGROUP: c = std::max<uint8_t>(c, 3); break;
    case Opcode::HGMMA: c = std::max<uint8_t>(c, 4); break;
    // IMMA.8816 (mma.m8n8k16 on 8-bit integers) and BMMA (mma .b1) are class 4 too; the other
    // tensor forms (HMMA.SP included) leave it.
    case Opcode::BMMA: c = std::max<uint8_t>(c, 4); break;
    case Opcode::IMMA:
      if ((i.mods().extra & ~isa::kMmaFromWmma) == static_cast<uint8_t>(isa::MmaShape::M8N8K16)) c = std::max<uint8_t>(c, 4);
      break;
    case Opcode::F2FP: {
      // FP8 conversions (F2FP .E4M3/.E5M2) are class 2 as well (fp8_conversions.sm_90).
      auto fp8 = [](isa::FloatType t) { return t == isa::FloatType::E4M3 || t == isa::FloatType::E5M2; };
      if (fp8(i.mods().floatType) || fp8(i.mods().srcFloatType)) c = std::max<uint8_t>(c, 2);
      break;
    }
    default: break;
    }
  });
  return c;
}

uint8_t tensorMapBits(const ori::Module &m) {
  uint8_t bits = 0;
  forEachInstr(m, [&](const ori::Instr &i) {
    if (i.opcode() == Opcode::UTMALDG) bits |= 1;
    if (i.opcode() == Opcode::STS && (i.mods().extra & isa::kStsTensormapReplace)) bits |= 2;
  });
  return bits;
}

// One record per mbarrier.init (SYNCS.EXCH, kind 0), mbarrier.arrive without a byte count
// (SYNCS.ARRIVE.TRANS64.A1T0, kind 1), mbarrier.try_wait (SYNCS.PHASECHK, kind 0xa) and
// cp.async.mbarrier.arrive (ARRIVES, kind 7, recorded at the NOP that opens its sequence):
// {offset, address register (0xff: RZ), address immediate, UR << 16 | 0x100 | kind}. The
// count is the number of initializations. Read from our own encoding so the registers are
// the allocated ones.
void addMbarrierAttributes(const ori::Function &f, const Layout &layout, std::vector<elf::Attribute> &out) {
  const std::vector<uint8_t> &code = f.sassCode;
  std::vector<uint32_t> words;
  unsigned inits = 0;
  bool any = false;
  // sm_8x: the mbarrier.init STS.64 (kind 0) and test_wait LDS (kind 5; .parity 6), by their
  // flags. (ptxas also records mbarrier.inval, kind 8, at a NOP it leaves there: not done.)
  std::unordered_map<size_t, uint32_t> ampereAccess;
  for (size_t k = 0; k < layout.order.size(); ++k) {
    const ori::Instr &i = *layout.order[k];
    if ((i.opcode() == Opcode::STS || i.opcode() == Opcode::LDS) && (i.mods().extra & isa::kMbarrierAccess))
      ampereAccess[16 * k] = i.opcode() == Opcode::STS ? 0 : (i.mods().extra & isa::kMbarrierParity) ? 6 : 5;
  }
  for (size_t pc = 0; pc + 16 <= code.size(); pc += 16) {
    uint64_t lo = 0, hi = 0;
    for (unsigned b = 0; b < 8; ++b) {
      lo |= static_cast<uint64_t>(code[pc + b]) << (8 * b);
      hi |= static_cast<uint64_t>(code[pc + 8 + b]) << (8 * b);
    }
    unsigned op = static_cast<unsigned>(field(lo, 0, 12));
    uint32_t reg, ur, kind;
    if (op == 0x9b0 && field(hi, 91 - 64, 1)) {           // ARRIVES.LDGSTSBAR (cp.async.mbarrier.arrive)
      any = true;
      // (sm_8x's ARRIVES has neither TRANSCNT/ARVCNT bit: 70/71 on sm_90, 76/77 on sm_100/120)
      const bool ampere = !field(hi, 70 - 64, 2) && !field(hi, 76 - 64, 2);
      size_t at = ampere ? ampereFramingNopBefore(code, pc) : framingNopBefore(code, pc);
      if (at == kNoNop) continue;   // not framed as ptxas frames it: nothing to point at
      // (sm_100/120 set TRANSCNT/ARVCNT at 76/77, their UR field being 8 bits wide)
      const unsigned urBits = field(hi, 76 - 64, 2) ? 8 : 6;
      words.insert(words.end(), {static_cast<uint32_t>(at), static_cast<uint32_t>(field(lo, 24, 8)), 0,
                                 static_cast<uint32_t>(field(hi, 0, urBits)) << 16 | 0x100 | 7});
      continue;
    }
    if (auto it = ampereAccess.find(pc); it != ampereAccess.end() || (op == 0xf8c && field(hi, 91 - 64, 1))) {
      // sm_8x: STS.64 / LDS [Ra+imm] (no UR: 63 in the record) or ATOMS.ARRIVE.64 [Ra+URb+imm]
      any = true;
      kind = it != ampereAccess.end() ? it->second : 1;
      inits += kind == 0;
      ur = kind == 1 ? static_cast<uint32_t>(field(hi, 0, 6)) : 0x3f;
      words.insert(words.end(), {static_cast<uint32_t>(pc), static_cast<uint32_t>(field(lo, 24, 8)),
                                 static_cast<uint32_t>(field(lo, 40, 24)), ur << 16 | 0x100 | kind});
      continue;
    }
    if (op == 0x5b2 && field(hi, 91 - 64, 1)) {          // SYNCS.EXCH.64 URZ, [URa], URb
      any = true;
      ++inits;
      reg = 0xff;
      ur = static_cast<uint32_t>(field(lo, 24, 6));
      kind = 0;
    } else if ((op == 0x9a7 || op == 0x5a7) && field(hi, 91 - 64, 1)) {   // ARRIVE / PHASECHK
      any = true;
      if (op == 0x9a7 && !field(hi, 84 - 64, 1)) continue;   // expect_tx arrivals are not listed
      reg = static_cast<uint32_t>(field(lo, 24, 8));
      ur = static_cast<uint32_t>(field(hi, 0, 6));
      kind = op == 0x9a7 ? 1 : 0xa;
    } else {
      continue;
    }
    words.insert(words.end(), {static_cast<uint32_t>(pc), reg, 0, ur << 16 | 0x100 | kind});
  }
  if (!any) return;
  elf::Attribute n;
  n.kind = elf::NvInfoKind::NUM_MBARRIERS;
  n.format = elf::NvInfoFormat::Half;
  n.value = static_cast<uint16_t>(inits);
  if (!words.empty()) {
    elf::Attribute o;
    o.kind = elf::NvInfoKind::MBARRIER_INSTR_OFFSETS;
    o.format = elf::NvInfoFormat::Sized;
    o.words = std::move(words);
    out.push_back(std::move(o));
  }
  out.push_back(n);
}

} // namespace optxas::codegen
