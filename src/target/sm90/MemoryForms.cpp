// sm_90 memory instructions: LDG/STG/LD/ST, LDS/STS, LDL/STL, LDC/ULDC, atomics and reductions
// (ATOMG/ATOM/ATOMS/REDG), QSPC.
//
// Shared fields (verified with nvdisasm): access size 73..75 (U8 S8 U16 S16 32 64 128), cache
// hint 84..86 (EF, -, EL, LU, EU, NA), memory semantics 77..80 (weak, .CONSTANT, .STRONG.scope,
// .MMIO.scope, ...), address offset 40..63 (24-bit signed), base register 24..31.
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

using isa::AtomOp;
using isa::AtomType;
using isa::CacheOp;
using isa::MemOrder;
using isa::MemType;
using isa::Scope;
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}
#define V2(raw, val, val2, text)                                                                  \
  ModValue{raw, static_cast<uint8_t>(val), text, static_cast<uint8_t>(val2)}

namespace {

// Memory semantics (order, scope). PTX .cta is spelled .SM here; value 4 is .CONSTANT for loads
// only (stores spell it .STRONG.SM.PRIVATE, which we do not model).
E semantics(bool load) {
  ModMap m = {V2(0, MemOrder::None, Scope::None, ""),
              V2(5, MemOrder::RELAXED, Scope::SM, ".STRONG.SM"),
              V2(7, MemOrder::RELAXED, Scope::GPU, ".STRONG.GPU"),
              V2(10, MemOrder::RELAXED, Scope::SYS, ".STRONG.SYS"),
              V2(8, MemOrder::MMIO, Scope::GPU, ".MMIO.GPU"),
              V2(12, MemOrder::MMIO, Scope::SYS, ".MMIO.SYS"),
              V2(1, MemOrder::CONSTANT_PRIVATE, Scope::None, ".CONSTANT.PRIVATE"),
              V2(2, MemOrder::CONSTANT_CTA, Scope::None, ".CONSTANT.CTA"),
              V2(9, MemOrder::CONSTANT, Scope::SM, ".CONSTANT.SM"),
              V2(13, MemOrder::CONSTANT, Scope::VC, ".CONSTANT.VC"),
              V2(15, MemOrder::CONSTANT, Scope::GPU, ".CONSTANT.GPU")};
  if (load)
    m.push_back(V2(4, MemOrder::CONSTANT, Scope::None, ".CONSTANT"));
  return mod2(S::order, S::scope, bits(77, 4), m);
}

E cacheHint() {
  return mod(S::cache, bits(84, 3),
             {V(1, CacheOp::None, ""), V(0, CacheOp::EF, ".EF"), V(2, CacheOp::EL, ".EL"),
              V(3, CacheOp::LU, ".LU"), V(4, CacheOp::EU, ".EU"), V(5, CacheOp::NA, ".NA")});
}

E l2Prefetch() {
  using isa::L2Prefetch;
  return mod(S::l2prefetch, bits(68, 2),
             {V(0, L2Prefetch::None, ""), V(1, L2Prefetch::B64, ".LTC64B"),
              V(2, L2Prefetch::B128, ".LTC128B"), V(3, L2Prefetch::B256, ".LTC256B")});
}

E size() { return mod(S::memType, bits(73, 3), maps::memSize()); }
E sizeNo128() {
  ModMap m = maps::memSize();
  m.pop_back();
  return mod(S::memType, bits(73, 3), m);
}

// The data register of a load/store: width follows the access size.
E data(int pos) { return R(pos).wslot(S::memType); }

MemLayout addr(int urPos, MemLayout::UrUse use, int urBit, bool base64) {
  MemLayout l;
  l.base = bits(24, 8);
  l.base64Const = base64;
  l.ur = bits(urPos, 6);
  l.urUse = use;
  l.urBit = static_cast<int16_t>(urBit);
  l.offset = bits(40, 24);
  return l;
}

using U = MemLayout::UrUse;

void addGlobal(Builder &b) {
  // LDG.E{.cache}{.LTC}{.size}{.sem} [Pd,] Rd, desc[URd][Ra.64+imm] {, Pignore}
  b.form(Op::LDG, 0x981,
         {text(".E"), cacheHint(), l2Prefetch(), size(), semantics(true),
          P(81).def().opt(1, pt()), data(16).def(), Mem(addr(32, U::DescIfBit, 76, true)),
          P(64).xored(7).inv(67).opt(2, pt())});
  b.fix(bits(72, 1), 1);
  b.fix(bits(90, 2), 3);
  // LDG.E ... [Ra+imm24]: 32-bit address, no descriptor (opcode 0x381)
  MemLayout ldgPlain = addr(0, U::None, -1, false);
  ldgPlain.ur = Field{};
  b.form(Op::LDG, 0x381,
         {text(".E"), cacheHint(), l2Prefetch(), size(), semantics(true),
          P(81).def().opt(1, pt()), data(16).def(), Mem(ldgPlain),
          P(64).xored(7).inv(67).opt(2, pt())});
  b.fix(bits(72, 1), 1);
  b.fix(bits(76, 1), 0);
  b.fix(bits(90, 2), 0);
  // STG.E{.cache}{.size}{.sem} desc[URd][Ra.64+imm], Rb
  b.form(Op::STG, 0x986,
         {text(".E"), cacheHint(), size(), semantics(false),
          Mem(addr(64, U::DescIfBit, 76, true)), data(32)});
  b.fix(bits(72, 1), 1);
  b.fix(bits(90, 2), 3);
  // LD.E (generic) with a descriptor: ... desc[URd][Ra(.64)+imm24]
  MemLayout ldDesc = addr(32, U::Desc, -1, true);
  b.form(Op::LD, 0x980,
         {text(".E"), cacheHint(), l2Prefetch(), size(), semantics(true), data(16).def(),
          Mem(ldDesc), P(64).xored(7).inv(67).opt(2, pt())});
  b.fix(bits(81, 3), 0);
  b.fix(bits(72, 1), 1);
  b.fix(bits(76, 1), 1);
  b.fix(bits(90, 2), 3);
  // LD.E without descriptor: [Ra(.64)+imm32]
  MemLayout ldPlain;
  ldPlain.base = bits(24, 8);
  ldPlain.offset = bits(32, 32);
  b.form(Op::LD, 0x980,
         {text(".E"), cacheHint(), l2Prefetch(), size(), semantics(true), data(16).def(),
          Mem(ldPlain), P(64).xored(7).inv(67).opt(2, pt())});
  b.fix(bits(81, 3), 0);
  b.fix(bits(72, 1), 1);
  b.fix(bits(76, 1), 0);
  b.fix(bits(90, 2), 0);
  // ST.E [Ra(.64)+imm32], Rb  (no descriptor: offset 32..63, data at 64)
  MemLayout stPlain;
  stPlain.base = bits(24, 8);
  stPlain.offset = bits(32, 32);
  b.form(Op::ST, 0x385,
         {text(".E"), cacheHint(), size(), semantics(false), Mem(stPlain), data(64)});
  b.fix(bits(72, 1), 1);
  b.fix(bits(90, 2), 0);
  // ST.E desc[URd][Ra(.64)+imm], Rb
  MemLayout stDesc = addr(64, U::DescIfBit, 76, true);
  b.form(Op::ST, 0x985,
         {text(".E"), cacheHint(), size(), semantics(false), Mem(stDesc), data(32)});
  b.fix(bits(72, 1), 1);
  b.fix(bits(90, 2), 3);
}

void addSharedLocal(Builder &b) {
  MemLayout lds = addr(32, U::AddIfBit, 91, false);
  lds.scale = bits(78, 2);
  // LDS{.size} Rd, [Ra{.Xn}+URb+imm]
  b.form(Op::LDS, 0x984, {size(), data(16).def(), Mem(lds)});
  // STS{.size} [Ra{.Xn}+URb+imm], Rb
  MemLayout sts = addr(64, U::Add, -1, false); // (the UR is always present: bit 91)
  sts.scale = bits(78, 2);
  b.form(Op::STS, 0x988, {size(), Mem(sts), data(32)});
  b.fix(bits(91, 1), 1);
  // STS{.size} [Ra{.Xn}+imm], Rb   (no uniform register: a separate opcode)
  MemLayout sts32 = addr(64, U::None, -1, false);
  sts32.ur = Field{};
  sts32.scale = bits(78, 2);
  b.form(Op::STS, 0x388, {size(), Mem(sts32), data(32)});
  // LDL{.cache}{.size} Rd, [Ra+URb+imm]
  b.form(Op::LDL, 0x983, {cacheHint(), size(), data(16).def(), Mem(addr(32, U::AddIfBit, 91, false))});
  // STL{.cache}{.size} [Ra+imm], Rb  (no uniform-register form)
  b.form(Op::STL, 0x387, {cacheHint(), size(), Mem(addr(64, U::None, -1, false)), data(32)});
  b.fix(bits(91, 1), 0);
}

void addConstant(Builder &b) {
  // LDC{.size} Rd, c[bank][Ra+imm16]
  CBankLayout ldc;
  ldc.bank = bits(54, 5);
  ldc.offset = bits(38, 16);
  ldc.offsetSigned = true;
  ldc.index = bits(24, 8);
  b.form(Op::LDC, 0xb82, {sizeNo128(), data(16).def(), CBank(ldc)});
  b.fix(bits(78, 2), 0);
  // ULDC{.size} URd, c[bank][imm16] / cx[URa][imm16]
  CBankLayout uldc;
  uldc.bank = bits(54, 5);
  uldc.offset = bits(38, 16);
  uldc.offsetSigned = true;
  uldc.cxBit = 91;
  uldc.cxUr = bits(24, 6);
  b.form(Op::ULDC, 0xab9, {sizeNo128(), UR(16).def().wslot(S::memType), CBank(uldc)});
  // ULDC{.size} URd, c[bank][URa+imm16]   (uniform-register index)
  CBankLayout uidx;
  uidx.bank = bits(54, 5);
  uidx.offset = bits(38, 16);
  uidx.offsetSigned = true;
  uidx.urIndex = bits(24, 6);
  b.form(Op::ULDC, 0xabb, {sizeNo128(), UR(16).def().wslot(S::memType), CBank(uidx)});
  b.fix(bits(91, 1), 1);
}

ModMap intAtomOps() {
  return {V(0, AtomOp::ADD, ".ADD"), V(1, AtomOp::MIN, ".MIN"), V(2, AtomOp::MAX, ".MAX"),
          V(3, AtomOp::INC, ".INC"), V(4, AtomOp::DEC, ".DEC"), V(5, AtomOp::AND, ".AND"),
          V(6, AtomOp::OR, ".OR"),   V(7, AtomOp::XOR, ".XOR"), V(8, AtomOp::EXCH, ".EXCH"),
          V(9, AtomOp::SAFEADD, ".SAFEADD")};
}

E intAtomType(bool with128 = true) {
  ModMap m = {V(0, AtomType::U32, ""), V(0, AtomType::None, ""), V(1, AtomType::S32, ".S32"),
              V(2, AtomType::U64, ".64"), V(2, AtomType::B64, ".64"),
              V(3, AtomType::S64, ".S64")};
  if (with128)
    m.push_back(V(4, AtomType::B128, ".128"));
  return mod(S::atomType, bits(73, 3), m);
}

// Shared-memory atomics and compare-and-swap have no .S64.
E casType() {
  return mod(S::atomType, bits(73, 3),
             {V(0, AtomType::U32, ""), V(0, AtomType::None, ""), V(1, AtomType::S32, ".S32"),
              V(2, AtomType::U64, ".64"), V(2, AtomType::B64, ".64"),
              V(4, AtomType::B128, ".128")});
}

// Atomics are strong: weak/constant semantics are rejected by the hardware encoding.
E atomSemantics() {
  return mod2(S::order, S::scope, bits(77, 4),
              {V2(5, MemOrder::RELAXED, Scope::SM, ".STRONG.SM"),
               V2(7, MemOrder::RELAXED, Scope::GPU, ".STRONG.GPU"),
               V2(10, MemOrder::RELAXED, Scope::SYS, ".STRONG.SYS"),
               V2(8, MemOrder::MMIO, Scope::GPU, ".MMIO.GPU"),
               V2(12, MemOrder::MMIO, Scope::SYS, ".MMIO.SYS")});
}

// Float atomics: type in 73..76 (with bit 87 clear), operation in 88..89.
E floatAtomType() {
  return mod(S::atomType, bits(73, 4),
             {V(0, AtomType::F16x2, ".F16x2.RN"), V(3, AtomType::BF16x2, ".BF16x2.RN"),
              V(9, AtomType::F32, ".F32.FTZ.RN"), V(10, AtomType::F32x2, ".F32x2.FTZ.RN"),
              V(15, AtomType::F64, ".F64.RN")});
}
E floatAtomOp() {
  return mod(S::atom, bits(88, 2),
             {V(0, AtomOp::ADD, ".ADD"), V(1, AtomOp::MIN, ".MIN"), V(2, AtomOp::MAX, ".MAX")});
}
E casOp() {
  return mod(S::atom, bits(87, 2),
             {V(0, AtomOp::CAS, ".CAS"), V(3, AtomOp::CAST_SPIN, ".CAST.SPIN")});
}

void addAtomics(Builder &b) {
  // Global/generic atomics as ptxas emits them: desc[URd][Ra.64+imm24] (bits 70, 71 and 91
  // set; REDG leaves bit 70 clear). The +UR and 32-bit spellings are not modelled.
  MemLayout g = addr(64, U::Desc, -1, true);
  MemLayout narrow = addr(0, U::None, -1, false);
  narrow.ur = Field{};
  auto fixDesc = [&](bool ret) {
    b.fix(bits(72, 1), 1);
    b.fix(bits(91, 1), 1);
    b.fix(bits(71, 1), 1);
    b.fix(bits(70, 1), ret);
    if (!ret)
      b.fix(bits(90, 1), 1); // (REDG; in ATOM/ATOMG bit 90 belongs to the operation)
  };
  // ATOMG.E.op{.cache}{.type}{.sem} Pd, Rd, desc[UR][Ra.64+imm], Rb
  b.form(Op::ATOMG, 0x9a8,
         {text(".E"), mod(S::atom, bits(87, 4), intAtomOps()), cacheHint(), intAtomType(),
          atomSemantics(), P(81).def(), R(16).def().wslot(S::atomType), Mem(g),
          R(32).wslot(S::atomType)});
  fixDesc(true);
  b.form(Op::ATOMG, 0x9a3,
         {text(".E"), floatAtomOp(), cacheHint(), floatAtomType(), atomSemantics(), P(81).def(),
          R(16).def().wslot(S::atomType), Mem(g), R(32).wslot(S::atomType)});
  fixDesc(true);
  b.fix(bits(87, 1), 0);
  // REDG.E.op{.cache}{.type}{.sem} desc[UR][Ra.64+imm], Rb   (op in 87..89: no EXCH)
  ModMap redOps = intAtomOps();
  redOps.resize(8);
  b.form(Op::REDG, 0x98e,
         {text(".E"), mod(S::atom, bits(87, 3), redOps), cacheHint(), intAtomType(false),
          atomSemantics(), Mem(g), R(32).wslot(S::atomType)});
  fixDesc(false);
  b.form(Op::REDG, 0x9a6,
         {text(".E"), floatAtomOp(), cacheHint(), floatAtomType(), atomSemantics(), Mem(g),
          R(32).wslot(S::atomType)});
  fixDesc(false);
  b.fix(bits(87, 1), 0);
  // ATOM.E (generic address; no SAFEADD)
  ModMap genericOps = intAtomOps();
  genericOps.pop_back();
  b.form(Op::ATOM, 0x98a,
         {text(".E"), mod(S::atom, bits(87, 4), genericOps), cacheHint(), intAtomType(),
          atomSemantics(), P(81).def(), R(16).def().wslot(S::atomType), Mem(g),
          R(32).wslot(S::atomType)});
  fixDesc(true);
  b.form(Op::ATOM, 0x9a2,
         {text(".E"), floatAtomOp(), cacheHint(), floatAtomType(), atomSemantics(), P(81).def(),
          R(16).def().wslot(S::atomType), Mem(g), R(32).wslot(S::atomType)});
  fixDesc(true);
  b.fix(bits(87, 1), 0);
  // Compare-and-swap: ATOMG.E.CAS / ATOM.E.CAS Pd, Rd, [Ra+imm], Rcmp, Rswap (32-bit base)
  // (ATOMG has no .CAST.SPIN variant: bits 87..88 are ignored and ptxas leaves them clear.)
  b.form(Op::ATOMG, 0x3a9,
         {text(".E"), fixed(S::atom, static_cast<uint8_t>(AtomOp::CAS), ".CAS"), cacheHint(),
          casType(), atomSemantics(), P(81).def(), R(16).def().wslot(S::atomType), Mem(narrow),
          R(32).wslot(S::atomType), R(64).wslot(S::atomType)});
  b.fix(bits(72, 1), 1);
  b.fix(bits(91, 1), 0);
  b.fix(bits(87, 2), 0);
  // (generic CAS may also be weak)
  E casSem = atomSemantics();
  casSem.values.insert(casSem.values.begin(), V2(0, MemOrder::None, Scope::None, ""));
  b.form(Op::ATOM, 0x38b,
         {text(".E"), casOp(), cacheHint(), casType(), casSem, P(81).def(),
          R(16).def().wslot(S::atomType), Mem(narrow), R(32).wslot(S::atomType),
          R(64).wslot(S::atomType)});
  b.fix(bits(72, 1), 1);
  b.fix(bits(91, 1), 0);
  // ATOMS.op{.type} Rd, [Ra+URb+imm], Rb   (shared memory; the UR is always present)
  MemLayout s = addr(64, U::Add, -1, false);
  s.scale = bits(78, 2);
  ModMap sharedOps = intAtomOps();
  sharedOps.pop_back(); // no SAFEADD
  b.form(Op::ATOMS, 0x98c,
         {mod(S::atom, bits(87, 4), sharedOps), casType(), R(16).def().wslot(S::atomType),
          Mem(s), R(32).wslot(S::atomType)});
  b.fix(bits(91, 1), 1);
  // ATOMS.POPC.INC.32 Rd, [Ra+URb+imm]: ptxas 13.0's atomicAdd(shared, 1) without a result; every
  // lane adds 1 (the hardware adds the population count of the lanes sharing an address). Bits
  // 87..91 as measured (tests/exec/rc_hist256); Rd is RZ in every cubin seen.
  b.form(Op::ATOMS, 0xf8c,
         {fixed(S::atom, static_cast<uint8_t>(AtomOp::POPC_INC), ".POPC.INC"),
          fixed(S::atomType, static_cast<uint8_t>(AtomType::U32), ".32"), R(16).def(), Mem(s)});
  b.fix(bits(87, 5), 0x1b);
  // ATOMS.CAS{.type} Rd, [Ra+imm], Rcmp, Rswap
  MemLayout sc = narrow;
  sc.scale = bits(78, 2);
  b.form(Op::ATOMS, 0x38d,
         {casOp(), casType(), R(16).def().wslot(S::atomType), Mem(sc),
          R(32).wslot(S::atomType), R(64).wslot(S::atomType)});
}

} // namespace

void addQspc(Builder &b) {
  // QSPC.E.{G|L|S|D} Pd, Rd, [Ra+imm]   (is the generic address in global / local / shared /
  // distributed shared?). The address is 64-bit (lowering marks it `wide`); nvdisasm prints no .64.
  MemLayout a = addr(0, U::None, -1, false);
  a.ur = Field{};
  b.form(Op::QSPC, 0x3aa,
         {text(".E"), fixed(S::wide, 1, ""),
          mod(S::space, bits(73, 2),
              {V(0, isa::Space::GLOBAL, ".G"), V(1, isa::Space::LOCAL, ".L"),
               V(2, isa::Space::SHARED, ".S"), V(3, isa::Space::DSMEM, ".D")}),
          P(81).def(), R(16).def(), Mem(a)});
  b.fix(bits(72, 1), 1);
}

void addAsyncCopy(Builder &b) {
  // LDGSTS.E{.BYPASS}{.cache}{.LTC}{.size}{.ZFILL} [Rs+imm20], desc[UR][Ra.64+imm12] {, P}
  // (cp.async: global -> shared without a register)
  MemLayout shared;
  shared.base = bits(16, 8);
  shared.offset = bits(44, 20);
  shared.absoluteSigned = true;
  MemLayout global = addr(64, U::DescIfBit, 76, true);
  global.offset = bits(32, 12);
  global.hideUrz = true;
  b.form(Op::LDGSTS, 0xfae,
         {text(".E"), mod(S::bypass, bits(81, 1), {V(1, 0, ""), V(0, 1, ".BYPASS")}),
          cacheHint(),
          mod(S::l2prefetch, bits(71, 2),
              {V(0, isa::L2Prefetch::None, ""), V(1, isa::L2Prefetch::B64, ".LTC64B"),
               V(2, isa::L2Prefetch::B128, ".LTC128B")}),
          mod(S::memType, bits(73, 3),
              {V(4, MemType::B32, ""), V(4, MemType::None, ""), V(5, MemType::B64, ".64"),
               V(6, MemType::B128, ".128")}),
          flag(S::zfill, 82, ".ZFILL"), Mem(shared), Mem(global), P(87).inv(90).opt(1, pt())});
  b.fix(bits(77, 4), 0); // (weak)
  b.fix(bits(70, 1), 1);
  b.fix(bits(91, 1), 1);
  // LDGDEPBAR: closes a group of LDGSTS; DEPBAR.LE SB0, n waits until at most n are pending
  b.form(Op::LDGDEPBAR, 0x9af, {});
  b.form(Op::DEPBAR, 0x91a, {text(".LE"), lit("SB0"), Imm(bits(38, 6))});
  b.fix(bits(47, 1), 1);
  b.noScoreboards();
}

// LDGMC.E.op.type.STRONG.scope Rd, [Ra.64+URb+imm]   (multimem.ld_reduce: a load-reduce over
// the multimem address; op 87..90 and type 73..75 as nvdisasm names them, 70 = .64 base,
// 71 = desc form, not used)
void addMultimem(Builder &b) {
  MemLayout l = addr(64, U::Add, -1, true);
  b.form(Op::LDGMC, 0x9a4,
         {text(".E"),
          mod(S::atom, bits(87, 4),
              {V(0, AtomOp::ADD, ".ADD"), V(1, AtomOp::MIN, ".MIN"), V(2, AtomOp::MAX, ".MAX"),
               V(5, AtomOp::AND, ".AND"), V(6, AtomOp::OR, ".OR"), V(7, AtomOp::XOR, ".XOR")}),
          mod(S::atomType, bits(73, 3),
              {V(0, AtomType::None, ".32"), V(1, AtomType::S32, ".S32"), V(2, AtomType::U64, ".64")}),
          mod2(S::order, S::scope, bits(77, 4),
               {V2(10, MemOrder::RELAXED, Scope::SYS, ".STRONG.SYS")}),   // (the only value nvdisasm decodes)
          R(16).def().wslot(S::atomType), Mem(l)});
  b.fix(bits(70, 2), 1);
  b.fix(bits(72, 1), 1);
  b.fix(bits(91, 1), 1);
}

void addMemoryForms(Builder &b) {
  addQspc(b);
  addMultimem(b);
  addAsyncCopy(b);
  addGlobal(b);
  addSharedLocal(b);
  addConstant(b);
  addAtomics(b);
  // Stores and reductions write no register: no write scoreboard.
  for (Op op : {Op::ST, Op::STG, Op::STL, Op::STS, Op::REDG})
    b.scoreboardsOf(op, false, true);
}

#undef V
#undef V2
} // namespace optxas::sass::sm90
