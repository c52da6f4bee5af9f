// 128 bits -> Inst: the form table read in reverse. A word decodes only if every set bit is
// explained by the form (so that re-encoding reproduces it exactly).
#include "sass/FormTable.h"

#include <algorithm>
#include <cstdio>

namespace optxas::sass {

using namespace tbl;

namespace {

int64_t signExtend(uint64_t v, unsigned width) {
  if (width == 0 || width >= 64)
    return static_cast<int64_t>(v);
  uint64_t m = 1ull << (width - 1);
  v &= (1ull << width) - 1;
  return static_cast<int64_t>((v ^ m) - m);
}

std::string hex128(const Word &w) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%016llx_%016llx", static_cast<unsigned long long>(w[1]),
                static_cast<unsigned long long>(w[0]));
  return buf;
}

bool decodeOperand(const Word &w, const Elem &e, const isa::Modifiers &m, uint8_t reuseMask,
                   uint8_t urz, Operand &o, std::string &err) {
  o = Operand();
  // A uniform register field: the table's URZ value, or UR0..UR62 (the registers Inst models).
  bool urOk = true;
  auto ur = [&](uint64_t raw) -> uint8_t {
    if (raw == urz) return URZ;
    if (raw >= URZ) urOk = false;
    return static_cast<uint8_t>(raw);
  };
  bool isPred = e.type == OpdType::Pred || e.type == OpdType::UPred;
  if (e.reuse >= 0)
    o.reuse = (reuseMask >> e.reuse) & 1;
  if (e.negBit >= 0 && getField(w, bits(e.negBit, 1)))
    o.negate = true;
  if (e.notBit >= 0 && getField(w, bits(e.notBit, 1)))
    (isPred ? o.negate : o.invert) = true;
  if (e.absBit >= 0)
    o.absolute = getField(w, bits(e.absBit, 1));
  if (e.selField.valid()) {
    uint64_t raw = getField(w, e.selField) | getField(w, e.selFieldHi) << e.selField.width;
    const ModValue *v = nullptr;
    for (const ModValue &mv : e.selMap)
      if (mv.raw == raw) {
        v = &mv;
        break;
      }
    if (!v) {
      err = "unknown sub-register selection " + std::to_string(raw);
      return false;
    }
    o.sel = static_cast<SubSel>(v->value);
  }
  switch (e.type) {
  case OpdType::Gpr: o.kind = OperandKind::Reg; break;
  case OpdType::UGpr: o.kind = OperandKind::UReg; break;
  case OpdType::Pred: o.kind = OperandKind::Pred; break;
  case OpdType::UPred: o.kind = OperandKind::UPred; break;
  case OpdType::SReg: o.kind = OperandKind::SReg; break;
  case OpdType::BarReg: o.kind = OperandKind::BarReg; break;
  case OpdType::Imm: o.kind = OperandKind::Imm; break;
  case OpdType::FImm: o.kind = OperandKind::FImm; break;
  case OpdType::CBank: o.kind = OperandKind::CBank; break;
  case OpdType::Mem: o.kind = OperandKind::Mem; break;
  case OpdType::Target: o.kind = OperandKind::Target; break;
  }
  switch (e.type) {
  case OpdType::Gpr:
    o.reg = static_cast<uint8_t>(getField(w, e.field));
    o.width = elemWidth(e, m);
    break;
  case OpdType::UGpr:
    o.reg = ur(getField(w, e.field));
    o.width = elemWidth(e, m);
    break;
  case OpdType::Pred:
  case OpdType::UPred:
  case OpdType::SReg:
  case OpdType::BarReg:
    o.reg = static_cast<uint8_t>(getField(w, e.field) ^ e.xorMask);
    break;
  case OpdType::Imm:
  case OpdType::FImm:
  case OpdType::Target: {
    uint64_t raw = getElemRaw(w, e);
    unsigned width = e.field.width + e.fieldHi.width;
    bool isSigned = e.immSigned || e.fmt == ImmFmt::SHex || e.type == OpdType::Target;
    int64_t v = isSigned ? signExtend(raw, width) : static_cast<int64_t>(raw);
    o.imm = v * (int64_t(1) << e.immShift) + e.immAdd;
    break;
  }
  case OpdType::CBank: {
    const CBankLayout &c = e.cb;
    if (c.cxBit >= 0 && getField(w, bits(c.cxBit, 1))) {
      o.reg = kNoReg;
      o.ureg = ur(getField(w, c.cxUr.valid() ? c.cxUr : c.bank));
      if (c.cxUr.valid() && getField(w, c.bank)) {
        err = "bank field set in a cx[UR] operand";
        return false;
      }
    } else {
      o.reg = static_cast<uint8_t>(getField(w, c.bank));
      if (c.cxUr.valid() && getField(w, c.cxUr)) {
        err = "cx register field set in a c[] operand";
        return false;
      }
    }
    // (nvdisasm shows cx[URn] offsets unsigned, c[n] offsets signed.)
    uint64_t raw = getField(w, c.offset);
    bool sgn = c.offsetSigned && o.reg != kNoReg;
    o.imm = (sgn ? signExtend(raw, c.offset.width) : static_cast<int64_t>(raw)) * c.offsetScale;
    if (c.index.valid())
      o.base = static_cast<uint8_t>(getField(w, c.index));
    if (c.urIndex.valid())
      o.ureg = ur(getField(w, c.urIndex));
    break;
  }
  case OpdType::Mem: {
    const MemLayout &l = e.mem;
    if (l.base.valid())
      o.base = static_cast<uint8_t>(getField(w, l.base));
    o.base64 = l.base64Bit >= 0 ? getField(w, bits(l.base64Bit, 1)) != 0 : l.base64Const;
    uint8_t urv = l.ur.valid() ? ur(getField(w, l.ur)) : 0;
    using U = MemLayout::UrUse;
    switch (l.urUse) {
    case U::None: break;
    case U::Add: o.ureg = urv; break;
    case U::Desc: o.desc = urv; break;
    case U::DescIfBit:
      (getField(w, bits(l.urBit, 1)) ? o.desc : o.ureg) = urv;
      break;
    case U::AddIfBit:
      if (getField(w, bits(l.urBit, 1))) {
        o.ureg = urv;
      } else if (urv) {
        err = "uniform register field set without its enable bit";
        return false;
      }
      break;
    }
    if (l.offset.valid()) {
      uint64_t raw = getField(w, l.offset);
      o.imm = l.offsetSigned ? signExtend(raw, l.offset.width) : static_cast<int64_t>(raw);
    }
    if (l.scale.valid()) {
      static const uint8_t kScale[4] = {0, 4, 8, 16};
      o.scale = kScale[getField(w, l.scale) & 3];
    }
    break;
  }
  }
  if (!urOk) {
    err = "uniform register beyond UR62 (not modelled)";
    return false;
  }
  return true;
}

bool decodeWith(const Form &f, const Word &w, uint8_t urz, Inst &in, std::string &err) {
  Word stray{w[0] & ~f.coveredMask[0], w[1] & ~f.coveredMask[1]};
  if (stray[0] || stray[1]) {
    err = f.syntax + ": unmodelled bits set " + hex128(stray);
    return false;
  }
  in = Inst();
  in.op = f.op;
  in.guard.pred = static_cast<uint8_t>(getField(w, bits(12, 3)));
  in.guard.negate = getField(w, bits(15, 1));
  in.guard.uniform = f.uniformGuard;
  in.ctrl = controlOf(w);
  uint8_t reuse = reuseMaskOf(w);
  // Modifiers first: operand widths may depend on them.
  for (const Elem &e : f.elems) {
    if (e.kind == ElemKind::Opd)
      continue;
    if (e.kind == ElemKind::ModOpd && e.values.empty()) {
      isa::setSlot(in.mods, e.slot, static_cast<uint8_t>(getElemRaw(w, e)));
      continue;
    }
    const ModValue *v = nullptr;
    if (!e.field.valid()) {
      v = e.values.empty() ? nullptr : &e.values[0];
    } else {
      uint64_t raw = getElemRaw(w, e);
      for (const ModValue &mv : e.values)
        if (mv.raw == raw) {
          v = &mv;
          break;
        }
      if (!v) {
        err = f.syntax + ": unknown value " + std::to_string(raw) + " of modifier field " +
              std::string(isa::slotName(e.slot)) + " at bit " + std::to_string(e.field.pos);
        return false;
      }
    }
    if (!v)
      continue;
    if (e.slot != isa::ModSlot::NoSlot)
      isa::setSlot(in.mods, e.slot, v->value);
    if (e.slot2 != isa::ModSlot::NoSlot)
      isa::setSlot(in.mods, e.slot2, v->value2);
  }
  for (const Elem &e : f.elems) {
    if (e.kind != ElemKind::Opd)
      continue;
    Operand o;
    if (!decodeOperand(w, e, in.mods, reuse, urz, o, err)) {
      err = f.syntax + ": " + err;
      return false;
    }
    in.ops.push_back(o);
  }
  return true;
}

} // namespace

DecodeResult decode(const Word &w, Target target) {
  DecodeResult r;
  const FormTable *t = tableFor(target);
  if (!t) {
    r.error = "no encoding table for sm_" + std::to_string(static_cast<unsigned>(target));
    return r;
  }
  std::vector<const Form *> cands = t->candidates(w);
  if (cands.empty()) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "unknown opcode 0x%03llx (word %s)",
                  static_cast<unsigned long long>(w[0] & 0xfff), hex128(w).c_str());
    r.error = buf;
    return r;
  }
  // Most specific forms (most fixed bits) first.
  std::stable_sort(cands.begin(), cands.end(), [](const Form *a, const Form *b) {
    return __builtin_popcountll(a->fixedMask[0]) + __builtin_popcountll(a->fixedMask[1]) >
           __builtin_popcountll(b->fixedMask[0]) + __builtin_popcountll(b->fixedMask[1]);
  });
  std::string errs;
  for (const Form *f : cands) {
    std::string e;
    if (decodeWith(*f, w, t->urzRaw, r.inst, e)) {
      // Only accept what the encoder accepts, so decode(x) always re-encodes.
      EncodeResult back = encode(r.inst, target);
      if (back && back.bits == w)
        return r;
      e = f->syntax + ": decoded instruction does not re-encode (" +
          (back ? std::string("different bits") : back.error) + ")";
    }
    errs += (errs.empty() ? "" : "; ") + e;
  }
  r.error = errs;
  r.inst = Inst();
  return r;
}

std::vector<DecodeResult> decodeSection(const uint8_t *bytes, size_t size, Target target) {
  std::vector<DecodeResult> out;
  for (size_t off = 0; off + 16 <= size; off += 16) {
    Word w{0, 0};
    for (int i = 0; i < 8; ++i) {
      w[0] |= uint64_t(bytes[off + i]) << (8 * i);
      w[1] |= uint64_t(bytes[off + 8 + i]) << (8 * i);
    }
    out.push_back(decode(w, target));
  }
  return out;
}

} // namespace optxas::sass
