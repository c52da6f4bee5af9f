// Memory instructions: LDG/STG/LD/ST (global, generic), LDS/STS/ATOMS (shared), LDL/STL
// (local), LDC/ULDC (constant banks), ATOMG/ATOM/REDG (atomics and reductions). Every access
// is bounds- and alignment-checked through the shared memory model; a bad one is a fault.
#include <cstring>

#include <fmt/format.h>

#include "LaunchState.h"
#include "optxas/sim/Float.h"

namespace optxas::sim::sasssim {

using isa::AtomOp;
using isa::AtomType;
using isa::MemType;
using isa::Opcode;
using sass::Operand;
using sass::OperandKind;

namespace {

unsigned accessSize(MemType t) {
  switch (t) {
  case MemType::U8: case MemType::S8: return 1;
  case MemType::U16: case MemType::S16: return 2;
  case MemType::B64: return 8;
  case MemType::B128: return 16;
  default: return 4;
  }
}

unsigned atomSize(AtomType t) {
  switch (t) {
  case AtomType::U64: case AtomType::S64: case AtomType::B64: case AtomType::F64:
  case AtomType::F32x2: return 8;
  case AtomType::B128: return 16;
  default: return 4;
  }
}

size_t indexOf(const sass::Inst &in, OperandKind k) {
  for (size_t i = 0; i < in.ops.size(); ++i)
    if (in.ops[i].kind == k) return i;
  return in.ops.size();
}

bool isTruePred(const Operand &o) {
  return o.kind == OperandKind::Pred && o.reg == sass::PT && !o.negate;
}

// Which state space an instruction addresses, and whether its base register is 64-bit.
Space spaceOf(Opcode op) {
  switch (op) {
  case Opcode::LDG: case Opcode::STG: case Opcode::ATOMG: case Opcode::REDG: return Space::Global;
  case Opcode::LDS: case Opcode::STS: case Opcode::ATOMS: return Space::Shared;
  case Opcode::LDL: case Opcode::STL: return Space::Local;
  default: return Space::Generic;
  }
}

class Mem {
public:
  Mem(Exec &e) : e_(e), space_(spaceOf(e.in.op)) {}

  uint64_t address(const Operand &m, unsigned lane) {
    bool wide = space_ == Space::Global || space_ == Space::Generic;
    uint64_t a = 0;
    if (m.base != sass::kNoBase && m.base != sass::RZ) {
      if (wide) a = e_.gpr64(m.base, lane);
      else a = e_.gpr(m.base, lane);
      if (m.scale) a *= m.scale;
    }
    if (m.ureg != sass::kNoReg && m.ureg != sass::URZ)
      a += wide ? e_.ureg64(m.ureg) : e_.ureg(m.ureg);
    a += uint64_t(m.imm);
    return wide ? a : uint32_t(a);
  }

  // Host pointer to `size` bytes, or null after reporting the fault.
  uint8_t *resolve(uint64_t addr, unsigned size, bool write, unsigned lane) {
    Space sp = space_;
    uint64_t off = addr;
    const AddressMap &map = e_.ls.opts.map;
    if (sp == Space::Generic) {
      if (map.inShared(addr)) {
        sp = Space::Shared;
        off = addr - map.sharedWindow;
      } else if (map.inLocal(addr)) {
        sp = Space::Local;
        off = addr - map.localWindow;
      } else {
        sp = Space::Global;
      }
    }
    if (!aligned(off, size)) {
      e_.fault(FaultKind::Misaligned, "", sp, addr, size, lane);
      return nullptr;
    }
    uint8_t *p = nullptr;
    FaultKind why = FaultKind::OutOfBounds;
    switch (sp) {
    case Space::Global: p = e_.ls.mem.resolve(off, size, write, why); break;
    case Space::Shared: p = ByteSpace{e_.cta.shared.data(), e_.cta.shared.size()}.resolve(off, size); break;
    case Space::Local:
      p = ByteSpace{e_.ls.localOf(e_.cta, e_.w, lane), e_.ls.localBytes}.resolve(off, size);
      break;
    default: break;
    }
    if (!p) e_.fault(why, "", sp, addr, size, lane);
    return p;
  }

private:
  Exec &e_;
  Space space_;
};

uint32_t extend(uint64_t raw, MemType t) {
  switch (t) {
  case MemType::U8: return uint8_t(raw);
  case MemType::S8: return uint32_t(int32_t(int8_t(raw)));
  case MemType::U16: return uint16_t(raw);
  case MemType::S16: return uint32_t(int32_t(int16_t(raw)));
  default: return uint32_t(raw);
  }
}

bool load(Exec &e) {
  const sass::Inst &in = e.in;
  size_t mi = indexOf(in, OperandKind::Mem);
  if (mi == in.ops.size() || mi == 0) return false;
  const Operand &m = in.ops[mi], &dst = in.ops[mi - 1];
  // Optional predicates around LDG/LD: only their defaults are modelled.
  if (mi + 1 < in.ops.size() && !isTruePred(in.ops[mi + 1])) {
    e.unsupported("load with a predicate operand");
    return true;
  }
  if (mi >= 2 && in.ops[0].kind == OperandKind::Pred && in.ops[0].reg != sass::PT) {
    e.unsupported("load with a predicate result");
    return true;
  }
  unsigned size = accessSize(in.mods.memType);
  Mem mem(e);
  e.forLanes([&](unsigned l) {
    if (e.faulted()) return;
    uint64_t a = mem.address(m, l);
    uint8_t *p = mem.resolve(a, size, false, l);
    if (!p) return;
    if (size <= 4) {
      uint32_t v = 0;
      std::memcpy(&v, p, size);
      e.setDst(dst, l, extend(v, in.mods.memType));
    } else {
      for (unsigned k = 0; k < size / 4; ++k) {
        uint32_t v;
        std::memcpy(&v, p + 4 * k, 4);
        e.setR(dst.reg + k, l, v);
      }
    }
  });
  return true;
}

bool store(Exec &e) {
  const sass::Inst &in = e.in;
  size_t mi = indexOf(in, OperandKind::Mem);
  if (mi + 1 >= in.ops.size()) return false;
  const Operand &m = in.ops[mi], &data = in.ops[mi + 1];
  unsigned size = accessSize(in.mods.memType);
  Mem mem(e);
  e.forLanes([&](unsigned l) {
    if (e.faulted()) return;
    uint64_t a = mem.address(m, l);
    uint8_t buf[16];
    for (unsigned k = 0; k < (size + 3) / 4; ++k) {
      uint32_t v = e.gpr(data.reg + k, l);
      std::memcpy(buf + 4 * k, &v, 4);
    }
    uint8_t *p = mem.resolve(a, size, true, l);
    if (p) std::memcpy(p, buf, size);
  });
  return true;
}

bool loadConstant(Exec &e) {
  const sass::Inst &in = e.in;
  const Operand &dst = in.ops[0], &cb = in.ops[1];
  unsigned size = accessSize(in.mods.memType);
  e.forLanes([&](unsigned l) {
    uint64_t v = e.cbank(cb, l, size);
    if (size == 8) e.setDst64(dst, l, v);
    else e.setDst(dst, l, extend(v, in.mods.memType));
  });
  return true;
}

// The new memory value of an atomic, given the old one and the operands.
uint64_t atomicApply(AtomOp op, AtomType t, uint64_t old, uint64_t b, uint64_t c, bool shared) {
  bool s = t == AtomType::S32 || t == AtomType::S64;
  bool is64 = atomSize(t) == 8;
  auto sx = [&](uint64_t v) { return is64 ? int64_t(v) : int64_t(int32_t(uint32_t(v))); };
  auto zx = [&](uint64_t v) { return is64 ? v : uint64_t(uint32_t(v)); };
  switch (t) {
  case AtomType::F32: {
    uint32_t a = uint32_t(old), x = uint32_t(b);
    // Global f32 atomics flush subnormals (.FTZ); shared ones (CAS loops) do not reach here.
    fp::FOpts o;
    o.ftz = !shared;
    if (op == AtomOp::ADD) return fp::addF32(a, x, o);
    if (op == AtomOp::MIN) return fp::minF32(a, x, {o.ftz});
    if (op == AtomOp::MAX) return fp::maxF32(a, x, {o.ftz});
    return old;
  }
  case AtomType::F32x2: {
    // ATOMG/REDG.E.ADD.F32x2.FTZ.RN: two independent f32 additions on a 64-bit pair.
    if (op != AtomOp::ADD) return old;
    fp::FOpts o;
    o.ftz = true;
    uint64_t lo = fp::addF32(uint32_t(old), uint32_t(b), o);
    uint64_t hi = fp::addF32(uint32_t(old >> 32), uint32_t(b >> 32), o);
    return (hi << 32) | (lo & 0xffffffffu);
  }
  case AtomType::F64:
    if (op == AtomOp::ADD) return fp::addF64(old, b, fp::Round::RN);
    if (op == AtomOp::MIN) return fp::minF64(old, b);
    if (op == AtomOp::MAX) return fp::maxF64(old, b);
    return old;
  case AtomType::F16x2: case AtomType::BF16x2: {
    fp::Half h = t == AtomType::F16x2 ? fp::Half::F16 : fp::Half::BF16;
    uint32_t r = 0;
    for (unsigned i = 0; i < 2; ++i) {
      uint16_t a = uint16_t(old >> (16 * i)), x = uint16_t(b >> (16 * i)), v = a;
      if (op == AtomOp::ADD) v = fp::addHalf(h, a, x, {});
      else if (op == AtomOp::MIN) v = fp::minHalf(h, a, x, {});
      else if (op == AtomOp::MAX) v = fp::maxHalf(h, a, x, {});
      r |= uint32_t(v) << (16 * i);
    }
    return r;
  }
  default: break;
  }
  switch (op) {
  case AtomOp::ADD: case AtomOp::SAFEADD: return zx(old + b);
  case AtomOp::MIN: return s ? zx(uint64_t(std::min(sx(old), sx(b)))) : std::min(zx(old), zx(b));
  case AtomOp::MAX: return s ? zx(uint64_t(std::max(sx(old), sx(b)))) : std::max(zx(old), zx(b));
  case AtomOp::INC: return zx(old) >= zx(b) ? 0 : zx(old + 1);
  case AtomOp::DEC: return (zx(old) == 0 || zx(old) > zx(b)) ? zx(b) : zx(old - 1);
  case AtomOp::AND: return old & b;
  case AtomOp::OR: return zx(old | b);
  case AtomOp::XOR: return zx(old ^ b);
  case AtomOp::EXCH: return zx(b);
  case AtomOp::CAS: return zx(old) == zx(b) ? zx(c) : zx(old);
  default: return old;
  }
}

// ATOMS.POPC.INC.32 RZ, [a]: each active lane adds 1 to the u32 at its address (what the hardware's
// per-address population count amounts to). Its result register is not modelled.
bool popcInc(Exec &e, size_t mi) {
  const auto &ops = e.in.ops;
  if (mi == 0 || ops[mi - 1].kind != OperandKind::Reg || ops[mi - 1].reg != sass::RZ) {
    e.unsupported("ATOMS.POPC.INC with a result register not modelled");
    return true;
  }
  Mem mem(e);
  e.forLanes([&](unsigned l) {
    if (e.faulted()) return;
    uint8_t *p = mem.resolve(mem.address(ops[mi], l), 4, true, l);
    if (!p) return;
    uint32_t v;
    std::memcpy(&v, p, 4);
    ++v;
    std::memcpy(p, &v, 4);
  });
  return true;
}

bool atomic(Exec &e) {
  const sass::Inst &in = e.in;
  const auto &ops = in.ops;
  size_t mi = indexOf(in, OperandKind::Mem);
  if (mi < ops.size() && in.mods.atom == AtomOp::POPC_INC) return popcInc(e, mi);
  if (mi == ops.size() || mi + 1 >= ops.size()) return false;
  AtomOp op = in.mods.atom;
  AtomType t = in.mods.atomType;
  if (t == AtomType::B128) {
    e.unsupported("atomic flavour not modelled");
    return true;
  }
  bool hasResult = in.op != Opcode::REDG && in.op != Opcode::RED;
  const Operand *dst = hasResult ? &ops[mi - 1] : nullptr;
  const Operand &b = ops[mi + 1];
  const Operand *c = mi + 2 < ops.size() && ops[mi + 2].kind == OperandKind::Reg ? &ops[mi + 2]
                                                                                 : nullptr;
  unsigned size = atomSize(t);
  bool shared = in.op == Opcode::ATOMS;
  // CAST.SPIN reads compare and new as one aligned register pair (quad for .64), whatever its
  // second register field says: ptxas never encodes anything else, and on an H200 our R7/R8
  // (misaligned) lost updates. Refuse other allocations rather than model them.
  if (op == AtomOp::CAST_SPIN && c) {
    unsigned words = size / 4;
    if (b.reg % (2 * words) != 0 || c->reg != b.reg + words) {
      e.unsupported("ATOMS.CAST.SPIN needs compare and new in one aligned register pair (quad for .64)");
      return true;
    }
  }
  Mem mem(e);
  e.forLanes([&](unsigned l) {
    if (e.faulted()) return;
    uint64_t a = mem.address(ops[mi], l);
    uint64_t bv = size == 8 ? e.gpr64(b.reg, l) : e.gpr(b.reg, l);
    uint64_t cv = c ? (size == 8 ? e.gpr64(c->reg, l) : e.gpr(c->reg, l)) : 0;
    uint8_t *p = mem.resolve(a, size, true, l);
    if (!p) return;
    uint64_t old = 0;
    std::memcpy(&old, p, size);
    if (op == AtomOp::CAST_SPIN) {
      // CAST.SPIN d, [a], cmp, new: store new if memory still holds cmp; d = 1 when stored.
      bool stored = old == bv;
      if (stored) std::memcpy(p, &cv, size);
      if (dst) {
        if (size == 8) e.setDst64(*dst, l, stored ? 1 : 0);
        else e.setDst(*dst, l, stored ? 1 : 0);
      }
      return;
    }
    uint64_t nv = atomicApply(op, t, old, bv, cv, shared);
    std::memcpy(p, &nv, size);
    if (dst) {
      if (size == 8) e.setDst64(*dst, l, old);
      else e.setDst(*dst, l, uint32_t(old));
    }
  });
  // The predicate result of ATOMG/ATOM (Pd) is written as true.
  if (hasResult && ops[0].kind == OperandKind::Pred)
    e.forLanes([&](unsigned l) { e.setDst(ops[0], l, 1); });
  return true;
}

// QSPC.E.{S|D} Pd, Rd, [Ra+imm]: is the generic address in the shared window (a cluster is one
// CTA, so distributed shared memory is this CTA's shared memory).
bool querySpace(Exec &e) {
  const Operand *m = nullptr;
  for (const Operand &o : e.in.ops)
    if (o.kind == OperandKind::Mem) m = &o;
  if (!m) return false;
  const Operand &pd = e.defOf(OperandKind::Pred), &rd = e.defOf(OperandKind::Reg);
  e.forLanes([&](unsigned l) {
    uint64_t a = e.gpr64(m->base, l) + uint64_t(m->imm);
    bool in = e.ls.opts.map.inShared(a);
    e.setDst(pd, l, in);
    e.setDst(rd, l, in ? uint32_t(a - e.ls.opts.map.sharedWindow) : 0);
  });
  return true;
}

// LDGSTS [Rs+imm], desc[UR][Ra.64+imm] {, P}: cp.async — copies global to shared memory. With
// timing, the copy lands only when its group is waited for (LDGDEPBAR closes a group on its write
// scoreboard; DEPBAR.LE SB0, n or a wait on that scoreboard lands it), so a read of shared memory
// that the control bits do not order after the copy sees the old bytes, as it can on the GPU.
bool asyncCopy(Exec &e) {
  const bool defer = e.ls.opts.timing;
  const sass::Inst &in = e.in;
  const Operand *shared = nullptr, *global = nullptr, *p = nullptr;
  for (const Operand &o : in.ops) {
    if (o.kind == OperandKind::Mem) (shared ? global : shared) = &o;
    if (o.kind == OperandKind::Pred) p = &o;
  }
  if (!shared || !global) return false;
  unsigned size = accessSize(in.mods.memType);
  e.forLanes([&](unsigned l) {
    if (e.faulted()) return;
    uint8_t buf[16] = {};
    bool copy = !p || e.psrc(*p, l);
    if (!copy && !in.mods.zfill) return;
    if (copy) {
      uint64_t ga = e.gpr64(global->base, l) + uint64_t(global->imm);
      if (global->ureg != sass::kNoReg && global->ureg != sass::URZ) ga += e.ureg64(global->ureg);
      FaultKind why = FaultKind::OutOfBounds;
      if (!aligned(ga, size)) {
        e.fault(FaultKind::Misaligned, "", Space::Global, ga, size, l);
        return;
      }
      const uint8_t *src = e.ls.mem.resolve(ga, size, false, why);
      if (!src) {
        e.fault(why, "", Space::Global, ga, size, l);
        return;
      }
      std::memcpy(buf, src, size);
    }
    uint64_t sa = uint32_t(e.gpr(shared->base, l) + uint32_t(shared->imm));
    uint8_t *dst = aligned(sa, size)
                       ? ByteSpace{e.cta.shared.data(), e.cta.shared.size()}.resolve(sa, size)
                       : nullptr;
    if (!dst) {
      e.fault(aligned(sa, size) ? FaultKind::OutOfBounds : FaultKind::Misaligned, "",
              Space::Shared, sa, size, l);
      return;
    }
    if (defer) {
      AsyncCopy c;
      c.sharedAddr = uint32_t(sa);
      c.size = uint8_t(size);
      std::memcpy(c.data.data(), buf, size);
      e.w.openCopies.push_back(c);
      return;
    }
    std::memcpy(dst, buf, size);
  });
  return true;
}

// LDGDEPBAR commits the open copies as a group, counted on its write scoreboard; DEPBAR.LE SB0, n
// lands all but the newest n groups counted on SB0. A group LDGDEPBAR counted on no scoreboard
// is never waited for (on the GPU, the DEPBAR does not wait for it).
bool asyncCopyBarrier(Exec &e) {
  if (e.in.op == Opcode::LDGDEPBAR) {
    if (e.w.openCopies.empty() && e.in.ctrl.wbar == kNoSb) return true;
    e.w.copyGroups.push_back({e.in.ctrl.wbar, std::move(e.w.openCopies)});
    e.w.openCopies.clear();
    return true;
  }
  for (const Operand &o : e.in.ops)
    if (o.kind == OperandKind::Imm) {
      e.landCopies(size_t(o.imm), 0);
      return true;
    }
  e.landCopies(0, 0);
  return true;
}

} // namespace

bool execMemory(Exec &e) {
  switch (e.in.op) {
  case Opcode::LDG: case Opcode::LDS: case Opcode::LDL: case Opcode::LD: return load(e);
  case Opcode::STG: case Opcode::STS: case Opcode::STL: case Opcode::ST: return store(e);
  case Opcode::LDC: case Opcode::ULDC: return loadConstant(e);
  case Opcode::ATOMG: case Opcode::ATOM: case Opcode::ATOMS: case Opcode::REDG: case Opcode::RED:
    return atomic(e);
  case Opcode::QSPC: return querySpace(e);
  case Opcode::LDGSTS: return asyncCopy(e);
  case Opcode::CCTL: case Opcode::MEMBAR: case Opcode::FENCE: case Opcode::ERRBAR:
  case Opcode::LDGDEPBAR: case Opcode::DEPBAR: return asyncCopyBarrier(e);
  case Opcode::CGAERRBAR: case Opcode::ACQBULK:
    return true;   // no caches or reordering are modelled
  default: return false;
  }
}

} // namespace optxas::sim::sasssim
