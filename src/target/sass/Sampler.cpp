// Random instances of every form: the input of the encode oracle test (tests/encoding).
#include "optxas/sass/Sampler.h"

#include "sass/FormTable.h"

#include <random>

namespace optxas::sass {

using namespace tbl;

namespace {

class Gen {
public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  uint64_t bits(unsigned w) {
    uint64_t v = rng_();
    return w >= 64 ? v : v & ((1ull << w) - 1);
  }
  bool coin(unsigned oneIn = 2) { return rng_() % oneIn == 0; }
  unsigned below(unsigned n) { return n ? static_cast<unsigned>(rng_() % n) : 0; }

private:
  std::mt19937_64 rng_;
};

// Canonical entries: the first entry for each raw value.
std::vector<const ModValue *> canonicalValues(const ModMap &m) {
  std::vector<const ModValue *> out;
  for (const ModValue &v : m) {
    bool seen = false;
    for (const ModValue *o : out)
      seen |= o->raw == v.raw;
    if (!seen)
      out.push_back(&v);
  }
  return out;
}

uint8_t gpr(Gen &g, uint8_t width) {
  if (g.coin(8))
    return RZ;
  uint8_t r = static_cast<uint8_t>(g.below(250));
  return static_cast<uint8_t>(r - r % width);
}

Operand sampleOperand(Gen &g, const Elem &e, const isa::Modifiers &m) {
  Operand o;
  bool isPred = e.type == OpdType::Pred || e.type == OpdType::UPred;
  switch (e.type) {
  case OpdType::Gpr:
    o = Operand::r(0, elemWidth(e, m));
    do o.reg = gpr(g, o.width);
    while (e.noZero && o.reg == RZ);
    break;
  case OpdType::UGpr:
    o = Operand::ur(0, elemWidth(e, m));
    o.reg = g.coin(8) && !e.noZero ? URZ : static_cast<uint8_t>(g.below(62) / o.width * o.width);
    break;
  case OpdType::Pred: o = Operand::p(static_cast<uint8_t>(g.below(8))); break;
  case OpdType::UPred: o = Operand::up(static_cast<uint8_t>(g.below(8))); break;
  case OpdType::SReg: o = Operand::sr(static_cast<uint8_t>(g.bits(e.field.width))); break;
  case OpdType::BarReg: o = Operand::b(static_cast<uint8_t>(g.bits(e.field.width))); break;
  case OpdType::Imm:
  case OpdType::FImm:
  case OpdType::Target: {
    unsigned w = e.field.width + e.fieldHi.width;
    bool isSigned = e.immSigned || e.fmt == ImmFmt::SHex || e.type == OpdType::Target;
    uint64_t raw = g.bits(w);
    if (e.type == OpdType::Target)
      raw = g.bits(16) - (1u << 15); // keep branch targets near
    if (g.coin(4) && e.type != OpdType::Target)
      raw = g.bits(w < 8 ? w : 8); // small values are common
    int64_t v = static_cast<int64_t>(raw);
    if (isSigned && w < 64) {
      uint64_t sb = 1ull << (w - 1);
      v = static_cast<int64_t>(((raw & ((1ull << w) - 1)) ^ sb) - sb);
    }
    o.kind = e.type == OpdType::Imm ? OperandKind::Imm
             : e.type == OpdType::FImm ? OperandKind::FImm : OperandKind::Target;
    o.imm = v * (int64_t(1) << e.immShift) + e.immAdd;
    break;
  }
  case OpdType::CBank: {
    const CBankLayout &c = e.cb;
    o.kind = OperandKind::CBank;
    if (c.cxBit >= 0 && g.coin(6)) {
      o.reg = kNoReg;
      o.ureg = static_cast<uint8_t>(g.below(64));
    } else {
      o.reg = static_cast<uint8_t>(g.below(18) % (1u << c.bank.width));
    }
    uint64_t raw = g.coin(2) ? g.bits(c.offset.width) : g.bits(8);
    int64_t v = static_cast<int64_t>(raw);
    if (c.offsetSigned && o.reg != kNoReg) {
      uint64_t sb = 1ull << (c.offset.width - 1);
      v = static_cast<int64_t>((raw ^ sb) - sb);
    }
    o.imm = v * c.offsetScale;
    if (c.sizeAligned) o.imm &= ~int64_t(15);   // aligned for any access size
    if (c.index.valid())
      o.base = gpr(g, 1);
    if (c.urIndex.valid() && o.reg != kNoReg)
      o.ureg = g.coin(8) && !c.urIndexNotZero ? URZ : static_cast<uint8_t>(g.below(63));
    break;
  }
  case OpdType::Mem: {
    const MemLayout &l = e.mem;
    o.kind = OperandKind::Mem;
    o.base64 = l.base64Bit >= 0 ? g.coin() : l.base64Const;
    if (l.base.valid())
      o.base = gpr(g, o.base64 ? 2 : 1);
    if (o.base == RZ && o.base64)
      o.base = 0;
    uint8_t ur = g.coin(8) ? URZ : static_cast<uint8_t>(g.below(63));
    using U = MemLayout::UrUse;
    switch (l.urUse) {
    case U::None: break;
    case U::Add: o.ureg = ur; break;
    case U::Desc: o.desc = ur; break;
    case U::DescIfBit: (g.coin(4) ? o.ureg : o.desc) = ur; break;
    case U::AddIfBit:
      if (g.coin(3))
        o.ureg = ur;
      break;
    }
    if (l.offset.valid()) {
      uint64_t raw = g.coin(3) ? 0 : g.coin() ? g.bits(l.offset.width) : g.bits(10);
      int64_t v = static_cast<int64_t>(raw);
      if (l.offsetSigned) {
        uint64_t sb = 1ull << (l.offset.width - 1);
        v = static_cast<int64_t>((raw ^ sb) - sb);
      }
      o.imm = v;
    }
    if (l.scale.valid() && o.base != RZ)
      o.scale = static_cast<uint8_t>((1u << (g.below(4) + 1)) & ~3u);
    break;
  }
  }
  if (isPred) {
    if ((e.notBit >= 0 || e.negBit >= 0) && g.coin())
      o.negate = true;
  } else {
    o.negate = e.negBit >= 0 && g.coin(3);
    o.invert = e.notBit >= 0 && g.coin(3);
  }
  o.absolute = e.absBit >= 0 && g.coin(3);
  o.reuse = e.reuse >= 0 && g.coin(4);
  if (e.selField.valid()) {
    std::vector<const ModValue *> vs = canonicalValues(e.selMap);
    o.sel = static_cast<SubSel>(vs[g.below(static_cast<unsigned>(vs.size()))]->value);
    if (o.sel == SubSel::H0_H1)
      o.negate = o.absolute = false;
  }
  return o;
}

Control sampleControl(Gen &g) {
  Control c;
  c.stall = static_cast<uint8_t>(g.below(16));
  // nvdisasm rejects stall 0 without yield, and stall >= 12 without yield.
  c.yield = c.stall == 0 || c.stall >= 12 || g.coin(5);
  c.wbar = g.coin(3) ? 7 : static_cast<uint8_t>(g.below(6));
  c.rbar = g.coin(3) ? 7 : static_cast<uint8_t>(g.below(6));
  c.wait = static_cast<uint8_t>(g.bits(6));
  return c;
}

} // namespace

std::vector<Sample> sampleForms(Target target, uint64_t seed, unsigned perForm) {
  std::vector<Sample> out;
  const FormTable *t = tbl::tableFor(target);
  if (!t)
    return out;
  Gen g(seed);
  for (const Form &f : t->forms()) {
    for (unsigned n = 0; n < perForm; ++n) {
      Inst in;
      in.op = f.op;
      // Modifiers: cycle through the values of each field so every value is exercised.
      for (const Elem &e : f.elems) {
        if (e.kind == ElemKind::Opd)
          continue;
        if (e.kind == ElemKind::ModOpd && e.values.empty()) {
          isa::setSlot(in.mods, e.slot, static_cast<uint8_t>(g.bits(e.field.width + e.fieldHi.width)));
          continue;
        }
        std::vector<const ModValue *> vs = canonicalValues(e.values);
        if (vs.empty())
          continue;
        const ModValue *v = vs[(n + g.below(2)) % vs.size()];
        if (e.slot != isa::ModSlot::NoSlot)
          isa::setSlot(in.mods, e.slot, v->value);
        if (e.slot2 != isa::ModSlot::NoSlot)
          isa::setSlot(in.mods, e.slot2, v->value2);
      }
      std::vector<const Elem *> opd;
      for (const Elem &e : f.elems)
        if (e.kind == ElemKind::Opd) {
          opd.push_back(&e);
          in.ops.push_back(sampleOperand(g, e, in.mods));
        }
      // Operands that share one field are the same operand printed twice.
      for (size_t i = 0; i < opd.size(); ++i)
        for (size_t j = i + 1; j < opd.size(); ++j)
          if (opd[i]->type == opd[j]->type && opd[i]->field.valid() &&
              opd[i]->field.pos == opd[j]->field.pos)
            in.ops[j] = in.ops[i];
      in.guard.pred = g.coin(2) ? PT : static_cast<uint8_t>(g.below(8));
      in.guard.negate = g.coin(4);
      in.guard.uniform = f.uniformGuard;
      in.ctrl = sampleControl(g);
      if (!f.allowWbar)
        in.ctrl.wbar = 7;
      if (!f.allowRbar)
        in.ctrl.rbar = 7;
      if (!f.allowWait)
        in.ctrl.wait = 0;
      if (in.ctrl.yield)
        for (Operand &o : in.ops)
          o.reuse = false;
      out.push_back({in, f.syntax});
    }
  }
  return out;
}

} // namespace optxas::sass
