// A small evaluator of lowered (pre-allocation) Ori for the integer subset lowering emits, so
// that tests check what a lowered kernel computes, not only which opcodes it uses.
//
// One thread runs the kernel: kernel parameters are read from `params` (c[0x0][0x210 + off]),
// global memory is a byte map (STG/LDG/LD/ST), special registers read as 0 unless given.
// The semantics are the SASS ones as documented by nvdisasm listings of ptxas's own sequences
// (IADD3 carries, IMAD.WIDE/.HI, SHF funnel shifts with clamping, ISETP .EX chains, PRMT, LOP3
// truth tables, ...). Unknown opcodes fail the test.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "optxas/isa/Opcode.h"
#include "optxas/ori/Module.h"

namespace optxas::lower::test {

class OriEval {
public:
  explicit OriEval(const ori::Function &f) : f_(f), regs_(f.numVRegs() * 8 + 8, 0), preds_(f.numVRegs(), false) {}

  std::vector<uint8_t> params;                     // the kernel parameter block
  std::map<uint64_t, uint8_t> memory;              // global memory
  std::map<ori::SpecialReg, uint32_t> sregs;       // special register values (default 0)

  void setParamU64(size_t off, uint64_t v) { put(params, off, v, 8); }
  void setParamU32(size_t off, uint32_t v) { put(params, off, v, 4); }
  uint64_t load(uint64_t addr, unsigned bytes) const {
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i) {
      auto it = memory.find(addr + i);
      v |= static_cast<uint64_t>(it == memory.end() ? 0 : it->second) << (8 * i);
    }
    return v;
  }
  void store(uint64_t addr, uint64_t v, unsigned bytes) {
    for (unsigned i = 0; i < bytes; ++i) memory[addr + i] = static_cast<uint8_t>(v >> (8 * i));
  }

  // Runs from the entry block until EXIT; false (with a test failure) on anything unknown.
  bool run(unsigned maxSteps = 100000) {
    const ori::BasicBlock *bb = f_.entry();
    const ori::Instr *i = bb ? bb->front() : nullptr;
    for (unsigned step = 0; step < maxSteps; ++step) {
      if (!i) {
        // Fall through to the next block in layout.
        auto &blocks = f_.blocks();
        auto it = std::find(blocks.begin(), blocks.end(), bb);
        if (it == blocks.end() || ++it == blocks.end()) {
          ADD_FAILURE() << "fell off the end of the function";
          return false;
        }
        bb = *it;
        i = bb->front();
        continue;
      }
      if (i->isPredicated() && !guard(*i)) {
        i = i->next();
        continue;
      }
      const ori::BasicBlock *target = nullptr;
      bool exit = false;
      if (!exec(*i, target, exit)) return false;
      if (exit) return true;
      if (target) {
        bb = target;
        i = bb->front();
        continue;
      }
      i = i->next();
    }
    ADD_FAILURE() << "step limit reached";
    return false;
  }

private:
  static void put(std::vector<uint8_t> &v, size_t off, uint64_t x, unsigned n) {
    if (v.size() < off + n) v.resize(off + n, 0);
    for (unsigned i = 0; i < n; ++i) v[off + i] = static_cast<uint8_t>(x >> (8 * i));
  }

  uint32_t &word(ori::VRegId r, unsigned i) { return regs_[r * 8 + i]; }

  bool guard(const ori::Instr &i) {
    bool v = preds_[i.guard().reg];
    return i.guard().hasFlag(ori::OpNot) ? !v : v;
  }

  // Word k of a source operand.
  uint32_t get(const ori::Operand &o, unsigned k = 0) {
    uint32_t v = 0;
    switch (o.kind) {
    case ori::OperandKind::Reg: v = word(o.reg, o.subOff + k); break;
    case ori::OperandKind::Zero: v = 0; break;
    case ori::OperandKind::Imm: v = k == 0 ? static_cast<uint32_t>(o.value) : 0; break;
    case ori::OperandKind::CBank: v = cbank(o, k); break;
    default: ADD_FAILURE() << "operand kind " << int(o.kind) << " not handled"; break;
    }
    if (o.hasFlag(ori::OpNeg)) v = 0u - v;
    if (o.hasFlag(ori::OpNot)) v = ~v;
    return v;
  }
  uint64_t get64(const ori::Operand &o) {
    if (o.kind == ori::OperandKind::Zero) return 0;
    return get(o, 0) | (static_cast<uint64_t>(get(o, 1)) << 32);
  }
  bool pred(const ori::Operand &o) {
    bool v = o.kind == ori::OperandKind::True ? true : preds_[o.reg];
    return o.hasFlag(ori::OpNot) ? !v : v;
  }
  void set(const ori::Operand &d, uint32_t v, unsigned k = 0) {
    if (d.kind == ori::OperandKind::Reg) word(d.reg, d.subOff + k) = v;
  }
  void set64(const ori::Operand &d, uint64_t v) {
    set(d, static_cast<uint32_t>(v), 0);
    set(d, static_cast<uint32_t>(v >> 32), 1);
  }
  void setPred(const ori::Operand &d, bool v) {
    if (d.kind == ori::OperandKind::Reg) preds_[d.reg] = v;
  }
  uint32_t cbank(const ori::Operand &o, unsigned k) {
    int64_t off = o.value + 4 * k + (o.reg != ori::kNoVReg ? word(o.reg, o.subOff) : 0);
    if (o.bank == 0 && off >= 0x210) {
      uint64_t v = 0;
      for (unsigned i = 0; i < 4; ++i) {
        size_t p = static_cast<size_t>(off - 0x210 + i);
        v |= static_cast<uint64_t>(p < params.size() ? params[p] : 0) << (8 * i);
      }
      return static_cast<uint32_t>(v);
    }
    return 0;   // driver constants (stack top, descriptor, ...) read as 0
  }
  unsigned widthOf(const ori::Operand &o) const {
    return o.kind == ori::OperandKind::Reg ? (o.subWidth ? o.subWidth : f_.vreg(o.reg).width) : 1;
  }
  uint64_t address(const ori::Operand &a) {
    uint64_t base = 0;
    if (a.reg != ori::kNoVReg) {
      unsigned w = a.subWidth ? a.subWidth : f_.vreg(a.reg).width;
      base = word(a.reg, a.subOff);
      if (w >= 2) base |= static_cast<uint64_t>(word(a.reg, a.subOff + 1)) << 32;
    }
    return base + static_cast<uint64_t>(a.value);
  }
  static unsigned bytesOf(isa::MemType t) {
    switch (t) {
    case isa::MemType::U8: case isa::MemType::S8: return 1;
    case isa::MemType::U16: case isa::MemType::S16: return 2;
    case isa::MemType::B64: return 8;
    case isa::MemType::B128: return 16;
    default: return 4;
    }
  }
  static bool cmp(isa::Cmp c, int64_t a, int64_t b) {
    switch (c) {
    case isa::Cmp::LT: return a < b;
    case isa::Cmp::LE: return a <= b;
    case isa::Cmp::GT: return a > b;
    case isa::Cmp::GE: return a >= b;
    case isa::Cmp::EQ: return a == b;
    case isa::Cmp::NE: return a != b;
    case isa::Cmp::T: return true;
    default: return false;
    }
  }
  static bool combine(isa::BoolOp op, bool a, bool b) {
    switch (op) {
    case isa::BoolOp::OR: return a || b;
    case isa::BoolOp::XOR: return a != b;
    default: return a && b;
    }
  }
  static uint32_t lut3(uint8_t lut, uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i) {
      unsigned idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
      r |= ((lut >> idx) & 1u) << i;
    }
    return r;
  }

  bool exec(const ori::Instr &i, const ori::BasicBlock *&target, bool &exit) {
    using isa::Opcode;
    const isa::Modifiers &m = i.mods();
    auto d0 = [&]() -> const ori::Operand & { return i.def(0); };
    auto u = [&](unsigned k) -> const ori::Operand & { return i.use(k); };
    const bool isSigned = m.intType == isa::IntType::S32 || m.intType == isa::IntType::S64 ||
                          m.intType == isa::IntType::None;
    switch (i.opcode()) {
    case Opcode::LDC: {
      if (u(0).kind == ori::OperandKind::Symbol) return fail(i);
      unsigned w = widthOf(d0());
      uint32_t v = get(u(0));
      if (m.memType == isa::MemType::U8) v &= 0xff;
      else if (m.memType == isa::MemType::S8) v = static_cast<uint32_t>(static_cast<int8_t>(v));
      else if (m.memType == isa::MemType::U16) v &= 0xffff;
      else if (m.memType == isa::MemType::S16) v = static_cast<uint32_t>(static_cast<int16_t>(v));
      set(d0(), v);
      for (unsigned k = 1; k < w; ++k) set(d0(), get(u(0), k), k);
      return true;
    }
    case Opcode::ULDC:
    case Opcode::WARPSYNC:
    case Opcode::BSSY:    // one thread: reconvergence barriers have nothing to wait for
    case Opcode::BSYNC:
    case Opcode::PSEUDO_PARAM:
      return true;
    case Opcode::S2R:
    case Opcode::CS2R: {
      auto it = sregs.find(u(0).specialReg());
      set(d0(), it == sregs.end() ? 0 : it->second);
      if (widthOf(d0()) == 2) set(d0(), 0, 1);
      return true;
    }
    case Opcode::MOV:
    case Opcode::PSEUDO_COPY:
      if (ori::isPredicateClass(d0().cls)) {
        setPred(d0(), pred(u(0)));
        return true;
      }
      for (unsigned k = 0; k < widthOf(d0()); ++k) set(d0(), get(u(0), k), k);
      return true;
    case Opcode::IADD3: {
      uint64_t s = static_cast<uint64_t>(get(u(0))) + get(u(1)) + get(u(2));
      if (m.ex) s += pred(u(3)) ? 1 : 0;
      set(d0(), static_cast<uint32_t>(s));
      // Carry-out: operands negated with '-' count as two's complement (a + ~b + 1).
      if (i.numDefs() > 1) {
        uint64_t t = 0;
        for (unsigned k = 0; k < 3; ++k) {
          const ori::Operand &o = u(k);
          if (o.hasFlag(ori::OpNeg)) {
            ori::Operand p = o;
            p.setFlag(ori::OpNeg, false);
            t += static_cast<uint64_t>(~get(p)) + 1;   // a + ~b + 1 keeps the hardware carry
          } else {
            t += get(o);
          }
        }
        if (m.ex) t += pred(u(3)) ? 1 : 0;
        setPred(i.def(1), (t >> 32) != 0);
      }
      return true;
    }
    case Opcode::IMAD: {
      int64_t a = isSigned && m.intType != isa::IntType::None ? static_cast<int32_t>(get(u(0))) : get(u(0));
      int64_t b = isSigned && m.intType != isa::IntType::None ? static_cast<int32_t>(get(u(1))) : get(u(1));
      if (m.variant == isa::Variant::WIDE || m.variant == isa::Variant::HI) {
        if (m.intType == isa::IntType::U32) {
          a = get(u(0));
          b = get(u(1));
        } else {
          a = static_cast<int32_t>(get(u(0)));
          b = static_cast<int32_t>(get(u(1)));
        }
        uint64_t c = get64(u(2));
        uint64_t r = static_cast<uint64_t>(a) * static_cast<uint64_t>(b) + c;
        if (m.ex) r += pred(u(3)) ? 1 : 0;
        if (m.variant == isa::Variant::WIDE) set64(d0(), r);
        else set(d0(), static_cast<uint32_t>(r >> 32));
        return true;
      }
      uint32_t r = static_cast<uint32_t>(get(u(0)) * get(u(1)) + get(u(2)));
      if (m.ex) r += pred(u(3)) ? 1 : 0;
      set(d0(), r);
      return true;
    }
    case Opcode::LOP3:
      set(d0(), lut3(m.lut, get(u(0)), get(u(1)), get(u(2))));
      return true;
    case Opcode::PLOP3: {
      uint32_t r = lut3(m.lut, pred(u(0)) ? 1 : 0, pred(u(1)) ? 1 : 0, pred(u(2)) ? 1 : 0);
      setPred(d0(), r & 1);
      return true;
    }
    case Opcode::SHF: {
      bool wide = m.intType == isa::IntType::U64 || m.intType == isa::IntType::S64;
      bool sgn = m.intType == isa::IntType::S32 || m.intType == isa::IntType::S64;
      uint32_t n = get(u(1));
      unsigned limit = wide ? 64 : 32;
      n = m.wrap ? (n & (limit - 1)) : std::min<uint32_t>(n, limit);
      uint64_t v = static_cast<uint64_t>(get(u(0))) | (static_cast<uint64_t>(get(u(2))) << 32);
      uint64_t r;
      if (m.shift == isa::ShiftDir::L) r = n >= 64 ? 0 : v << n;
      else if (sgn) r = static_cast<uint64_t>(n >= 64 ? (static_cast<int64_t>(v) >> 63) : (static_cast<int64_t>(v) >> n));
      else r = n >= 64 ? 0 : v >> n;
      set(d0(), static_cast<uint32_t>(m.variant == isa::Variant::HI ? r >> 32 : r));
      return true;
    }
    case Opcode::ISETP: {
      bool uns = m.intType == isa::IntType::U32;
      uint32_t a = get(u(0)), b = get(u(1));
      bool r;
      if (m.ex) {
        bool low = pred(u(3));
        int64_t x = uns ? int64_t(a) : int64_t(int32_t(a)), y = uns ? int64_t(b) : int64_t(int32_t(b));
        if (m.cmp == isa::Cmp::EQ) r = x == y && low;
        else if (m.cmp == isa::Cmp::NE) r = x != y || low;
        else r = (x != y && cmp(m.cmp, x, y)) || (x == y && low);
      } else {
        int64_t x = uns ? int64_t(a) : int64_t(int32_t(a)), y = uns ? int64_t(b) : int64_t(int32_t(b));
        r = cmp(m.cmp, x, y);
      }
      bool chain = pred(u(2));
      setPred(i.def(0), combine(m.boolOp, r, chain));
      setPred(i.def(1), combine(m.boolOp, !r, chain));
      return true;
    }
    case Opcode::SEL:
      set(d0(), pred(u(2)) ? get(u(0)) : get(u(1)));
      return true;
    case Opcode::PRMT: {
      uint64_t bytes = static_cast<uint64_t>(get(u(0))) | (static_cast<uint64_t>(get(u(2))) << 32);
      uint32_t sel = get(u(1)), r = 0;
      for (int k = 0; k < 4; ++k) {
        uint32_t s = (sel >> (4 * k)) & 0xf;
        uint32_t byte = (bytes >> (8 * (s & 7))) & 0xff;
        if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * k);
      }
      set(d0(), r);
      return true;
    }
    case Opcode::FLO: {
      uint32_t a = get(u(0));
      if (m.intType == isa::IntType::S32 && static_cast<int32_t>(a) < 0) a = ~a;
      int idx = -1;
      for (int k = 31; k >= 0; --k)
        if ((a >> k) & 1) {
          idx = k;
          break;
        }
      uint32_t r = idx < 0 ? 0xffffffffu : (m.shiftAmt ? 31 - idx : idx);
      set(d0(), r);
      return true;
    }
    case Opcode::POPC:
      set(d0(), static_cast<uint32_t>(__builtin_popcount(get(u(0)))));
      return true;
    case Opcode::BREV: {
      uint32_t a = get(u(0)), r = 0;
      for (int k = 0; k < 32; ++k) r |= ((a >> k) & 1u) << (31 - k);
      set(d0(), r);
      return true;
    }
    case Opcode::SGXT: {
      uint32_t a = get(u(0)), n = get(u(1));
      n = m.wrap ? (n & 31) : std::min<uint32_t>(n, 32);
      uint32_t r;
      if (n == 0) r = 0;
      else if (n >= 32) r = a;
      else if (m.intType == isa::IntType::U32) r = a & ((1u << n) - 1);
      else r = static_cast<uint32_t>(static_cast<int32_t>(a << (32 - n)) >> (32 - n));
      set(d0(), r);
      return true;
    }
    case Opcode::BMSK: {
      uint32_t pos = get(u(0)), len = get(u(1));
      if (m.wrap) {
        pos &= 31;
        len &= 31;
      }
      uint64_t mask = len >= 32 ? 0xffffffffull : ((1ull << len) - 1);
      uint64_t r = pos >= 32 ? 0 : (mask << pos);
      set(d0(), static_cast<uint32_t>(r));
      return true;
    }
    case Opcode::VIMNMX: {
      bool uns = m.intType == isa::IntType::U32;
      uint32_t a = get(u(0)), b = get(u(1));
      bool lt = uns ? a < b : static_cast<int32_t>(a) < static_cast<int32_t>(b);
      bool isMin = pred(u(2));
      set(d0(), isMin ? (lt ? a : b) : (lt ? b : a));
      return true;
    }
    case Opcode::IABS: {
      int32_t a = static_cast<int32_t>(get(u(0)));
      set(d0(), static_cast<uint32_t>(a < 0 ? -static_cast<int64_t>(a) : a));
      return true;
    }
    case Opcode::LEA:
      set(d0(), (get(u(0)) << get(u(2))) + get(u(1)));
      return true;
    case Opcode::STG:
    case Opcode::ST: {
      uint64_t a = address(u(1));
      unsigned n = bytesOf(m.memType);
      for (unsigned k = 0; k * 4 < n; ++k) store(a + 4 * k, get(u(2), k), std::min(4u, n));
      return true;
    }
    case Opcode::LDG:
    case Opcode::LD: {
      uint64_t a = address(u(1));
      unsigned n = bytesOf(m.memType);
      for (unsigned k = 0; k * 4 < n; ++k) {
        uint32_t v = static_cast<uint32_t>(load(a + 4 * k, std::min(4u, n)));
        if (m.memType == isa::MemType::S8) v = static_cast<uint32_t>(static_cast<int8_t>(v));
        if (m.memType == isa::MemType::S16) v = static_cast<uint32_t>(static_cast<int16_t>(v));
        set(d0(), v, k);
      }
      return true;
    }
    case Opcode::BRA:
      target = u(0).block;
      return true;
    case Opcode::EXIT:
      exit = true;
      return true;
    default:
      return fail(i);
    }
  }

  bool fail(const ori::Instr &i) {
    ADD_FAILURE() << "OriEval: cannot evaluate " << isa::opcodeName(i.opcode());
    return false;
  }

  const ori::Function &f_;
  std::vector<uint32_t> regs_;   // 8 words per vreg
  std::vector<bool> preds_;
};

} // namespace optxas::lower::test
