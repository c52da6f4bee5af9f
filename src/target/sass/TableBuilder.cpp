#include "sass/TableBuilder.h"

namespace optxas::sass::tbl::dsl {

namespace {
// Placeholder markers: an Opd elem with this field position is a srcB/srcC placeholder.
constexpr uint8_t kSrcB = 250, kSrcC = 251;

E concreteSource(const E &ph, unsigned layout, bool isB) {
  // Where b and c live in each layout: 'R' at 32 / 'R' at 64 / imm / cbank / UR.
  char kind;
  int regPos = 32;
  switch (layout) {
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
    e = ph.fmt == ImmFmt::F32 || ph.fmt == ImmFmt::F64Hi || ph.fmt == ImmFmt::F16x2
            ? FImm(bits(32, 32), ph.fmt)
            : Imm(bits(32, 32), ph.fmt);
    break;
  case 'C': e = CBank(aluCBank()); break;
  }
  if (kind != 'I') {
    // Modifier bits follow the operand's position, not its role: the operand in the 32..63
    // slot (R@32, UR, c[][]) is negated/inverted by bit 63 and |abs| by 62; the register at
    // 64..71 by bits 75 and 74.
    bool slot64 = kind == 'R' && regPos == 64;
    int negAt = slot64 ? 75 : 63, absAt = slot64 ? 74 : 62;
    e.negBit = ph.negBit >= 0 ? negAt : -1;
    e.absBit = ph.absBit >= 0 ? absAt : -1;
    e.notBit = ph.notBit >= 0 ? negAt : -1;
    e.Elem::reuse = kind == 'R' ? ph.Elem::reuse : -1;
    e.selField = ph.selField;
    e.selMap = ph.selMap;
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
  for (unsigned layout : layouts) {
    Form f;
    f.op = op;
    setField(f.fixedMask, bits(0, 12), 0xfff);
    setField(f.fixedBits, bits(0, 12), opcode9 | (layout << 9));
    // Bit 91 selects the uniform-register layouts; in the constant-bank layouts it turns
    // c[bank] into cx[URn] instead.
    if (layout != RC && layout != CR) {
      setField(f.fixedMask, bits(91, 1), 1);
      setField(f.fixedBits, bits(91, 1), layout == UR_ || layout == RU);
    }
    for (const E &e : elems) {
      if (e.kind == ElemKind::Opd && e.field.width == 0 && e.field.pos == kSrcB)
        f.elems.push_back(concreteSource(e, layout, true));
      else if (e.kind == ElemKind::Opd && e.field.width == 0 && e.field.pos == kSrcC)
        f.elems.push_back(concreteSource(e, layout, false));
      else
        f.elems.push_back(e);
    }
    f.uniformGuard = isa::hasFlag(op, isa::Uniform);
    f.alias = alias;
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
