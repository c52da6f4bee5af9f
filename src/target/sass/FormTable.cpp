// Form table indexes and the Inst <-> form matching shared by encoder, printer and parser.
#include <array>
#include "sass/FormTable.h"

#include <algorithm>
#include <cassert>

namespace optxas::sass::tbl {

using isa::ModSlot;

uint64_t getField(const Word &w, Field f) {
  uint64_t v = 0;
  for (unsigned i = 0; i < f.width; ++i) {
    unsigned b = f.pos + i;
    v |= ((w[b >> 6] >> (b & 63)) & 1ull) << i;
  }
  return v;
}

void setField(Word &w, Field f, uint64_t v) {
  for (unsigned i = 0; i < f.width; ++i) {
    unsigned b = f.pos + i;
    uint64_t m = 1ull << (b & 63);
    if ((v >> i) & 1)
      w[b >> 6] |= m;
    else
      w[b >> 6] &= ~m;
  }
}

uint64_t getElemRaw(const Word &w, const Elem &e) {
  uint64_t v = getField(w, e.field);
  if (e.fieldHi.valid())
    v |= getField(w, e.fieldHi) << e.field.width;
  return v;
}

void setElemRaw(Word &w, const Elem &e, uint64_t v) {
  setField(w, e.field, v);
  if (e.fieldHi.valid())
    setField(w, e.fieldHi, v >> e.field.width);
}

static void orField(Word &m, Field f) {
  if (f.valid())
    setField(m, f, ~0ull);
}
static void orBit(Word &m, int bit) {
  if (bit >= 0)
    setField(m, bits(bit, 1), 1);
}

void FormTable::removeForms(const std::function<bool(const Form &)> &drop) {
  forms_.erase(std::remove_if(forms_.begin(), forms_.end(), drop), forms_.end());
}

std::string_view FormTable::mnemonicOf(const Form &f) {
  return f.mnemonic.empty() ? isa::opcodeName(f.op) : f.mnemonic;
}

Form &FormTable::add(Form f) {
  f.id = static_cast<uint16_t>(forms_.size());
  forms_.push_back(std::move(f));
  return forms_.back();
}

static std::string describeElem(const Elem &e) {
  std::string s;
  if (e.kind == ElemKind::Mod) {
    if (!e.field.valid())
      return std::string(e.values.empty() ? "" : e.values[0].text);
    std::vector<std::string_view> seen;
    for (const ModValue &v : e.values)
      if (std::find(seen.begin(), seen.end(), v.text) == seen.end())
        seen.push_back(v.text);
    if (seen.size() == 2 && seen[0].empty())
      return "{" + std::string(seen[1]) + "}";
    s = "{";
    for (size_t i = 0; i < seen.size(); ++i)
      s += (i ? "|" : "") + (seen[i].empty() ? std::string("-") : std::string(seen[i]));
    return s + "}";
  }
  if (e.kind == ElemKind::ModOpd)
    return std::string("<") + std::string(isa::slotName(e.slot)) + ">";
  if (e.kind == ElemKind::OpdText)
    return std::string(e.values[0].text);
  switch (e.type) {
  case OpdType::Gpr: s = "R"; break;
  case OpdType::UGpr: s = "UR"; break;
  case OpdType::Pred: s = "P"; break;
  case OpdType::UPred: s = "UP"; break;
  case OpdType::SReg: s = "SR"; break;
  case OpdType::BarReg: s = "B"; break;
  case OpdType::Imm: s = "imm"; break;
  case OpdType::FImm: s = "fimm"; break;
  case OpdType::CBank: s = "c[][]"; break;
  case OpdType::Mem: s = "[mem]"; break;
  case OpdType::Target: s = "target"; break;
  }
  if (e.negBit >= 0)
    s = (e.type == OpdType::Pred || e.type == OpdType::UPred ? "!" : "-") + s;
  if (e.notBit >= 0)
    s = (e.type == OpdType::Pred || e.type == OpdType::UPred ? "!" : "~") + s;
  if (e.absBit >= 0)
    s = "|" + s + "|";
  if (e.def)
    s += "(d)";
  if (e.group)
    s += "?";
  return s;
}

void FormTable::finalize() {
  byOpcode_.assign(static_cast<size_t>(isa::Opcode::NumOpcodes), {});
  for (Form &f : forms_)
    if (!noSpacingOps_.count(f.op))
      f.scoreboardSpacing = isa::hasFlag(f.op, isa::VarLatency) || spacingOps_.count(f.op);
  byLow12_.assign(4096, {});
  for (Form &f : forms_) {
    f.slotsUsed = 0;
    Word cov = f.fixedMask;
    // Guard (12..15) and control (105..121) are part of every form.
    orField(cov, bits(12, 4));
    orField(cov, bits(105, 17));
    std::string mods, opds;
    for (const Elem &e : f.elems) {
      if (e.slot != ModSlot::NoSlot)
        f.slotsUsed |= 1ull << static_cast<unsigned>(e.slot);
      if (e.slot2 != ModSlot::NoSlot)
        f.slotsUsed |= 1ull << static_cast<unsigned>(e.slot2);
      orField(cov, e.field);
      orField(cov, e.fieldHi);
      orBit(cov, e.negBit);
      orBit(cov, e.absBit);
      orBit(cov, e.notBit);
      orField(cov, e.selField);
      orField(cov, e.selFieldHi);
      if (e.reuse >= 0)
        orBit(cov, 122 + e.reuse);
      if (e.kind == ElemKind::Opd && e.type == OpdType::Mem) {
        orField(cov, e.mem.base);
        orBit(cov, e.mem.base64Bit);
        orField(cov, e.mem.ur);
        orBit(cov, e.mem.urBit);
        orField(cov, e.mem.offset);
        orField(cov, e.mem.scale);
      }
      if (e.kind == ElemKind::Opd && e.type == OpdType::CBank) {
        orField(cov, e.cb.bank);
        orField(cov, e.cb.offset);
        orField(cov, e.cb.index);
        orBit(cov, e.cb.cxBit);
        orField(cov, e.cb.cxUr);
        orField(cov, e.cb.urIndex);
      }
      std::string d = describeElem(e);
      if (e.kind == ElemKind::Mod) {
        if (!d.empty())
          mods += (d[0] == '.' || d[0] == '{') ? d : "." + d;
      } else {
        opds += (opds.empty() ? " " : ", ") + d;
      }
    }
    f.coveredMask = cov;
    // Presence patterns: nvdisasm hides each optional operand holding its default.
    std::vector<const Elem *> opd;
    for (const Elem &e : f.elems)
      if (e.kind == ElemKind::Opd)
        opd.push_back(&e);
    std::vector<size_t> optional;
    for (size_t i = 0; i < opd.size(); ++i)
      if (opd[i]->group)
        optional.push_back(i);
    f.presence.clear();
    for (unsigned m = 0; m < (1u << optional.size()); ++m) {
      std::vector<bool> pres(opd.size(), true);
      for (size_t j = 0; j < optional.size(); ++j)
        pres[optional[j]] = !(m >> j & 1);
      f.presence.push_back(pres);
    }
    // Longest first; among equals, the one keeping the earlier operands (so that a lone
    // printed optional operand is read as the first of its kind, as nvdisasm intends).
    std::stable_sort(f.presence.begin(), f.presence.end(),
                     [](const std::vector<bool> &a, const std::vector<bool> &b) {
                       auto na = std::count(a.begin(), a.end(), true);
                       auto nb = std::count(b.begin(), b.end(), true);
                       return na != nb ? na > nb : a > b;
                     });
    f.syntax = std::string(FormTable::mnemonicOf(f)) + mods + opds;
    byOpcode_[static_cast<size_t>(f.op)].push_back(&f);
    assert((f.fixedMask[0] & 0xfff) == 0xfff && "every form fixes the 12 opcode bits");
    byLow12_[f.fixedBits[0] & 0xfff].push_back(&f);
  }
}

const std::vector<const Form *> &FormTable::formsOf(isa::Opcode op) const {
  return byOpcode_[static_cast<size_t>(op)];
}

std::vector<const Form *> FormTable::candidates(const Word &w) const {
  std::vector<const Form *> out;
  for (const Form *f : byLow12_[w[0] & 0xfff])
    if ((w[0] & f->fixedMask[0]) == f->fixedBits[0] && (w[1] & f->fixedMask[1]) == f->fixedBits[1])
      out.push_back(f);
  return out;
}

// ---- matching ----

uint8_t elemWidth(const Elem &e, const isa::Modifiers &m) {
  if (e.widthSlot == ModSlot::NoSlot)
    return e.width;
  uint8_t v = isa::getSlot(m, e.widthSlot);
  switch (e.widthSlot) {
  case ModSlot::memType:
    switch (static_cast<isa::MemType>(v)) {
    case isa::MemType::B64: return 2;
    case isa::MemType::B128: return 4;
    default: return 1;
    }
  case ModSlot::floatType:
  case ModSlot::srcFloatType:
    return static_cast<isa::FloatType>(v) == isa::FloatType::F64 ? 2 : 1;
  case ModSlot::intType:
  case ModSlot::srcIntType: {
    auto t = static_cast<isa::IntType>(v);
    return t == isa::IntType::U64 || t == isa::IntType::S64 ? 2 : 1;
  }
  case ModSlot::atomType:
    switch (static_cast<isa::AtomType>(v)) {
    case isa::AtomType::U64:
    case isa::AtomType::S64:
    case isa::AtomType::F64:
    case isa::AtomType::B64:
    case isa::AtomType::F32x2: return 2;
    case isa::AtomType::B128: return 4;
    default: return 1;
    }
  case ModSlot::u64:
  case ModSlot::wide:
    return v ? 2 : 1;
  case ModSlot::texDim:
    // Texture/surface coordinates: one register per axis, plus the array index first.
    switch (static_cast<isa::TexDim>(v)) {
    case isa::TexDim::D2: case isa::TexDim::ARRAY_1D: return 2;
    case isa::TexDim::D3: case isa::TexDim::CUBE: case isa::TexDim::ARRAY_2D: return 3;
    case isa::TexDim::ARRAY_CUBE: return 4;
    default: return 1;
    }
  case ModSlot::extra:
    // HGMMA's accumulators: extra = N / 8; N / 2 registers of f32, N / 4 of f16 (capped at
    // the 255 the operand width can say; the encoding only names the first register).
    return static_cast<uint8_t>(std::min(255u, (m.floatType == isa::FloatType::F32 ? 4u : 2u) * v));
  default:
    return e.width;
  }
}

const ModValue *modValueFor(const Elem &e, const isa::Modifiers &m) {
  uint8_t v1 = e.slot == ModSlot::NoSlot ? 0 : isa::getSlot(m, e.slot);
  uint8_t v2 = e.slot2 == ModSlot::NoSlot ? 0 : isa::getSlot(m, e.slot2);
  for (const ModValue &mv : e.values)
    if ((e.slot == ModSlot::NoSlot || mv.value == v1) &&
        (e.slot2 == ModSlot::NoSlot || mv.value2 == v2))
      return &mv;
  return nullptr;
}

bool isHiddenDefault(const Elem &e, const Operand &o) {
  Operand a = o, b = e.dflt;
  a.width = b.width = 1;
  a.reuse = b.reuse = false;
  return a == b;
}

std::vector<bool> printedOperands(const Form &f, const std::vector<Operand> &full) {
  std::vector<bool> shown;
  size_t k = 0;
  for (const Elem &e : f.elems)
    if (e.kind == ElemKind::Opd) {
      shown.push_back(f.printsOptional || !(e.group && isHiddenDefault(e, full[k])));
      ++k;
    }
  return shown;
}

static bool fitsField(int64_t v, Field f, bool isSigned) {
  if (f.width >= 64)
    return true;
  if (isSigned) {
    int64_t lo = -(int64_t(1) << (f.width - 1)), hi = (int64_t(1) << (f.width - 1)) - 1;
    return v >= lo && v <= hi;
  }
  return v >= 0 && static_cast<uint64_t>(v) < (1ull << f.width);
}

static const char *kindName(OpdType t) {
  switch (t) {
  case OpdType::Gpr: return "register";
  case OpdType::UGpr: return "uniform register";
  case OpdType::Pred: return "predicate";
  case OpdType::UPred: return "uniform predicate";
  case OpdType::SReg: return "special register";
  case OpdType::BarReg: return "barrier register";
  case OpdType::Imm: return "immediate";
  case OpdType::FImm: return "float immediate";
  case OpdType::CBank: return "constant bank";
  case OpdType::Mem: return "address";
  case OpdType::Target: return "branch target";
  }
  return "?";
}

static bool kindMatches(OpdType t, OperandKind k) {
  switch (t) {
  case OpdType::Gpr: return k == OperandKind::Reg;
  case OpdType::UGpr: return k == OperandKind::UReg;
  case OpdType::Pred: return k == OperandKind::Pred;
  case OpdType::UPred: return k == OperandKind::UPred;
  case OpdType::SReg: return k == OperandKind::SReg;
  case OpdType::BarReg: return k == OperandKind::BarReg;
  case OpdType::Imm: return k == OperandKind::Imm;
  case OpdType::FImm: return k == OperandKind::FImm;
  case OpdType::CBank: return k == OperandKind::CBank;
  case OpdType::Mem: return k == OperandKind::Mem;
  case OpdType::Target: return k == OperandKind::Target;
  }
  return false;
}

// Checks one operand against its elem. On a mismatch, sets *why (when asked: building the reason
// costs more than the check, and the encodability probes ask thousands of times) and returns false.
#define REJECT(reason)                                                                             \
  do {                                                                                             \
    if (why)                                                                                       \
      *why = (reason);                                                                             \
    return false;                                                                                  \
  } while (0)
static bool checkOperand(const Elem &e, const Operand &o, const isa::Modifiers &m, std::string *why) {
  if (!kindMatches(e.type, o.kind))
    REJECT(std::string("expected ") + kindName(e.type));
  bool isPred = e.type == OpdType::Pred || e.type == OpdType::UPred;
  if (o.negate && !(isPred ? (e.notBit >= 0 || e.negBit >= 0) : e.negBit >= 0))
    REJECT("operand cannot be negated");
  if (o.absolute && e.absBit < 0)
    REJECT("operand cannot take |abs|");
  if (o.invert && (isPred || e.notBit < 0))
    REJECT("operand cannot be inverted (~)");
  if (o.reuse && e.reuse < 0)
    REJECT("operand has no reuse slot");
  if (o.sel == SubSel::H0_H1 && (o.negate || o.absolute))
    REJECT(".H0_NH1 cannot be combined with -/|| (nvdisasm drops it)");
  if (o.sel != SubSel::None || e.selField.valid()) {
    bool ok = false;
    for (const ModValue &v : e.selMap)
      ok |= v.value == static_cast<uint8_t>(o.sel);
    if (!ok && !(o.sel == SubSel::None && !e.selField.valid()))
      REJECT("sub-register selection not encodable");
  }
  switch (e.type) {
  case OpdType::Gpr:
  case OpdType::UGpr:
    if (!fitsField(o.reg, e.field, false))
      REJECT("register number out of range");
    if (e.noZero && o.reg == (e.type == OpdType::Gpr ? RZ : URZ))
      REJECT("RZ/URZ is not valid here");
    // RZ/URZ read as zero at any width (IMAD.WIDE ..., RZ adds a zero pair).
    if (o.width != elemWidth(e, m) && o.reg != (e.type == OpdType::Gpr ? RZ : URZ))
      REJECT("register width " + std::to_string(o.width) + " (expected " +
             std::to_string(elemWidth(e, m)) + ")");
    break;
  case OpdType::Pred:
  case OpdType::UPred:
  case OpdType::SReg:
  case OpdType::BarReg:
    if (!fitsField(o.reg, e.field, false))
      REJECT("register number out of range");
    break;
  case OpdType::Imm:
  case OpdType::FImm:
  case OpdType::Target: {
    int64_t v = o.imm - e.immAdd;
    Field total = bits(0, e.field.width + e.fieldHi.width);
    bool isSigned = e.immSigned || e.fmt == ImmFmt::SHex || e.type == OpdType::Target;
    // A 32-bit unsigned slot holds the two's complement of a negative 32-bit value (MOV R0, -0x1
    // is MOV R0, 0xffffffff); the encoder and printer truncate to the field.
    if (!isSigned && total.width + e.immShift == 32 && v < 0 && v >= INT32_MIN)
      v &= 0xffffffff;
    if (v & ((int64_t(1) << e.immShift) - 1))
      REJECT("immediate not a multiple of " + std::to_string(1 << e.immShift));
    if (!fitsField(v >> e.immShift, total, isSigned))
      REJECT(e.type == OpdType::Target ? "branch offset out of range" : "immediate out of range");
    break;
  }
  case OpdType::CBank: {
    const CBankLayout &c = e.cb;
    bool cx = o.reg == kNoReg;
    if (cx && (c.cxBit < 0 || o.ureg == kNoReg))
      REJECT("form has no cx[UR] bank");
    if (!cx && !fitsField(o.reg, c.bank, false))
      REJECT("constant bank out of range");
    if (o.imm % c.offsetScale)
      REJECT("constant offset not aligned");
    if (c.sizeAligned &&
        o.imm % (m.memType == isa::MemType::B128 ? 16 : m.memType == isa::MemType::B64 ? 8 : 4))
      REJECT("constant offset not aligned to the access size");
    if (!fitsField(o.imm / c.offsetScale, c.offset, c.offsetSigned && !cx))
      REJECT("constant offset out of range");
    if ((o.base != kNoBase) != c.index.valid())
      REJECT(c.index.valid() ? "constant bank needs an index register" : "no index register");
    if (!cx && (o.ureg != kNoReg) != c.urIndex.valid())
      REJECT(c.urIndex.valid() ? "constant bank needs a uniform index register"
                               : "no uniform index register");
    if (!cx && o.ureg != kNoReg && o.ureg > URZ)
      REJECT("uniform index out of range");
    if (!cx && c.urIndexNotZero && o.ureg == URZ)
      REJECT("a URZ index is the form without one");
    break;
  }
  case OpdType::Mem: {
    const MemLayout &l = e.mem;
    if ((o.base != kNoBase) != l.base.valid())
      REJECT(l.base.valid() ? "address needs a base register" : "address takes no base register");
    if (o.base != kNoBase && o.base > RZ)
      REJECT("base register out of range");
    // nvdisasm has no spelling for a 64-bit RZ base plus a uniform register ("???255.64").
    if (o.base == RZ && o.base64 && o.ureg != kNoReg)
      REJECT("RZ.64 base cannot be combined with +URn");
    if (l.base64Bit < 0 && o.base64 != l.base64Const)
      REJECT(l.base64Const ? "address base must be 64-bit (.64)" : "address base is 32-bit");
    bool wantsDesc = o.desc != kNoReg, wantsUr = o.ureg != kNoReg;
    using U = MemLayout::UrUse;
    switch (l.urUse) {
    case U::None:
      if (wantsDesc || wantsUr)
        REJECT("address takes no uniform register");
      break;
    case U::Add:
      if (wantsDesc || !wantsUr)
        REJECT("address needs +URn");
      break;
    case U::Desc:
      if (!wantsDesc || wantsUr)
        REJECT("address needs desc[URn]");
      break;
    case U::DescIfBit:
      if (wantsDesc == wantsUr)
        REJECT("address needs exactly one of desc[URn] / +URn");
      break;
    case U::AddIfBit:
      if (wantsDesc)
        REJECT("address takes no desc[URn]");
      break;
    }
    if ((o.desc != kNoReg && o.desc > 63) || (o.ureg != kNoReg && o.ureg > 63))
      REJECT("uniform register out of range");
    if (l.offset.valid() ? !fitsField(o.imm, l.offset, l.offsetSigned) : o.imm != 0)
      REJECT("address offset out of range");
    if (o.scale && !l.scale.valid())
      REJECT("address takes no index scale");
    if (o.scale && o.scale != 4 && o.scale != 8 && o.scale != 16)
      REJECT("bad index scale");
    if (o.scale && o.base == RZ)
      REJECT("RZ base cannot be scaled");
    break;
  }
  }
  return true;
}

#undef REJECT

// matchForm with the instruction's set modifier slots (isa::setSlots) computed once by the caller.
static bool matchFormWithSlots(const Form &f, const Inst &in, uint64_t setSlots, std::vector<Operand> &full,
                               std::string *why) {
  if (f.op != in.op) {
    if (why)
      *why = "opcode";
    return false;
  }
  if (setSlots & ~f.slotsUsed) {
    if (why) {
      for (unsigned i = 0; i < static_cast<unsigned>(ModSlot::NumSlots); ++i)
        if (!(f.slotsUsed >> i & 1) && isa::getSlot(in.mods, static_cast<ModSlot>(i))) {
          *why = "modifier slot '" + std::string(isa::slotName(static_cast<ModSlot>(i))) +
                 "' not supported by this form";
          break;
        }
    }
    return false;
  }
  for (const Elem &e : f.elems)
    if ((e.kind == ElemKind::Mod || (e.kind == ElemKind::ModOpd && !e.values.empty())) &&
        e.field.valid() && !modValueFor(e, in.mods)) {
      if (why)
        *why = "value of modifier '" + std::string(isa::slotName(e.slot)) + "' not encodable";
      return false;
    } else if (e.kind == ElemKind::Mod && !e.field.valid() && !modValueFor(e, in.mods)) {
      if (why)
        *why = "form requires " + std::string(isa::slotName(e.slot)) + " = " +
               std::string(e.values.empty() ? "" : e.values[0].text);
      return false;
    }

  // The operand elems, in order (forms have a handful; no allocation on this hot path).
  std::array<const Elem *, 32> opd;
  size_t nOpd = 0;
  for (const Elem &e : f.elems)
    if (e.kind == ElemKind::Opd && nOpd < opd.size())
      opd[nOpd++] = &e;
  std::string firstWhy, bad;
  std::string *badWhy = why ? &bad : nullptr;
  for (const std::vector<bool> &pres : f.presence) {
    size_t n = std::count(pres.begin(), pres.end(), true);
    if (n != in.ops.size())
      continue;
    full.clear();
    size_t k = 0;
    bool ok = true;
    for (size_t i = 0; i < nOpd && ok; ++i) {
      const Elem *e = opd[i];
      Operand o;
      if (pres[i]) {
        o = in.ops[k++];
      } else {
        o = e->dflt;
        if (o.kind == OperandKind::Reg || o.kind == OperandKind::UReg)
          o.width = elemWidth(*e, in.mods);
      }
      if (!checkOperand(*e, o, in.mods, badWhy)) {
        ok = false;
        if (why)
          bad = "operand " + std::to_string(i + 1) + ": " + bad;
      }
      full.push_back(o);
    }
    // Operands read from the same field (BAR's "R13, R13") must agree.
    for (size_t i = 0; i < nOpd && ok; ++i)
      for (size_t j = i + 1; j < nOpd && ok; ++j)
        if (opd[i]->type == opd[j]->type && opd[i]->field.valid() &&
            opd[i]->field.pos == opd[j]->field.pos && !(full[i] == full[j])) {
          ok = false;
          if (why)
            bad = "operands " + std::to_string(i + 1) + " and " + std::to_string(j + 1) +
                  " share one field and must be equal";
        }
    if (ok)
      return true;
    if (why && firstWhy.empty())
      firstWhy = bad;
  }
  if (why)
    *why = firstWhy.empty() ? "wrong number of operands (" + std::to_string(in.ops.size()) + ")"
                            : firstWhy;
  return false;
}

bool matchForm(const Form &f, const Inst &in, std::vector<Operand> &full, std::string *why) {
  return matchFormWithSlots(f, in, isa::setSlots(in.mods), full, why);
}

const Form *selectForm(const FormTable &t, const Inst &in, std::vector<Operand> &full,
                       std::string *why) {
  const auto &fs = t.formsOf(in.op);
  if (fs.empty()) {
    if (why)
      *why = std::string(isa::opcodeName(in.op)) + ": opcode has no encoding for this target";
    return nullptr;
  }
  // Fast path without diagnostics; reasons are collected only when nothing matches.
  uint64_t setSlots = isa::setSlots(in.mods);
  for (const Form *f : fs)
    if (matchFormWithSlots(*f, in, setSlots, full, nullptr))
      return f;
  if (!why)
    return nullptr;
  std::string reasons;
  for (const Form *f : fs) {
    std::string r;
    matchForm(*f, in, full, &r);
    if (reasons.size() < 600)
      reasons += " | " + f->syntax + ": " + r;
  }
  if (why)
    *why = std::string(isa::opcodeName(in.op)) + ": no form matches" + reasons;
  return nullptr;
}

} // namespace optxas::sass::tbl
