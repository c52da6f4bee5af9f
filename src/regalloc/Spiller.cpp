#include <algorithm>
#include "Spiller.h"

#include "optxas/ori/Builder.h"
#include "optxas/ori/Liveness.h"

namespace optxas::regalloc {

using namespace ori;
using isa::Opcode;

namespace {

isa::MemType memTypeFor(unsigned comps) {
  return comps == 4 ? isa::MemType::B128 : comps == 2 ? isa::MemType::B64 : isa::MemType::B32;
}

// Aligned pieces a register of `width` components is moved in: {offset, count}.
std::vector<std::pair<unsigned, unsigned>> pieces(unsigned width) {
  switch (width) {
  case 1: return {{0, 1}};
  case 2: return {{0, 2}};
  case 3: return {{0, 2}, {2, 1}};
  case 4: return {{0, 4}};
  default: {
    std::vector<std::pair<unsigned, unsigned>> out;
    for (unsigned i = 0; i < width; ++i) out.push_back({i, 1});
    return out;
  }
  }
}

Operand part(const Function &f, VRegId r, unsigned off, unsigned n) {
  if (off == 0 && n == f.vreg(r).width) return f.regOp(r);
  return Operand::vregPart(r, f.vreg(r).cls, off, n);
}

// Replaces every mention of `from` in i by `to`; returns {uses it, defines it}.
std::pair<bool, bool> rename(Instr &i, VRegId from, VRegId to) {
  bool used = false, defined = false;
  for (unsigned k = 0; k < i.numDefs(); ++k) {
    Operand &o = i.def(k);
    if (o.refersToVReg() && o.reg == from) {
      o.reg = to;
      // An address or bank index in a def slot is a read.
      if (o.kind == OperandKind::Reg) defined = true; else used = true;
    }
  }
  for (Operand &o : i.uses())
    if (o.refersToVReg() && o.reg == from) {
      o.reg = to;
      used = true;
    }
  if (i.guard().kind == OperandKind::Reg && i.guard().reg == from) {
    Operand g = i.guard();
    g.reg = to;
    i.setGuard(g);
    used = true;
  }
  return {used, defined};
}

// i recomputes its one result from nothing but a constant: it may be repeated anywhere.
bool recomputesConstant(const Instr &i) {
  if (i.isPredicated() || i.numDefs() != 1 || i.numUses() != 1) return false;
  const Operand &d = i.def(0), &u = i.use(0);
  if (!d.isReg() || !d.isWholeReg() || d.flags) return false;
  switch (i.opcode()) {
  case Opcode::LDC: case Opcode::ULDC:
    return u.kind == OperandKind::CBank && u.reg == kNoVReg;
  case Opcode::MOV: case Opcode::UMOV:
    return u.kind == OperandKind::Imm || u.kind == OperandKind::FImm;
  default:
    return false;
  }
}

} // namespace

std::vector<bool> Spiller::rematerializable() const {
  size_t n = f_.numVRegs();
  std::vector<uint32_t> defs(n, 0);
  std::vector<bool> ok(n, false);
  for (BasicBlock *bb : f_.blocks())
    for (Instr *i : *bb)
      for (const Operand &o : i->defs())
        if (o.kind == OperandKind::Reg) {
          if (++defs[o.reg] == 1) ok[o.reg] = recomputesConstant(*i) && f_.vreg(o.reg).phys < 0;
          else ok[o.reg] = false;
        }
  for (VRegId v = 0; v < n; ++v)
    if (isTemp(v)) ok[v] = false;
  return ok;
}

Spiller::Spiller(Function &f, uint32_t areaBase) : f_(f), areaBase_(areaBase), areaEnd_(areaBase) {
  temp_.assign(f.numVRegs(), false);
}

VRegId Spiller::newTemp(RegClass c, unsigned width, unsigned align) {
  VRegId t = f_.newVReg(c, width, align);
  temp_.resize(f_.numVRegs(), false);
  temp_[t] = true;
  return t;
}

VRegId Spiller::stackPointer() {
  if (sp_ != kNoVReg) return sp_;
  for (VRegId r = 0; r < f_.numVRegs(); ++r)
    if (f_.vreg(r).cls == RegClass::R && f_.vreg(r).phys == 1 && f_.vreg(r).width == 1) return sp_ = r;
  sp_ = f_.newVReg(RegClass::R, 1);
  f_.vreg(sp_).phys = 1;
  temp_.resize(f_.numVRegs(), false);
  return sp_;
}

void Spiller::noteStackAdjustments() {
  stackShift_.clear();
  auto isSP = [&](const Operand &o) {
    return o.kind == OperandKind::Reg && o.isWholeReg() && f_.vreg(o.reg).cls == RegClass::R &&
           f_.vreg(o.reg).phys == 1 && f_.vreg(o.reg).width == 1;
  };
  for (BasicBlock *bb : f_.blocks()) {
    int64_t shift = 0;   // the call sequence that moves R1 lies within one block
    for (Instr *i : *bb) {
      if (shift > 0) stackShift_[i] = static_cast<uint32_t>(shift);
      if (i->numDefs() != 1 || !isSP(i->def(0))) continue;
      // IADD3 R1, R1, imm, RZ: a call's stack-argument area opens (imm < 0) or closes.
      if (i->opcode() == Opcode::IADD3 && !i->isPredicated() && i->numUses() >= 2 && isSP(i->use(0)) &&
          i->use(1).kind == OperandKind::Imm)
        shift -= static_cast<int32_t>(static_cast<uint32_t>(i->use(1).value));
      else
        shift = 0;   // R1 set afresh (the kernel's LDC)
    }
  }
}

uint32_t Spiller::stackShiftAt(const Instr *i) const {
  auto it = stackShift_.find(i);
  return it == stackShift_.end() ? 0 : it->second;
}

void Spiller::fillR(Instr *before, VRegId t, uint32_t slot, unsigned width) {
  slot += stackShiftAt(before);
  for (auto [off, n] : pieces(width)) {
    Instr *ld = f_.createInstr(Opcode::PSEUDO_FILL, 1, 1);
    ld->def(0) = part(f_, t, off, n);
    ld->use(0) = Operand::addr(stackPointer(), RegClass::R, slot + 4 * off);
    ld->mods().memType = memTypeFor(n);
    ld->setLoc(before->loc());
    before->parent()->insert(before, ld);
    loadBytes_ += 4 * n;
  }
}

void Spiller::storeR(Instr *after, VRegId t, uint32_t slot, unsigned width) {
  slot += stackShiftAt(after);
  Instr *pos = after->next();
  for (auto [off, n] : pieces(width)) {
    Instr *st = f_.createInstr(Opcode::PSEUDO_SPILL, 0, 2);
    st->use(0) = Operand::addr(stackPointer(), RegClass::R, slot + 4 * off);
    st->use(1) = part(f_, t, off, n);
    st->mods().memType = memTypeFor(n);
    st->setLoc(after->loc());
    after->parent()->insert(pos, st);
    storeBytes_ += 4 * n;
  }
}

// Where a spilled vreg lives between its mentions.
struct Spiller::Home {
  VRegId v = kNoVReg;
  VReg info;               // copied: newVReg may reallocate the table
  uint32_t slot = 0;       // R: byte offset of its slot in the spill area
  VRegId home = kNoVReg;   // P/UR: the R register that holds the value between mentions
  const Instr *remat = nullptr;   // the definition repeated before each use, if rematerialized
};

Spiller::Home Spiller::placeHome(VRegId v, VRegId group) {
  Home h;
  h.v = v;
  h.info = f_.vreg(v);
  const VReg &info = h.info;
  if (info.cls == RegClass::R && group != kNoVReg) {
    auto it = groupSlot_.find(group);
    if (it != groupSlot_.end()) {
      h.slot = it->second;
      return h;
    }
  }
  if (info.cls == RegClass::R) {
    unsigned bytes = 4 * info.width;
    unsigned align = info.width >= 3 ? 16 : bytes;
    areaEnd_ = (areaEnd_ + align - 1) / align * align;
    h.slot = areaEnd_;
    areaEnd_ += bytes;
    areaAlign_ = std::max(areaAlign_, align);
    if (group != kNoVReg) groupSlot_[group] = h.slot;
  } else {
    h.home = f_.newVReg(RegClass::R, info.cls == RegClass::UR ? info.width : 1);
    temp_.resize(f_.numVRegs(), false);
  }
  return h;
}

bool Spiller::spill(const std::vector<VRegId> &vs, const std::function<VRegId(VRegId)> &group) {
  // One walk over the function for the whole batch: an instruction that mentions several
  // spilled vregs gets a fill/store pair for each.
  std::vector<Home> homes;
  std::vector<int> homeOf(f_.numVRegs(), -1);
  std::vector<bool> remat = rematerializable();
  std::vector<const Instr *> rematDef(f_.numVRegs(), nullptr);
  for (BasicBlock *bb : f_.blocks())
    for (Instr *i : *bb)
      if (i->numDefs() == 1 && i->def(0).kind == OperandKind::Reg && remat[i->def(0).reg])
        rematDef[i->def(0).reg] = i;
  for (VRegId v : vs) {
    if (homeOf[v] >= 0) continue;
    if (remat[v] && rematDef[v]) {
      Home h;
      h.v = v;
      h.info = f_.vreg(v);
      h.remat = rematDef[v];
      homeOf[v] = static_cast<int>(homes.size());
      homes.push_back(h);
      continue;
    }
    if (f_.vreg(v).cls == RegClass::UP) return false;
    homeOf[v] = static_cast<int>(homes.size());
    homes.push_back(placeHome(v, group ? group(v) : kNoVReg));
  }
  noteStackAdjustments();
  std::vector<Instr *> deadDefs;
  std::vector<int> mentioned;
  auto note = [&](VRegId r) {
    if (r < homeOf.size() && homeOf[r] >= 0 &&
        std::find(mentioned.begin(), mentioned.end(), homeOf[r]) == mentioned.end())
      mentioned.push_back(homeOf[r]);
  };
  for (BasicBlock *bb : f_.blocks()) {
    for (Instr *i = bb->front(); i;) {
      Instr *next = i->next();
      mentioned.clear();
      Liveness::forEachUse(*i, note);
      Liveness::forEachDef(*i, note);
      for (int k : mentioned) {
        if (!homes[k].remat) rewriteMention(bb, i, next, homes[k]);
        else if (i == homes[k].remat) deadDefs.push_back(i);
        else rewriteRemat(i, homes[k]);
      }
      i = next;
    }
  }
  for (Instr *i : deadDefs) i->eraseFromParent();
  return true;
}

void Spiller::dropSameSlotCopies(const std::vector<Instr *> &copies) {
  for (Instr *c : copies) {
    if (c->opcode() != Opcode::PSEUDO_COPY || c->numDefs() != 1 || c->numUses() != 1 ||
        !c->def(0).isReg() || !c->use(0).isReg() || !c->def(0).isWholeReg() || !c->use(0).isWholeReg())
      continue;
    // Entry copy `t = COPY v` then the piece's stores of t; exit copy: its loads of t then
    // `v = COPY t`.
    const bool entry = isTemp(c->def(0).reg);
    const VRegId t = entry ? c->def(0).reg : c->use(0).reg;
    if (!isTemp(t)) continue;
    auto width = [&](const Operand &o) { return o.isWholeReg() ? f_.vreg(o.reg).width : o.subWidth; };
    std::vector<Instr *> code;
    unsigned comps = 0;
    for (Instr *i = entry ? c->next() : c->prev(); i; i = entry ? i->next() : i->prev()) {
      const bool ok = entry ? i->opcode() == Opcode::PSEUDO_SPILL && i->use(1).refersToVReg() && i->use(1).reg == t
                            : i->opcode() == Opcode::PSEUDO_FILL && i->def(0).refersToVReg() && i->def(0).reg == t;
      if (!ok) break;
      code.push_back(i);
      comps += width(entry ? i->use(1) : i->def(0));
    }
    if (comps != f_.vreg(t).width) continue;   // not the shape spill() made: keep it (still right)
    for (Instr *i : code) {
      (entry ? storeBytes_ : loadBytes_) -= 4 * width(entry ? i->use(1) : i->def(0));
      i->eraseFromParent();
    }
    c->eraseFromParent();
  }
}

// Rematerialization: i reads h.v; a copy of its definition right before i writes a fresh
// temporary that i reads instead.
void Spiller::rewriteRemat(Instr *i, const Home &h) {
  const Instr &def = *h.remat;
  VRegId t = newTemp(h.info.cls, h.info.width, h.info.align);
  rename(*i, h.v, t);
  Instr *c = f_.createInstr(def.opcode(), 1, 1);
  c->def(0) = f_.regOp(t);
  c->use(0) = def.use(0);
  c->mods() = def.mods();
  c->setType(def.type());
  c->setLoc(i->loc());
  i->parent()->insert(i, c);
}

// A value wider than 4 registers (a call's struct argument bundle) is moved one component at a
// time anyway, and an instruction mostly mentions one component of it (a copy of one word into
// the bundle): its temporary covers only the components i mentions, only those it reads are
// loaded and only those it writes stored. Returns false (i untouched) if i mentions h.v other
// than as a register operand.
bool Spiller::rewriteWideMention(Instr *i, const Home &h) {
  const VRegId v = h.v;
  const unsigned width = h.info.width;
  unsigned lo = width, hi = 0;
  bool other = false;
  auto range = [&](const Operand &o) {
    unsigned off = o.isWholeReg() ? 0 : o.subOff, w = o.isWholeReg() ? width : o.subWidth;
    return std::pair<unsigned, unsigned>{off, off + w};
  };
  auto scan = [&](const Operand &o) {
    if (!o.refersToVReg() || o.reg != v) return;
    if (o.kind != OperandKind::Reg) { other = true; return; }
    auto [a, b] = range(o);
    lo = std::min(lo, a);
    hi = std::max(hi, b);
  };
  for (const Operand &o : i->defs()) scan(o);
  for (const Operand &o : i->uses()) scan(o);
  if (i->guard().refersToVReg() && i->guard().reg == v) other = true;
  if (other || lo >= hi) return false;
  std::vector<bool> read(hi - lo, false), written(hi - lo, false);
  VRegId t = newTemp(RegClass::R, hi - lo, h.info.align);
  auto redirect = [&](Operand &o, std::vector<bool> &mark) {
    if (!o.refersToVReg() || o.reg != v) return;
    auto [a, b] = range(o);
    for (unsigned k = a; k < b; ++k) mark[k - lo] = true;
    o = (a == lo && b == hi) ? f_.regOp(t) : Operand::vregPart(t, RegClass::R, a - lo, b - a);
  };
  for (unsigned k = 0; k < i->numDefs(); ++k) redirect(i->def(k), written);
  for (Operand &o : i->uses()) redirect(o, read);
  const uint32_t fillSlot = h.slot + stackShiftAt(i);
  for (unsigned k = 0; k < hi - lo; ++k) {
    if (!read[k]) continue;
    Instr *ld = f_.createInstr(Opcode::PSEUDO_FILL, 1, 1);
    ld->def(0) = part(f_, t, k, 1);
    ld->use(0) = Operand::addr(stackPointer(), RegClass::R, fillSlot + 4 * (lo + k));
    ld->mods().memType = isa::MemType::B32;
    ld->setLoc(i->loc());
    i->parent()->insert(i, ld);
    loadBytes_ += 4;
  }
  Instr *pos = i->next();
  for (unsigned k = 0; k < hi - lo; ++k) {
    if (!written[k]) continue;
    Instr *st = f_.createInstr(Opcode::PSEUDO_SPILL, 0, 2);
    st->use(0) = Operand::addr(stackPointer(), RegClass::R, fillSlot + 4 * (lo + k));
    st->use(1) = part(f_, t, k, 1);
    st->mods().memType = isa::MemType::B32;
    st->setLoc(i->loc());
    i->parent()->insert(pos, st);
    storeBytes_ += 4;
  }
  return true;
}

// Gives instruction i (in bb, followed by next) a fresh temporary for h.v, filled before it when
// read and stored after it when written.
void Spiller::rewriteMention(BasicBlock *bb, Instr *i, Instr *next, const Home &h) {
  const VRegId v = h.v;
  const VReg &info = h.info;
  if (info.cls == RegClass::R && info.width > 4 && !i->isPredicated() && rewriteWideMention(i, h)) return;
  const uint32_t slot = h.slot;
  const VRegId home = h.home;
  VRegId t = newTemp(info.cls, info.width, info.align);
  auto [used, defined] = rename(*i, v, t);
  bool partialDef = defined && !Liveness::kills(f_, *i, t);
  if (used || partialDef) {
    Builder b(f_);
    b.setInsertPoint(i);
    b.setLoc(i->loc());
    switch (info.cls) {
    case RegClass::R: fillR(i, t, slot, info.width); break;
    case RegClass::P: {
      isa::Modifiers m;
      m.cmp = isa::Cmp::NE;
      m.boolOp = isa::BoolOp::AND;
      b.create(Opcode::ISETP, {b.reg(t), Operand::truePred()},
               {b.reg(home), Operand::zero(), Operand::truePred()}, m);
      break;
    }
    case RegClass::UR:
      // One whole copy (PostExpansion makes it R2URs): written piecewise, the temporary
      // would look live from the entry on.
      b.create(Opcode::PSEUDO_COPY, {b.reg(t)}, {b.reg(home)});
      break;
    case RegClass::UP: break;
    }
  }
  if (defined) {
    Builder b(f_);
    if (next) b.setInsertPoint(next); else b.setInsertPoint(bb);
    b.setLoc(i->loc());
    switch (info.cls) {
    case RegClass::R: storeR(i, t, slot, info.width); break;
    case RegClass::P: {
      Operand notT = b.reg(t);
      notT.setFlag(OpNot);
      b.create(Opcode::SEL, {b.reg(home)}, {Operand::zero(), Operand::imm(1), notT});
      break;
    }
    case RegClass::UR:
      b.create(Opcode::PSEUDO_COPY, {b.reg(home)}, {b.reg(t)});
      break;
    case RegClass::UP: break;
    }
  }
}

} // namespace optxas::regalloc
