// The sm_100 and sm_120 (Blackwell) SASS tables: the sm_90 forms with Blackwell's encoding
// differences applied as data. Established like the sm_90 facts, by encoding candidate bits and
// reading them back with nvdisasm 13.5 (`-b SM100` / `-b SM120`) and by comparing ptxas 13.0's
// sm_90 and sm_100a/sm_120 code for the same PTX (tests/encoding/encode_oracle.py --arch checks
// every form against nvdisasm):
//  - uniform-register fields are 8 bits wide (UR0..UR254) and URZ is 255, not 63;
//  - ULDC is gone: the uniform constant-bank load is LDCU (opcode 0x7ac, a variable-latency
//    load), with a 17-bit byte offset at 37 and an optional uniform index register at 24;
//  - HFMA2.MMA is gone (ptxas uses HFMA2 or MOV instead);
//  - ALU instructions lost their c[bank][offset] source (ptxas loads constants with LDC/LDCU
//    and uses the register): every form with a constant-bank source except LDC/LDCU is gone;
//  - the atomics' desc[UR] field is 8 bits wide too (sm_90 fixed its top two bits to 1), and a
//    set bit selects desc[UR] over [Ra.64+UR]: bit 76 for integer ATOMG/ATOM, bit 90 for float
//    ATOMG/ATOM, bit 81 for REDG; ATOMG/ATOM's offset is 23 bits (40..62) with bit 63 set,
//    REDG's stays 24 bits; CAS and ATOMS are unchanged (see atomicsRelayout);
//  - spelling: nvdisasm prints IADD3/UIADD3's carry-outs even at PT (and VIMNMX's on sm_100),
//    sm_120 spells VIMNMX.S32 and VIADD.32 and has no VIADDMNMX/VABSDIFF;
//  - sm_120 adds a 64-bit IMNMX.U64/.S64 (addImnmx64; ptxas's words decode and re-encode
//    exactly: tests/encoding/inputs/sm120_minmax64.ptx); so do VIMNMX/VIADD.U8x4 (sm120ElemEdits).
//  - the tensor-core and texture/surface forms are sm_90's, except: LDGSTS's UR is 8 bits (64..71),
//    moving the L2 prefetch to 72..73 and the size to 74..75, with bit 83 set; the textures'
//    handle UR is 8 bits (40..47) and their index immediate is gone (48..55 fixed to 0xff; TXQ
//    prints "0x0" from no bits); TEX's LOD mode is split over 59 and 87..89 and TLD's is 87 alone
//    (asyncCopyAndTexture*); BMMA and IMMA.8816 do not exist (ptxas runs mma.m8n8k16 on
//    IMMA.16816); sm_120's HMMA/IMMA/DMMA have no operand reuse.
// Everything else the sm_90 table encodes is bit for bit the same on both.
#include "sm90/Sm90.h"

namespace optxas::sass {

namespace blackwell {

using namespace tbl;
using namespace tbl::dsl;

// One architecture's edits of the sm_90 forms.
struct EncodingDelta {
  Target target;
  uint8_t urFieldBits;                       // width of every uniform-register field
  uint8_t urzRaw;                            // URZ's raw value in those fields
  std::vector<isa::Opcode> droppedOpcodes;   // opcodes whose sm_90 forms do not exist
  std::vector<isa::ModSlot> droppedFlags;    // forms that set one of these slots do not exist
  bool constLoadIsLdcu;                      // ULDC is spelled and encoded as LDCU
  bool noAluConstBank;                       // ALU instructions take no c[][] source operand
  std::vector<isa::Opcode> printsOptional;   // nvdisasm spells every optional operand out
  // A modifier whose default nvdisasm spells out: in the field of `op` that can spell `sibling`,
  // the unprinted value is printed as `text` (sm_120's VIMNMX.S32, VIADD.32).
  struct Respell {
    isa::Opcode op;
    std::string_view sibling, text;
  };
  std::vector<Respell> respell;
  std::vector<isa::Opcode> noReuse;          // forms without operand-reuse slots
  // Special registers named differently from sm_90 (read back from nvdisasm for every number);
  // an empty name: unnamed here (printed SR<n>).
  std::vector<std::pair<uint8_t, std::string_view>> specialRegs;
  // A form whose layout moved: the sm_90 form with 12-bit opcode `opcode` gets these bits fixed
  // and (offsetBits != 0) a narrower signed memory offset at bit 40.
  struct Relayout {
    isa::Opcode op;
    uint16_t opcode;
    std::vector<std::pair<Field, uint64_t>> fix;
    uint8_t offsetBits;
  };
  std::vector<Relayout> relayout;
  // Modifier values of an opcode that nvdisasm spells otherwise here and ptxas never emits; a
  // form that fixes such a value (IMMA's ".8816" shape) does not exist.
  std::vector<std::pair<isa::Opcode, std::string_view>> droppedValues;
  // An element that moved or changed meaning: in the forms of `op`, the modifier or operand
  // whose field is `was` becomes `now`.
  struct ElemEdit {
    isa::Opcode op;
    Field was;
    Elem now;
  };
  std::vector<ElemEdit> elemEdits;
  // Forms only this architecture has (added before the uniform-register fields are widened).
  void (*addForms)(FormTable &) = nullptr;
};

using O = isa::Opcode;
// The global/generic atomics' desc[UR] layout on Blackwell (both sm_100 and sm_120): the UR
// field takes bits 64..71 (sm_90 fixed 70 and 71 to 1 there), a clear "+UR" bit selects
// desc[UR] (set, nvdisasm prints [Ra.64+UR]), and ATOMG/ATOM shorten their offset to 23 bits
// (40..62) with bit 63 set (clear, nvdisasm rejects the word). REDG keeps a 24-bit offset.
// The compare-and-swap forms (no descriptor) and ATOMS are unchanged.
std::vector<EncodingDelta::Relayout> atomicsRelayout() {
  const std::pair<Field, uint64_t> bit63{bits(63, 1), 1};
  return {
      {O::ATOMG, 0x9a8, {{bits(76, 1), 1}, bit63}, 23},   // integer ops: type in 73..75, "+UR" at 76
      {O::ATOM, 0x98a, {{bits(76, 1), 1}, bit63}, 23},
      {O::ATOMG, 0x9a3, {{bits(90, 1), 1}, bit63}, 23},   // float ops: type in 73..76, "+UR" at 90
      {O::ATOM, 0x9a2, {{bits(90, 1), 1}, bit63}, 23},
      {O::REDG, 0x98e, {{bits(81, 1), 1}}, 0},            // (REDG has no predicate result at 81)
      {O::REDG, 0x9a6, {{bits(81, 1), 1}}, 0},
  };
}

// LDGSTS on Blackwell: the desc[UR] field takes bits 64..71 (sm_90 fixed bit 70 to 1), pushing
// the L2 prefetch to 72..73 (3 = .LTC256B, not emitted) and the size to 74..75 (0 = 32 bits,
// 1 = .64, 2 = .128); bit 83 is set (clear, nvdisasm rejects the word).
// Textures and surfaces: the handle UR takes bits 40..47 and the sm_90 index immediate (46..53,
// always 0x0 in ptxas's bindless code) is gone: TEX/TLD/TLD4/TXD/SULD/SUST/SURED print none and
// fix 48..55 to 0xff; TXQ still prints "0x0" but encodes nothing there. TEX's LOD mode is split
// (59 low bit, 87..89 high bits: .LZ sets 59, .LB 87, .LL both) and TLD's is one bit at 87
// (clear .LZ, set .LL), where sm_90 encoded .LZ as 1 in 87..89.
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}
std::vector<EncodingDelta::Relayout> asyncCopyAndTextureRelayout() {
  std::vector<EncodingDelta::Relayout> r = {
      {O::LDGSTS, 0xfae, {{bits(83, 1), 1}}, 0},
      {O::TLD, 0xf66, {{bits(87, 3), 0}, {bits(48, 8), 0xff}}, 0},
  };
  for (auto [op, opcode] : {std::pair{O::TEX, 0xf60}, {O::TLD4, 0xf63}, {O::TXD, 0xf6c}, {O::SULD, 0xf99},
                            {O::SUST, 0xf9d}, {O::SURED, 0xf9f}})
    r.push_back({op, static_cast<uint16_t>(opcode), {{bits(48, 8), 0xff}}, 0});
  return r;
}

std::vector<EncodingDelta::ElemEdit> asyncCopyAndTextureEdits() {
  using isa::L2Prefetch;
  using isa::MemType;
  using isa::TexMode;
  std::vector<EncodingDelta::ElemEdit> r = {
      {O::LDGSTS, bits(71, 2),
       mod(S::l2prefetch, bits(72, 2),
           {V(0, L2Prefetch::None, ""), V(1, L2Prefetch::B64, ".LTC64B"), V(2, L2Prefetch::B128, ".LTC128B"),
            V(3, L2Prefetch::B256, ".LTC256B")})},
      {O::LDGSTS, bits(73, 3),
       mod(S::memType, bits(74, 2),
           {V(0, MemType::B32, ""), V(0, MemType::None, ""), V(1, MemType::B64, ".64"), V(2, MemType::B128, ".128")})},
      {O::TEX, bits(87, 3),
       mod(S::texMode, bits(59, 1),
           {V(0, TexMode::None, ""), V(1, TexMode::LZ, ".LZ"), V(2, TexMode::LB, ".LB"), V(3, TexMode::LL, ".LL")})
           .hi(bits(87, 3))},
      // (TXQ prints its index, always 0x0)
      {O::TXQ, bits(46, 8), Imm(Field{})},
  };
  for (O op : {O::TEX, O::TLD, O::TLD4, O::TXD, O::SULD, O::SUST, O::SURED})
    r.push_back({op, bits(46, 8), Imm(Field{}).opt(4, Operand::i(0))});
  return r;
}
#undef V

std::vector<EncodingDelta::Relayout> blackwellRelayout() {
  std::vector<EncodingDelta::Relayout> r = atomicsRelayout();
  for (EncodingDelta::Relayout &x : asyncCopyAndTextureRelayout()) r.push_back(std::move(x));
  return r;
}

// IMNMX.U64/.S64 PT, PT, Rd, Ra, b, Pmin, !PT: sm_120's 64-bit min/max (ptxas -arch=sm_120 emits
// it for min/max.u64/s64; sm_100 compares and selects). Ampere's IMNMX opcode 0x017 with bit 74
// (64-bit) and the signedness at 73; b is a register pair, a UR pair or a 32-bit immediate that
// both types sign-extend (ptxas: `IMNMX.U64 ..., -0x2` for min.u64 with 2^64-2, a UMOV.64 for
// 0xffffffff). The two leading predicate results (81..86) and the trailing !PT (77..80) are
// what ptxas always writes; nvdisasm prints them, the semantics do not use them. Layouts
// 0x217, 0x817, 0xc17, read from ptxas's words.
void addImnmx64(FormTable &t) {
  Builder b(t);
  const ModMap type = {ModValue{2, static_cast<uint8_t>(isa::IntType::U64), ".U64"},
                       ModValue{3, static_cast<uint8_t>(isa::IntType::S64), ".S64"}};
  b.alu(O::IMNMX, 0x017, {RR, IR, UR_},
        {mod(S::intType, bits(73, 2), type), lit("PT"), lit("PT"), R(16).def().w(2), R(24).reuse(0).w(2),
         srcB(ImmFmt::SHex).reuse(1).w(2), P(87).inv(90), lit("!PT")});
  b.fix(bits(77, 4), 0xf);
  b.fix(bits(81, 6), 0x3f);
}

// sm_120's packed-byte min/max and add (ptxas's vabsdiff4): VIMNMX's type field is 3 bits
// (72..74: .U32 0, .S32 1, .U16x2 2, .S16x2 3, .U8x4 4, .S8x4 5) and VIADD's too (73..75: .32 0,
// .16x2 1, .U8x4 4, .S8x4 5; 2 and 3 nvdisasm spells .S32/.S16x2, unused), read back from
// nvdisasm -b SM120 for every value. The defaults are spelled as the Respell rule does.
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}
std::vector<EncodingDelta::ElemEdit> sm120ElemEdits() {
  using isa::IntType;
  std::vector<EncodingDelta::ElemEdit> r = asyncCopyAndTextureEdits();
  r.push_back({O::VIMNMX, bits(72, 2),
               mod(S::intType, bits(72, 3),
                   {V(1, IntType::S32, ".S32"), V(1, IntType::None, ".S32"), V(0, IntType::U32, ".U32"),
                    V(3, IntType::S16x2, ".S16x2"), V(2, IntType::U16x2, ".U16x2"), V(4, IntType::U8x4, ".U8x4"),
                    V(5, IntType::S8x4, ".S8x4")})});
  r.push_back({O::VIADD, bits(73, 1),
               mod(S::intType, bits(73, 3),
                   {V(0, IntType::S32, ".32"), V(0, IntType::None, ".32"), V(1, IntType::S16x2, ".16x2"),
                    V(4, IntType::U8x4, ".U8x4"), V(5, IntType::S8x4, ".S8x4")})});
  return r;
}
#undef V

// A store's sm_90 .CONSTANT.VC / .CONSTANT.GPU orders read .SYS.ORDERED / .MMIO.SYS.ORDERED.
// IMMA.8816 (nvdisasm prints its shape INVALID0) is gone too.
const std::vector<std::pair<isa::Opcode, std::string_view>> kStoreOrders = {
    {O::STG, ".CONSTANT.VC"}, {O::STG, ".CONSTANT.GPU"}, {O::IMMA, ".8816"}};

const EncodingDelta kSm100 = {
    Target::SM100, 8, 255,
    {O::ULDC, O::LDGMC, O::BMMA},   // (BMMA: nvdisasm rejects every sm_90 form; LDGMC: the .64 base bit is inside the wider UR field; not probed yet)
    {isa::ModSlot::mmaPipe}, true, true,
    {O::IADD3, O::UIADD3},
    {},
    {},
    {{0x86, ""}, {0x87, ""}, {0x8a, "SR_CgaSize"}, {0x8d, "SR_TMemSz"}},
    blackwellRelayout(),
    kStoreOrders,
    asyncCopyAndTextureEdits()};
// sm_120 also lacks VIADDMNMX and the VABSDIFF family, spells VIMNMX's and VIADD's defaults,
// and its (variable-latency) FP64 instructions and HMMA, IMMA, DMMA have no operand reuse.
const EncodingDelta kSm120 = {
    Target::SM120, 8, 255,
    {O::ULDC, O::VIADDMNMX, O::VABSDIFF, O::VABSDIFF4, O::LDGMC, O::BMMA},
    {isa::ModSlot::mmaPipe}, true, true,
    {O::IADD3, O::UIADD3},
    {{O::VIMNMX, ".U32", ".S32"}, {O::VIADD, ".16x2", ".32"}},
    {O::DADD, O::DMUL, O::DFMA, O::DSETP, O::HMMA, O::IMMA, O::DMMA},
    {{0x86, ""}, {0x87, ""}, {0x8a, "SR_CgaSize"}, {0x8d, "SR_TMemSz"}, {0x8e, "SR_CONTEXT_SAVE_ADDR_LO"},
     {0x8f, "SR_CONTEXT_SAVE_ADDR_HI"}},
    blackwellRelayout(),
    kStoreOrders,
    sm120ElemEdits(),
    addImnmx64};

// A form with a constant-bank source operand other than a load's (LDC/LDCU keep theirs).
bool aluConstBankSource(const Form &f) {
  if (f.op == isa::Opcode::LDC || f.op == isa::Opcode::ULDC) return false;
  for (const Elem &e : f.elems)
    if (e.kind == ElemKind::Opd && e.type == OpdType::CBank) return true;
  return false;
}

// Widens a 6-bit uniform-register field; sm_90 forms that fixed the two bits above it (the
// atomics' desc field) lose those fixed bits, which are part of the register on Blackwell.
void widen(Form &f, Field &fld, uint8_t bitsWide) {
  if (!fld.valid() || fld.width != 6) return;
  fld.width = bitsWide;
  Word m = fieldMask(fld);
  for (int i = 0; i < 2; ++i) {
    f.fixedMask[i] &= ~m[i];
    f.fixedBits[i] &= ~m[i];
  }
}

// Whether two operand/modifier fields of a form overlap (a widened register field running into
// a neighbour: such a form is not known to exist on Blackwell and is dropped).
bool fieldsOverlap(const Form &f) {
  Word seen{0, 0};
  auto add = [&](Field x) {
    if (!x.valid()) return false;
    Word m = fieldMask(x);
    bool clash = (m[0] & seen[0]) || (m[1] & seen[1]);
    seen[0] |= m[0];
    seen[1] |= m[1];
    return clash;
  };
  for (const Elem &e : f.elems) {
    bool clash = add(e.field) | add(e.fieldHi) | add(e.selField) | add(e.mem.base) | add(e.mem.ur) |
                 add(e.mem.offset) | add(e.mem.scale) | add(e.cb.bank) | add(e.cb.offset) | add(e.cb.index) |
                 add(e.cb.urIndex);
    if (clash) return true;
  }
  return false;
}

// A form that fixes a dropped slot to a nonzero value (HFMA2.MMA's ".MMA").
bool setsSlot(const Form &f, isa::ModSlot s) {
  for (const Elem &e : f.elems)
    if (e.kind == ElemKind::Mod && e.slot == s && !e.field.valid() && !e.values.empty() && e.values[0].value)
      return true;
  return false;
}

// LDCU{.size} URd, c[bank][{URa+}imm17]: the form without an index register fixes the index field
// to URZ (nvdisasm then prints no index), the other names it.
void addLdcu(FormTable &t, uint8_t urzRaw) {
  Builder b(t);
  // (nvdisasm rejects the sub-word sizes)
  auto size = [] {
    return mod(S::memType, bits(73, 3),
               {ModValue{4, static_cast<uint8_t>(isa::MemType::B32), ""}, ModValue{4, static_cast<uint8_t>(isa::MemType::None), ""},
                ModValue{5, static_cast<uint8_t>(isa::MemType::B64), ".64"},
                ModValue{6, static_cast<uint8_t>(isa::MemType::B128), ".128"}});
  };
  CBankLayout plain;
  plain.bank = bits(54, 5);
  plain.offset = bits(37, 17);
  plain.offsetSigned = true;
  plain.sizeAligned = true;   // (nvdisasm rejects an offset not aligned to the access size)
  plain.zeroPrintsUrz = true;  // (nvdisasm spells offset 0 of the index-less form c[bank][URZ])
  Form &f = b.form(isa::Opcode::ULDC, 0x7ac, {size(), UR(16).def().wslot(S::memType), CBank(plain)});
  f.mnemonic = "LDCU";
  b.fix(bits(24, 8), urzRaw);
  b.fix(bits(91, 1), 1);
  CBankLayout indexed = plain;
  indexed.zeroPrintsUrz = false;
  indexed.urIndex = bits(24, 8);
  indexed.urIndexNotZero = true;
  Form &g = b.form(isa::Opcode::ULDC, 0x7ac, {size(), UR(16).def().wslot(S::memType), CBank(indexed)});
  g.mnemonic = "LDCU";
  b.fix(bits(91, 1), 1);
  // nvdisasm rejects a read scoreboard on LDCU (it releases only its write scoreboard).
  b.scoreboardsOf(isa::Opcode::ULDC, true, false);
}

const FormTable *build(const EncodingDelta &d) {
  auto *t = new FormTable(d.target);
  sm90::addAllForms(*t);
  {
    // mma.sync/ldmatrix and textures (Hopper's asynchronous units are not inherited).
    Builder b(*t);
    sm90::addTensorForms(b);
    sm90::addTextureForms(b);
    t->spacingOps_ = {isa::Opcode::HMMA, isa::Opcode::IMMA, isa::Opcode::BMMA};
  }
  t->urzRaw = d.urzRaw;
  for (const auto &[n, name] : d.specialRegs) {
    std::erase_if(t->specialRegs, [n = n](const auto &r) { return r.first == n; });
    if (!name.empty()) t->specialRegs.emplace_back(n, name);
  }
  t->removeForms([&](const Form &f) {
    // VIMNMX3 (min/max of three) is decoded from ptxas's sm_90 code only; its Blackwell layout
    // is not measured (nvdisasm -b SM100/SM120 rejects the sm_90 words).
    if (f.mnemonic == "VIMNMX3") return true;
    // VHMNMX: sm_100 decodes the sm_90 words (encode oracle SM100), sm_120 rejects them.
    if (f.mnemonic == "VHMNMX" && d.target == Target::SM120) return true;
    for (isa::Opcode op : d.droppedOpcodes)
      if (f.op == op) return true;
    for (isa::ModSlot s : d.droppedFlags)
      if (setsSlot(f, s)) return true;
    for (const auto &[op, text] : d.droppedValues)
      for (const Elem &e : f.elems)
        if (f.op == op && e.kind == ElemKind::Mod && !e.field.valid() && !e.values.empty() && e.values[0].text == text)
          return true;
    return false;
  });
  {
    // Of Hopper's asynchronous units, cp.async.mbarrier.arrive's forms (checked with nvdisasm
    // -b SM100/SM120 and on ptxas 13.0's words; widened below like the others).
    Builder b(*t);
    sm90::addCpAsyncArriveForms(b, true);
  }
  if (d.addForms) d.addForms(*t);
  if (d.constLoadIsLdcu) {
    addLdcu(*t, d.urzRaw);
    t->spacingOps_.insert(isa::Opcode::ULDC);   // (LDCU is a variable-latency load)
  }
  for (size_t i = 0; i < t->forms().size(); ++i) {
    Form &f = t->formAt(i);
    for (isa::Opcode op : d.printsOptional)
      if (f.op == op) f.printsOptional = true;
    for (const EncodingDelta::Respell &r : d.respell)
      if (f.op == r.op)
        for (Elem &e : f.elems) {
          if (e.kind != ElemKind::Mod) continue;
          bool has = false;
          for (const ModValue &v : e.values) has |= v.text == r.sibling;
          if (has)
            for (ModValue &v : e.values)
              if (v.text.empty()) v.text = r.text;
        }
    // sm_100's VIMNMX has two predicate results that nvdisasm prints as "PT, PT" after the
    // destination (the sm_90 encoding leaves them at PT); they are spelled, not modelled.
    if (d.target == Target::SM100 && f.op == isa::Opcode::VIMNMX) {
      auto it = f.elems.begin();
      while (it != f.elems.end() && it->kind != ElemKind::Opd) ++it;
      if (it != f.elems.end()) f.elems.insert(it + 1, {lit("PT"), lit("PT")});
    }
    for (const EncodingDelta::ElemEdit &x : d.elemEdits)
      if (f.op == x.op)
        for (Elem &e : f.elems)
          if (e.field.valid() && e.field.pos == x.was.pos && e.field.width == x.was.width) e = x.now;
    for (const EncodingDelta::Relayout &r : d.relayout) {
      if (f.op != r.op || (f.fixedBits[0] & 0xfff) != r.opcode) continue;
      for (Elem &e : f.elems)
        if (e.kind == ElemKind::Opd && e.type == OpdType::Mem && r.offsetBits) e.mem.offset.width = r.offsetBits;
      for (const auto &[fld, v] : r.fix) {
        setField(f.fixedMask, fld, ~0ull);
        setField(f.fixedBits, fld, v);
      }
    }
    for (const auto &[op, text] : d.droppedValues)
      if (f.op == op)
        for (Elem &e : f.elems)
          if (e.kind == ElemKind::Mod && e.field.valid())
            std::erase_if(e.values, [text = text](const ModValue &v) { return v.text == text; });
    for (isa::Opcode op : d.noReuse)
      if (f.op == op)
        for (Elem &e : f.elems) e.reuse = -1;
    for (Elem &e : f.elems) {
      if (e.kind != ElemKind::Opd) continue;
      if (e.type == OpdType::UGpr) widen(f, e.field, d.urFieldBits);
      widen(f, e.mem.ur, d.urFieldBits);
      widen(f, e.cb.cxUr, d.urFieldBits);
      widen(f, e.cb.urIndex, d.urFieldBits);
    }
    // A uniform form that fixes its absent third source to URZ (ULEA without c) stores the
    // family's URZ there.
    const Field c = bits(64, 8);
    if (isa::hasFlag(f.op, isa::Uniform) && getField(f.fixedMask, c) == 0xff && getField(f.fixedBits, c) == URZ)
      setField(f.fixedBits, c, d.urzRaw);
  }
  t->removeForms([&](const Form &f) { return fieldsOverlap(f) || (d.noAluConstBank && aluConstBankSource(f)); });
  t->finalize();
  return t;
}

} // namespace blackwell

namespace sm100 {
const tbl::FormTable &table() {
  static const tbl::FormTable *t = blackwell::build(blackwell::kSm100);
  return *t;
}
} // namespace sm100

namespace sm120 {
const tbl::FormTable &table() {
  static const tbl::FormTable *t = blackwell::build(blackwell::kSm120);
  return *t;
}
} // namespace sm120

} // namespace optxas::sass
