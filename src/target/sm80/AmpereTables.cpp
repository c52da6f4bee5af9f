// The sm_80/sm_86/sm_89 (Ampere/Ada) SASS tables: the sm_90 forms with Ampere's differences
// applied as data. Established by encoding every sm_90 form and reading it back with nvdisasm
// 13.5 (`-b SM80` / `-b SM86` / `-b SM89`; tests/encoding/encode_oracle.py --arch), and by
// comparing ptxas 13.0's sm_80/86/89 and sm_90 code for the same PTX:
//  - the Hopper integer forms VIADD, VIMNMX and VIADDMNMX do not exist: ptxas uses IADD3 and
//    IMNMX (opcode 0x017, the type at 73, the min/max predicate at 87: VIMNMX's layout);
//  - R2UR is opcode 0x3c2 (sm_90: 0x2ca), same fields;
//  - cluster, TMA and async-proxy instructions (UCGABAR_*, CGAERRBAR, ACQBULK, PREEXIT,
//    FENCE.VIEW.ASYNC, ENDCOLLECTIVE, ...) and the warpgroup/bulk-copy families are sm_90's;
//  - the global-memory forms (LDG/STG/LD/ST/ATOMG/ATOM/REDG/LDGSTS) encode desc[URn] with the
//    same bits, but nvdisasm does not print it (ptxas still loads c[0x0][0x118] into it);
//  - branch and call targets have no low byte at bit 16: the offset is bits 34..81 alone;
//    absolute ones (JMP/JMX/CALL.ABS/RET.ABS) likewise (a 48-bit address);
//  - WARPSYNC's mask register is at bit 32, .EXCLUSIVE at bit 86 (sm_90: 85); WARPSYNC.ALL is
//    WARPSYNC 0xffffffff (imm at 32);
//  - REDG is spelled RED; BAR.SYNC/BAR.RED print their thread-count register (RZ); P2R's mask
//    is signed;
//  - no 128-bit atomics; float adds are the integer ATOMG/ATOM/REDG forms' .ADD with their own
//    type values, and .S64 is 5 (rewriteAtomics);
//  - no BF16_V2 HADD2/HMUL2/HSETP2/HSET2/HFMA2.MMA (HFMA2.BF16_V2 and HMNMX2.BF16_V2 exist), no
//    MUFU.F16/.BF16, no BF16 F2I/I2F/F2F; FP8 F2FP on sm_89 only; F2FP.PACK_AB spells no source
//    type on sm_80/86 (F2FP.PACK_AB, F2FP.BF16.PACK_AB);
//  - Hopper's cluster/warpgroup special registers print as SRnnn;
//  - sm_80 has no I2FP or F2IP (ptxas uses I2F, F2I); sm_86 and sm_89 have them;
//  - the tensor-core (HMMA/IMMA/DMMA, LDSM) and texture forms are sm_90's (DMMA spelled .884,
//    LDSM's absolute address printed signed); Hopper's asynchronous units are not (but for
//    ARRIVES.LDGSTSBAR, whose sm_8x form has no TRANSCNT/ARVCNT).
// Everything else the sm_90 table encodes is bit for bit the same on all three.
#include "sm90/Sm90.h"

#include "optxas/isa/Syncs.h"

#include <algorithm>

namespace optxas::sass {

namespace ampere {

using namespace tbl;
using namespace tbl::dsl;
using O = isa::Opcode;
using S = isa::ModSlot;

// One architecture's edits of the sm_90 forms.
struct EncodingDelta {
  Target target;
  std::vector<O> droppedOpcodes;           // opcodes whose sm_90 forms do not exist
  // Modifier spellings that do not exist: the value is removed from the form's field; a form
  // that fixes it (or keeps no value in that field) is dropped.
  std::vector<std::pair<O, std::string_view>> droppedValues;
  // Modifier spellings nvdisasm prints differently (empty: not printed).
  struct Respell {
    O op;
    std::string_view from, to;
  };
  std::vector<Respell> respell;
};

const std::vector<O> kHopperOnly = {
    O::VIADD, O::VIMNMX, O::VIADDMNMX, O::UCGABAR_ARV, O::UCGABAR_WAIT, O::CGAERRBAR, O::ACQBULK,
    O::PREEXIT, O::FENCE, O::ENDCOLLECTIVE, O::R2UR, O::HGMMA, O::WARPGROUP, O::SYNCS,
    O::UBLKCP, O::UTMACCTL, O::UTMACMDFLUSH, O::UTMALDG, O::ELECT, O::STSM, O::LDGMC};
const std::vector<std::pair<O, std::string_view>> kNoBf16 = {
    {O::MUFU, ".F16"},     {O::MUFU, ".BF16"},    {O::HADD2, ".BF16_V2"}, {O::HMUL2, ".BF16_V2"},
    {O::HSETP2, ".BF16_V2"}, {O::HSET2, ".BF16_V2"}, {O::F2I, ".BF16"},
    {O::I2F, ".BF16"},     {O::F2F, ".BF16"}, {O::QSPC, ".D"}, {O::ATOMG, ".128"},
    {O::ATOM, ".128"}, {O::ATOMS, ".128"}, {O::ATOMG, ".F32.FTZ.RN"}, {O::ATOMG, ".F16x2.RN"},
    {O::ATOMG, ".BF16x2.RN"}, {O::ATOMG, ".F32x2.FTZ.RN"}, {O::ATOMG, ".F64.RN"}, {O::ATOM, ".F32.FTZ.RN"},
    {O::ATOM, ".F16x2.RN"}, {O::ATOM, ".BF16x2.RN"}, {O::ATOM, ".F32x2.FTZ.RN"}, {O::ATOM, ".F64.RN"},
    {O::REDG, ".F32.FTZ.RN"}, {O::REDG, ".F16x2.RN"}, {O::REDG, ".BF16x2.RN"}, {O::REDG, ".F32x2.FTZ.RN"},
    {O::REDG, ".F64.RN"}, {O::WARPSYNC, ".ALL"}, {O::WARPSYNC, ".COLLECTIVE"}};
// Ada (sm_89) has the FP8 F2FP forms; Ampere does not.
const std::vector<std::pair<O, std::string_view>> kNoFp8 = {{O::F2FP, ".E4M3"}, {O::F2FP, ".E5M2"}};
const std::vector<EncodingDelta::Respell> kPackSpelling = {
    {O::F2FP, ".F16", ""}, {O::F2FP, ".F32", ""}, {O::DMMA, ".8x8x4", ".884"}};

template <class T> std::vector<T> with(std::vector<T> v, std::initializer_list<T> more) {
  v.insert(v.end(), more.begin(), more.end());
  return v;
}
template <class T> std::vector<T> with(std::vector<T> v, const std::vector<T> &more) {
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

// sm_80 also lacks I2FP, F2IP and the .XORSIGN min/max; sm_89 (Ada) spells F2FP.PACK_AB as sm_90 does.
const EncodingDelta kSm80 = {
    Target::SM80, with(kHopperOnly, {O::I2FP, O::F2IP}),
    with(with(kNoBf16, {{O::FMNMX, ".XORSIGN"}, {O::HMNMX2, ".XORSIGN"}}), kNoFp8), kPackSpelling};
const EncodingDelta kSm86 = {Target::SM86, kHopperOnly, with(kNoBf16, kNoFp8), kPackSpelling};
const EncodingDelta kSm89 = {Target::SM89, kHopperOnly, kNoBf16, {{O::DMMA, ".8x8x4", ".884"}}};

// Whether a form keeps an element that can only spell a dropped value.
bool fixesDropped(const Form &f, const EncodingDelta &d) {
  for (const auto &[op, text] : d.droppedValues) {
    if (f.op != op) continue;
    for (const Elem &e : f.elems)
      if (e.kind == ElemKind::Mod && !e.field.valid() && !e.values.empty() && e.values[0].text == text)
        return true;
  }
  return false;
}

// HFMA2.MMA.BF16_V2: sm_90's only (nvdisasm -b SM8x prints plain HFMA2.MMA); Ampere's bf16 FMA is
// the FMA-pipe HFMA2.BF16_V2 (ptxas's fma.rn.bf16x2 on sm_80).
bool isMmaBf16(const Form &f) {
  bool mma = false, bf = false;
  for (const Elem &e : f.elems) {
    if (e.kind != ElemKind::Mod || e.field.valid() || e.values.empty()) continue;
    mma |= e.slot == S::mmaPipe;
    bf |= e.slot == S::floatType && e.values[0].text == ".BF16_V2";
  }
  return mma && bf;
}

// WARPSYNC 0xffffffff: the full-warp form (sm_90's WARPSYNC.ALL; the mask register form keeps
// its register at bit 32 here, not 24).
void addWarpsyncAll(FormTable &t) {
  Builder b(t);
  b.form(O::WARPSYNC, 0x948, {P(87).inv(90).opt(1, pt()), lit("0xffffffff")});
  b.fix(bits(32, 32), 0xffffffff);
  b.fix(bits(86, 1), 0);
  b.scoreboardsOf(O::WARPSYNC, false, false);
}

// LEPC Rd: Rd:Rd+1 = the instruction's own code address (read from ptxas's sm_80 calls out of
// the module: opcode 0x34e, the pair at 16, every other bit 0). sm_90 ptxas writes a form with an
// offset instead (LEPC Rd, target), which optxas does not use.
void addLepc(FormTable &t) {
  Builder b(t);
  b.form(O::LEPC, 0x34e, {R(16).def().w(2)});
  b.fix(bits(24, 40), 0);
  b.fix(bits(64, 27), 0);
}

// ARRIVES.LDGSTSBAR.64 [URa+imm24]: cp.async.mbarrier.arrive's arrival once the thread's earlier
// LDGSTS have landed (ptxas 13.0 sm_80/86: sm_90's word without its TRANSCNT/ARVCNT bits 70/71;
// a SYNCS flavour, as on sm_90). Counted as an arrival: kArrivesArvCnt.
void addArrives(FormTable &t) {
  Builder b(t);
  MemLayout l;
  l.ur = bits(64, 6);
  l.urUse = MemLayout::UrUse::Add;
  l.offset = bits(40, 24);
  Form &f = b.form(O::SYNCS, 0x9b0, {fixed(S::extra, isa::kArrivesArvCnt, ".LDGSTSBAR.64"), Mem(l)});
  f.mnemonic = "ARRIVES";
  b.fix(bits(24, 8), 0xff);
  b.fix(bits(70, 2), 0);
  b.fix(bits(73, 1), 1);
  b.fix(bits(75, 1), 1);
  b.fix(bits(91, 1), 1);
  b.noWriteScoreboard();
}

// ATOMS.ARRIVE.64 Rd:Rd+1, [Ra+URb+imm]: mbarrier.arrive (ptxas 13.0 sm_80/86; opcode 0xf8c,
// ATOMS's address layout, .64 at 73 and the operation 9 at 87, no data register: nvdisasm -b
// SM80 prints ATOMS.INVALID9 for the same word under ATOMS's 0x98c). Modelled as a SYNCS
// flavour (kAtomsArrive64), so that it keeps its place among the barrier operations.
void addAtomsArrive(FormTable &t) {
  Builder b(t);
  MemLayout l;
  l.base = bits(24, 8);
  l.ur = bits(64, 6);
  l.urUse = MemLayout::UrUse::Add;
  l.offset = bits(40, 24);
  Form &f = b.form(O::SYNCS, 0xf8c, {fixed(S::extra, isa::kAtomsArrive64, ".ARRIVE.64"), R(16).def().w(2), Mem(l)});
  f.mnemonic = "ATOMS";
  b.fix(bits(73, 3), 2);
  b.fix(bits(87, 4), 9);
  b.fix(bits(91, 1), 1);
}

// R2UR [Pd,] URd, Ra: sm_90's layout under opcode 0x3c2 (ptxas 13.0 sm_80/86/89: `R2UR UR4, R0`
// at -O0, `@P0 R2UR P1, UR4, R0` in its per-lane loops; no .OR form seen). Variable latency
// here: ptxas gives it a write scoreboard (AmpereModel.cpp).
void addR2ur(FormTable &t) {
  Builder b(t);
  b.form(O::R2UR, 0x3c2, {P(81).def().opt(1, pt()), UR(16).def(), R(24)});
  b.fix(bits(84, 3), 0);
}

// IMNMX{.U32} Rd, Ra, b, Pmax: Ampere's 32-bit min/max (!PT: max, PT: min).
void addImnmx(FormTable &t) {
  Builder b(t);
  const ModMap type = {ModValue{1, static_cast<uint8_t>(isa::IntType::S32), ""},
                       ModValue{1, static_cast<uint8_t>(isa::IntType::None), ""},
                       ModValue{0, static_cast<uint8_t>(isa::IntType::U32), ".U32"}};
  b.alu(O::IMNMX, 0x017, kBSources,
        {mod(S::intType, bits(73, 1), type), R(16).def(), R(24).reuse(0), srcB(ImmFmt::SHex).reuse(1),
         P(87).inv(90)});
}

// Ampere's global/generic atomics (ATOMG, ATOM, REDG) have no float opcodes: a float add is the
// integer form's .ADD with the type field (73..75) at 3 (.F32.FTZ.RN), 4 (.F16x2.RN) or 6
// (.F64.RN), and .S64 is 5 (sm_90: 3); no BF16x2, F32x2 or float min/max. (ptxas 13.0's sm_80
// code for atom/red.add.f32/.f64/.noftz.f16x2 and .min.s64, read back with nvdisasm -b SM80.)
void rewriteAtomics(FormTable &t) {
  std::vector<Form> floats;
  for (size_t i = 0; i < t.forms().size(); ++i) {
    Form &f = t.formAt(i);
    if (f.op != O::ATOMG && f.op != O::ATOM && f.op != O::REDG) continue;
    Elem *type = nullptr;
    int opIdx = -1;
    for (size_t k = 0; k < f.elems.size(); ++k) {
      Elem &e = f.elems[k];
      if (e.kind != ElemKind::Mod || !e.field.valid()) continue;
      if (e.slot == S::atomType && std::any_of(e.values.begin(), e.values.end(),
                                               [](const ModValue &v) { return v.text == ".S64"; }))
        type = &e;
      if (e.slot == S::atom && e.field.pos == 87) opIdx = static_cast<int>(k);
    }
    if (!type || opIdx < 0) continue;   // (the float and compare-and-swap forms)
    for (ModValue &v : type->values)
      if (v.text == ".S64") v.raw = 5;
    Form g = f;
    Elem &op = g.elems[opIdx];
    setField(g.fixedMask, op.field, ~0ull);
    setField(g.fixedBits, op.field, 0);
    op = fixed(S::atom, static_cast<uint8_t>(isa::AtomOp::ADD), ".ADD");
    for (Elem &e : g.elems)
      if (e.kind == ElemKind::Mod && e.slot == S::atomType)
        e.values = {ModValue{3, static_cast<uint8_t>(isa::AtomType::F32), ".F32.FTZ.RN"},
                    ModValue{4, static_cast<uint8_t>(isa::AtomType::F16x2), ".F16x2.RN"},
                    ModValue{6, static_cast<uint8_t>(isa::AtomType::F64), ".F64.RN"}};
    floats.push_back(std::move(g));
  }
  for (Form &g : floats) t.add(std::move(g));
}

const FormTable *build(const EncodingDelta &d) {
  auto *t = new FormTable(d.target);
  sm90::addAllForms(*t);
  {
    // mma.sync/ldmatrix and textures are Ampere's too (not Hopper's asynchronous units).
    Builder b(*t);
    sm90::addTensorForms(b);
    sm90::addTextureForms(b);
    sm90::addBoundTextureForms(b);
    t->spacingOps_ = {O::HMMA, O::IMMA, O::BMMA};
  }
  t->removeForms([&](const Form &f) {
    if (f.op == O::HFMA2 && isMmaBf16(f)) return true;
    if (f.mnemonic == "VHMNMX") return true;   // (sm_90 on: nvdisasm -b SM8x rejects it)
    // ATOMS.POPC.INC (0xf8c): nvdisasm -b SM8x rejects sm_90's layout; ptxas's sm_8x form differs.
    if (f.op == O::ATOMS && (f.fixedBits[0] & 0xfff) == 0xf8c) return true;
    for (O op : d.droppedOpcodes)
      if (f.op == op) return true;
    return fixesDropped(f, d);
  });
  addImnmx(*t);
  addWarpsyncAll(*t);
  addLepc(*t);
  addArrives(*t);
  addAtomsArrive(*t);
  addR2ur(*t);
  // Hopper's cluster/warpgroup special registers have no name here (nvdisasm -b SM8x prints SR65,
  // SR134..SR137, SR139).
  std::erase_if(t->specialRegs, [](const auto &r) {
    return r.first == 0x41 || (r.first >= 0x86 && r.first <= 0x89) || r.first == 0x8b;
  });
  std::vector<bool> emptied(t->forms().size());
  for (size_t i = 0; i < t->forms().size(); ++i) {
    Form &f = t->formAt(i);
    if (f.op == O::REDG) f.mnemonic = "RED";
    for (Elem &e : f.elems) {
      if (f.op == O::WARPSYNC && e.kind == ElemKind::Opd && e.type == OpdType::Gpr) e.field = bits(32, 8);
      // WARPSYNC.EXCLUSIVE is bit 86 here (sm_90: 85, which nvdisasm -b SM8x ignores): ptxas
      // 13.0's sm_80 vote/match/redux.sync under a lane-varying mask, `WARPSYNC.EXCLUSIVE R4`.
      if (f.op == O::WARPSYNC && e.kind == ElemKind::Mod && e.slot == S::exclusive && e.field.pos == 85) {
        e.field = bits(86, 1);
        setField(f.fixedMask, bits(86, 1), 0);
        setField(f.fixedBits, bits(86, 1), 0);
        setField(f.fixedMask, bits(85, 1), ~0ull);
        setField(f.fixedBits, bits(85, 1), 0);
      }
    }
    // BAR.SYNC 0x1, RZ: an optional count register prints (an immediate count of 0 does not).
    if (f.op == O::BAR)
      f.printsOptional = std::any_of(f.elems.begin(), f.elems.end(), [](const Elem &e) {
        return e.kind == ElemKind::Opd && e.group != 0 && e.type == OpdType::Gpr;
      });
    for (Elem &e : f.elems)   // P2R's mask prints signed
      if (f.op == O::P2R && e.kind == ElemKind::Opd && e.type == OpdType::Imm) e.fmt = ImmFmt::SHex;
    for (Elem &e : f.elems) {
      if (e.kind == ElemKind::Mod && e.field.valid())
        for (const auto &[op, text] : d.droppedValues)
          if (f.op == op) {
            std::erase_if(e.values, [text = text](const ModValue &v) { return v.text == text; });
            if (e.values.empty()) emptied[i] = true;
          }
      if (e.kind == ElemKind::Mod)
        for (const EncodingDelta::Respell &r : d.respell)
          if (f.op == r.op)
            for (ModValue &v : e.values)
              if (v.text == r.from) v.text = r.to;
      if (e.kind != ElemKind::Opd) continue;
      // desc[URn] is encoded but not printed.
      if (e.type == OpdType::Mem && f.op == O::LDSM) e.mem.absoluteSigned = true;   // [-0x10]
      if (e.type == OpdType::Mem && (e.mem.urUse == MemLayout::UrUse::DescIfBit || e.mem.urUse == MemLayout::UrUse::Desc))
        e.mem.hideDesc = true;
      // Branch targets and absolute addresses: bits 34.. only (sm_90 adds a low byte at 16).
      const bool absolute = e.type == OpdType::Imm && (f.op == O::CALL || f.op == O::RET || f.op == O::JMP || f.op == O::JMX);
      if ((e.type == OpdType::Target || absolute) && e.fieldHi.valid() && e.field.pos == 16 && e.field.width == 8) {
        e.field = e.fieldHi;
        e.fieldHi = Field{};
        setField(f.fixedMask, bits(16, 8), 0xff);
        setField(f.fixedBits, bits(16, 8), 0);
      }
    }
  }
  // A modifier field left without values spells nothing that exists here.
  size_t k = 0;
  t->removeForms([&](const Form &) { return emptied[k++]; });
  rewriteAtomics(*t);
  t->finalize();
  return t;
}

} // namespace ampere

namespace sm80 {
const tbl::FormTable &table() {
  static const tbl::FormTable *t = ampere::build(ampere::kSm80);
  return *t;
}
} // namespace sm80

namespace sm86 {
const tbl::FormTable &table() {
  static const tbl::FormTable *t = ampere::build(ampere::kSm86);
  return *t;
}
} // namespace sm86

namespace sm89 {
const tbl::FormTable &table() {
  static const tbl::FormTable *t = ampere::build(ampere::kSm89);
  return *t;
}
} // namespace sm89

} // namespace optxas::sass
