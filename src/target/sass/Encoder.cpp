// Inst -> 128 bits, driven by the form table.
#include <algorithm>
#include "sass/FormTable.h"

namespace optxas::sass {

using namespace tbl;

namespace {

uint64_t immRaw(const Elem &e, int64_t v) {
  return static_cast<uint64_t>((v - e.immAdd) >> e.immShift);
}

uint8_t scaleRaw(uint8_t scale) {
  switch (scale) {
  case 4: return 1;
  case 8: return 2;
  case 16: return 3;
  default: return 0;
  }
}

// A uniform register number as its field stores it (URZ is all ones: 63 or 255).
uint64_t urRaw(uint8_t reg, uint8_t urzRaw) { return reg == URZ ? urzRaw : reg; }

void encodeOperand(Word &w, const Elem &e, const Operand &o, uint8_t &reuseMask, uint8_t urz) {
  if (o.reuse && e.reuse >= 0)
    reuseMask |= 1u << e.reuse;
  bool isPred = e.type == OpdType::Pred || e.type == OpdType::UPred;
  if (isPred) {
    int b = e.notBit >= 0 ? e.notBit : e.negBit;
    if (b >= 0)
      setField(w, bits(b, 1), o.negate);
  } else {
    if (e.negBit >= 0)
      setField(w, bits(e.negBit, 1), o.negate);
    if (e.notBit >= 0)
      setField(w, bits(e.notBit, 1), o.invert);
  }
  if (e.absBit >= 0)
    setField(w, bits(e.absBit, 1), o.absolute);
  if (e.selField.valid())
    for (const ModValue &v : e.selMap)
      if (v.value == static_cast<uint8_t>(o.sel)) {
        setField(w, e.selField, v.raw);
        setField(w, e.selFieldHi, v.raw >> e.selField.width);
        break;
      }
  switch (e.type) {
  case OpdType::UGpr:
    setField(w, e.field, urRaw(o.reg, urz));
    break;
  case OpdType::Gpr:
  case OpdType::Pred:
  case OpdType::UPred:
  case OpdType::SReg:
  case OpdType::BarReg:
    setField(w, e.field, o.reg ^ e.xorMask);
    break;
  case OpdType::Imm:
  case OpdType::FImm:
  case OpdType::Target:
    setElemRaw(w, e, immRaw(e, o.imm));
    break;
  case OpdType::CBank: {
    const CBankLayout &c = e.cb;
    if (o.reg == kNoReg) {
      setField(w, bits(c.cxBit, 1), 1);
      setField(w, c.cxUr.valid() ? c.cxUr : c.bank, urRaw(o.ureg, urz));
    } else {
      setField(w, c.bank, o.reg);
    }
    setField(w, c.offset, static_cast<uint64_t>(o.imm / c.offsetScale));
    if (c.index.valid())
      setField(w, c.index, o.base);
    if (c.urIndex.valid())
      setField(w, c.urIndex, urRaw(o.ureg, urz));
    break;
  }
  case OpdType::Mem: {
    const MemLayout &l = e.mem;
    if (l.base.valid())
      setField(w, l.base, o.base);
    if (l.base64Bit >= 0)
      setField(w, bits(l.base64Bit, 1), o.base64);
    using U = MemLayout::UrUse;
    switch (l.urUse) {
    case U::None: break;
    case U::Add: setField(w, l.ur, urRaw(o.ureg, urz)); break;
    case U::Desc: setField(w, l.ur, urRaw(o.desc, urz)); break;
    case U::DescIfBit:
      setField(w, bits(l.urBit, 1), o.desc != kNoReg);
      setField(w, l.ur, urRaw(o.desc != kNoReg ? o.desc : o.ureg, urz));
      break;
    case U::AddIfBit:
      setField(w, bits(l.urBit, 1), o.ureg != kNoReg);
      setField(w, l.ur, o.ureg != kNoReg ? urRaw(o.ureg, urz) : 0);
      break;
    }
    if (l.offset.valid())
      setField(w, l.offset, static_cast<uint64_t>(o.imm));
    if (l.scale.valid())
      setField(w, l.scale, scaleRaw(o.scale));
    break;
  }
  }
}

} // namespace

uint32_t packControl(const Control &c) {
  return (c.stall & 0xfu) | (uint32_t(!c.yield) << 4) | (uint32_t(c.wbar & 7) << 5) |
         (uint32_t(c.rbar & 7) << 8) | (uint32_t(c.wait & 0x3f) << 11);
}

Control unpackControl(uint32_t b) {
  Control c;
  c.stall = b & 0xf;
  c.yield = !((b >> 4) & 1);
  c.wbar = (b >> 5) & 7;
  c.rbar = (b >> 8) & 7;
  c.wait = (b >> 11) & 0x3f;
  return c;
}

Control controlOf(const Word &w) { return unpackControl(static_cast<uint32_t>(getField(w, bits(105, 17)))); }
uint8_t reuseMaskOf(const Word &w) { return static_cast<uint8_t>(getField(w, bits(122, 4))); }

void setControl(Word &w, const Control &c, uint8_t reuseMask) {
  setField(w, bits(105, 17), packControl(c));
  setField(w, bits(122, 4), reuseMask);
}

namespace {

// The form that encodes `in`, with its operand list completed in `full`; null when none does (the
// reason in *why when asked). Everything encode checks before it sets bits.
const Form *encodingForm(const Inst &in, Target target, std::vector<Operand> &full, std::string *why) {
  auto reject = [&](std::string reason) -> const Form * {
    if (why)
      *why = std::move(reason);
    return nullptr;
  };
  const FormTable *t = tableFor(target);
  if (!t)
    return reject("no encoding table for sm_" + std::to_string(static_cast<unsigned>(target)));
  const Form *f = selectForm(*t, in, full, why);
  if (!f)
    return nullptr;
  if (in.guard.uniform != f->uniformGuard && !in.guard.isAlways() &&
      !(in.guard.pred == PT && !in.guard.negate))
    return reject(std::string(isa::opcodeName(in.op)) +
                  (f->uniformGuard ? ": guard must be a uniform predicate (UPn)"
                                   : ": guard must be a predicate (Pn)"));
  if ((!f->allowWbar && in.ctrl.wbar != 7) || (!f->allowRbar && in.ctrl.rbar != 7))
    return reject(std::string(isa::opcodeName(in.op)) +
                  (f->allowRbar ? ": cannot set a write scoreboard" : ": cannot set scoreboards"));
  if (in.guard.pred > 7 || in.ctrl.stall > 15 || in.ctrl.wbar > 7 || in.ctrl.rbar > 7 ||
      in.ctrl.wait > 0x3f)
    return reject("guard or control bits out of range");
  // The operand-reuse cache does not survive a yield (nvdisasm rejects or ignores such reuse
  // bits; ptxas never sets them). A form accepts .reuse only where it has the slot.
  if (in.ctrl.yield && std::any_of(in.ops.begin(), in.ops.end(), [](const Operand &o) { return o.reuse; }))
    return reject(std::string(isa::opcodeName(in.op)) + ": .reuse on a yielding instruction");
  return f;
}

} // namespace

bool encodable(const Inst &in, Target target) {
  std::vector<Operand> full;
  return encodingForm(in, target, full, nullptr) != nullptr;
}

EncodeResult encode(const Inst &in, Target target) {
  EncodeResult r;
  std::vector<Operand> full;
  const Form *f = encodingForm(in, target, full, &r.error);
  if (!f)
    return r;
  Word w = f->fixedBits;
  setField(w, bits(12, 3), in.guard.pred);
  setField(w, bits(15, 1), in.guard.negate);
  uint8_t reuse = 0;
  size_t k = 0;
  const uint8_t urz = tableFor(target)->urzRaw;
  for (const Elem &e : f->elems) {
    if (e.kind == ElemKind::Opd) {
      encodeOperand(w, e, full[k++], reuse, urz);
    } else if (e.field.valid()) {
      if (e.kind == ElemKind::ModOpd && e.values.empty()) {
        setElemRaw(w, e, isa::getSlot(in.mods, e.slot));
      } else {
        const ModValue *v = modValueFor(e, in.mods);
        setElemRaw(w, e, v->raw);
      }
    }
  }
  setControl(w, in.ctrl, reuse);
  r.bits = w;
  return r;
}

bool operandRoles(const Inst &in, Target target, std::vector<OperandRole> &roles,
                  std::string *error) {
  const FormTable *t = tableFor(target);
  std::vector<Operand> full;
  const Form *f = t ? selectForm(*t, in, full, error) : nullptr;
  if (!f)
    return false;
  roles.clear();
  for (const Elem &e : f->elems)
    if (e.kind == ElemKind::Opd)
      roles.push_back(OperandRole{e.def, elemWidth(e, in.mods)});
  return true;
}

bool canonicalize(Inst &in, Target target, std::string *error) {
  const FormTable *t = tableFor(target);
  std::vector<Operand> full;
  const Form *f = t ? selectForm(*t, in, full, error) : nullptr;
  if (!f)
    return false;
  in.ops = std::move(full);
  return true;
}

std::vector<std::string> describeForms(Target target) {
  std::vector<std::string> out;
  if (const FormTable *t = tableFor(target))
    for (const Form &f : t->forms())
      out.push_back(f.syntax);
  return out;
}

std::string_view specialRegName(uint8_t index, Target target) {
  if (const FormTable *t = tableFor(target))
    for (const auto &[i, n] : t->specialRegs)
      if (i == index)
        return n;
  return "";
}

bool specialRegFromName(std::string_view name, uint8_t &index, Target target) {
  if (const FormTable *t = tableFor(target))
    for (const auto &[i, n] : t->specialRegs)
      if (n == name) {
        index = i;
        return true;
      }
  return false;
}

} // namespace optxas::sass
