#include "sass/TableBuilder.h"

namespace optxas::sass::tbl::dsl {

namespace {
// Placeholder markers: an Opd elem with this field position is a srcB/srcC placeholder.
constexpr uint8_t kSrcB = 250, kSrcC = 251, kSrc2 = 252;

// The modifier bits of each operand position, taken from the placeholders of a form: srcB()
// declares those of the 32..63 slot, srcC() those of the register at 64 (default 63/62, 75/74).
struct SlotBits {
  int neg32 = 63, abs32 = 62, neg64 = 75, abs64 = 74;
  // Sub-register selectors follow the position too (HFMA2: 60..61 for the 32 slot, 81..82 for
  // the register at 64).
  const E *sel32 = nullptr, *sel64 = nullptr;
};

// Rewrites an elem for the uniform datapath: R -> UR, P -> UP, no reuse.
Elem toUniform(Elem e) {
  if (e.kind != ElemKind::Opd)
    return e;
  if (e.type == OpdType::Gpr) {
    e.type = OpdType::UGpr;
    e.field.width = 6;
    if (e.dflt.kind == OperandKind::Reg)
      e.dflt = Operand::ur(e.dflt.reg == RZ ? URZ : e.dflt.reg);
  } else if (e.type == OpdType::Pred) {
    e.type = OpdType::UPred;
    if (e.dflt.kind == OperandKind::Pred)
      e.dflt = Operand::up(e.dflt.reg, e.dflt.negate);
  }
  e.reuse = -1;
  return e;
}

E concreteSource(const E &ph, unsigned layout, bool isB, const SlotBits &sb, bool two = false) {
  // Where b and c live in each layout: 'R' at 32 / 'R' at 64 / imm / cbank / UR.
  char kind;
  int regPos = 32;
  if (two) {
    // c-style second source: always in the 32..63 slot
    kind = layout == RR ? 'R' : layout == RI ? 'I' : layout == RC ? 'C' : 'U';
    regPos = 32;
    isB = true;
  } else switch (layout) {
  case RR: kind = 'R'; regPos = isB ? 32 : 64; break;
  case RI: kind = isB ? 'R' : 'I'; regPos = 64; break;
  case RC: kind = isB ? 'R' : 'C'; regPos = 64; break;
  case IR: kind = isB ? 'I' : 'R'; regPos = 64; break;
  case CR: kind = isB ? 'C' : 'R'; regPos = 64; break;
  case UR_: kind = isB ? 'U' : 'R'; regPos = 64; break;
  case RU: kind = isB ? 'R' : 'U'; regPos = 64; break;
  default: kind = 'R'; break;
  }
  E e;
  switch (kind) {
  case 'R': e = R(regPos); break;
  case 'U': e = UR(32); break;
  case 'I':
    e = ph.fmt == ImmFmt::H1 ? FImm(bits(32, 16), ph.fmt)
        : ph.fmt == ImmFmt::F32 || ph.fmt == ImmFmt::F64Hi || ph.fmt == ImmFmt::F16x2
            ? FImm(bits(32, 32), ph.fmt)
            : Imm(bits(32, 32), ph.fmt);
    break;
  case 'C':
    e = CBank(aluCBank());
    e.cb.spaced = ph.cb.spaced;
    break;
  }
  if (kind != 'I') {
    // Modifier bits follow the operand's position, not its role: the operand in the 32..63
    // slot (R@32, UR, c[][]) is negated/inverted by bit 63 and |abs| by 62; the register at
    // 64..71 by bits 75 and 74.
    bool slot64 = kind == 'R' && regPos == 64;
    int negAt = slot64 ? sb.neg64 : sb.neg32, absAt = slot64 ? sb.abs64 : sb.abs32;
    e.negBit = ph.negBit >= 0 ? negAt : -1;
    e.absBit = ph.absBit >= 0 ? absAt : -1;
    e.notBit = ph.notBit >= 0 ? negAt : -1;
    e.Elem::reuse = kind == 'R' ? ph.Elem::reuse : -1;
    if (ph.selField.valid()) {
      const E *src = slot64 ? sb.sel64 : sb.sel32;
      if (!src)
        src = &ph;
      e.selField = src->selField;
      e.selFieldHi = src->selFieldHi;
      e.selMap = src->selMap;
    }
  }
  if (kind == 'C' || kind == 'U') {
    // cbank and UR sources cannot use the reuse cache.
  }
  e.width = ph.width;
  e.widthSlot = ph.widthSlot;
  e.Elem::def = false;
  return e;
}
} // namespace

E srcB(ImmFmt fm) {
  E e = opd(OpdType::Gpr, bits(kSrcB, 0));
  e.fmt = fm;
  return e;
}
E srcC(ImmFmt fm) {
  E e = opd(OpdType::Gpr, bits(kSrcC, 0));
  e.fmt = fm;
  return e;
}
E src2(ImmFmt fm) {
  E e = opd(OpdType::Gpr, bits(kSrc2, 0));
  e.fmt = fm;
  return e;
}

Form &Builder::form(Op op, unsigned opcode12, const std::vector<E> &elems) {
  Form f;
  f.op = op;
  setField(f.fixedMask, bits(0, 12), 0xfff);
  setField(f.fixedBits, bits(0, 12), opcode12);
  for (const E &e : elems)
    f.elems.push_back(e);
  f.uniformGuard = isa::hasFlag(op, isa::Uniform);
  lastBegin_ = t_.forms().size();
  return t_.add(std::move(f));
}

void Builder::alu(Op op, unsigned opcode9, const std::vector<unsigned> &layouts,
                  const std::vector<E> &elems, AliasFn alias,
                  std::initializer_list<std::string_view> aliasTokens) {
  size_t begin = t_.forms().size();
  bool uniform = twins_ != nullptr;
  if (uniform) {
    const UniformTwin *tw = nullptr;
    for (const UniformTwin &t : *twins_)
      if (t.op == op)
        tw = &t;
    lastBegin_ = begin;
    if (!tw)
      return;
    op = tw->uop;
    opcode9 = tw->opcode9 ? tw->opcode9 : opcode9 | 0x080;
  }
  SlotBits sb;
  for (const E &e : elems)
    if (e.kind == ElemKind::Opd && e.field.width == 0 &&
        (e.field.pos == kSrcB || e.field.pos == kSrcC || e.field.pos == kSrc2)) {
      bool b = e.field.pos != kSrcC;
      int neg = e.negBit >= 0 ? e.negBit : e.notBit;
      if (neg >= 0)
        (b ? sb.neg32 : sb.neg64) = neg;
      if (e.absBit >= 0)
        (b ? sb.abs32 : sb.abs64) = e.absBit;
      if (e.selField.valid())
        (b ? sb.sel32 : sb.sel64) = &e;
    }
  for (unsigned layout : layouts) {
    if (uniform && layout != RR && layout != IR && layout != RI)
      continue;
    Form f;
    f.op = op;
    setField(f.fixedMask, bits(0, 12), 0xfff);
    setField(f.fixedBits, bits(0, 12), opcode9 | (layout << 9));
    // Bit 91 selects the uniform-register layouts; in the constant-bank layouts it turns
    // c[bank] into cx[URn] instead.
    if (layout != RC && layout != CR) {
      setField(f.fixedMask, bits(91, 1), 1);
      setField(f.fixedBits, bits(91, 1), uniform || layout == UR_ || layout == RU);
    }
    for (const E &e : elems) {
      if (e.kind == ElemKind::Opd && e.field.width == 0 && e.field.pos == kSrcB)
        f.elems.push_back(concreteSource(e, layout, true, sb));
      else if (e.kind == ElemKind::Opd && e.field.width == 0 && e.field.pos == kSrcC)
        f.elems.push_back(concreteSource(e, layout, false, sb));
      else if (e.kind == ElemKind::Opd && e.field.width == 0 && e.field.pos == kSrc2)
        f.elems.push_back(concreteSource(e, layout, true, sb, true));
      else
        f.elems.push_back(e);
    }
    if (uniform)
      for (Elem &e : f.elems)
        e = toUniform(e);
    f.uniformGuard = isa::hasFlag(op, isa::Uniform);
    f.alias = uniform ? nullptr : alias;
    if (!uniform)
      f.aliasTokens.assign(aliasTokens.begin(), aliasTokens.end());
    t_.add(std::move(f));
  }
  lastBegin_ = begin;
}

void Builder::fix(Field f, uint64_t value) {
  for (size_t i = lastBegin_; i < t_.forms().size(); ++i) {
    Form &fm = t_.formAt(i);
    setField(fm.fixedMask, f, ~0ull);
    setField(fm.fixedBits, f, value);
  }
}

void Builder::fixLast(Field f, uint64_t value) {
  Form &fm = t_.formAt(t_.forms().size() - 1);
  setField(fm.fixedMask, f, ~0ull);
  setField(fm.fixedBits, f, value);
}

void Builder::scoreboards(bool wbar, bool rbar) {
  for (size_t i = lastBegin_; i < t_.forms().size(); ++i) {
    t_.formAt(i).allowWbar = wbar;
    t_.formAt(i).allowRbar = rbar;
  }
}

void Builder::scoreboardsOf(Op op, bool wbar, bool rbar) {
  for (size_t i = 0; i < t_.forms().size(); ++i)
    if (t_.forms()[i].op == op) {
      t_.formAt(i).allowWbar = wbar;
      t_.formAt(i).allowRbar = rbar;
    }
}

void Builder::uniformGuard() {
  for (size_t i = lastBegin_; i < t_.forms().size(); ++i)
    t_.formAt(i).uniformGuard = true;
}

} // namespace optxas::sass::tbl::dsl
