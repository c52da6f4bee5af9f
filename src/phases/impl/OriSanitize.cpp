// Phase 13, OriSanitize: device instrumentation for memory checking (knob OptxasSanitize, off by
// default). Every global, shared and local load, store and atomic gets an inline check before
// it (calls are not used, so the instrumented code needs no ABI support); the runtime contract,
// the allocation table and the report buffer, is include/optxas/sanitizer/Runtime.h.
//
//   global  [a, a+size) must lie inside one entry of the allocation table: a uniform loop over
//           the table (every lane runs max(count, 1) iterations, so the warp stays converged)
//           sets `ok` when an entry holds the access
//   shared  (a & 0xffffff) + size <= SR_SMEMSZ   (the offset in the CTA's shared window)
//   local   a + size <= c[0x0][0x28]              (the top of the thread's stack)
//
// A thread whose access fails the check (and whose guard, if any, holds) claims the report with
// an atomic exchange; the first one records its address, access kind, size, check site, thread,
// block and PTX line. Then, by mode:
//   memcheck     the thread traps (BPT.TRAP) before the access: the kernel stops at the first
//                invalid access, which is never performed
//   threadsteer  the access is steered away: it is guarded off for the faulting thread, whose
//                load or atomic result reads 0, and the kernel keeps running, so one launch shows
//                the first fault and the rest of the kernel's behaviour without it
// Generic (LD/ST/ATOM/RED) accesses are not checked: their space is only known at run time.
// The table is read from the address table (bank 4), so the mode needs whole-program output
// (not -c). The instrumented code is never instrumented again.
#include <vector>

#include "optxas/codegen/SymbolLayout.h"
#include "optxas/ori/Builder.h"
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"
#include "optxas/sanitizer/Runtime.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::BasicBlock;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using sanitizer::Access;
using sanitizer::Space;

struct Site {
  Instr *instr;
  Space space;
  Access access;
  unsigned addrUse;   // index of the Addr operand among the uses
  uint32_t size;
};

bool classify(Instr &i, Site &s) {
  switch (i.opcode()) {
  case Opcode::LDG: s = {&i, Space::Global, Access::Load, 0, 0}; break;
  case Opcode::STG: s = {&i, Space::Global, Access::Store, 0, 0}; break;
  case Opcode::ATOMG: case Opcode::REDG: s = {&i, Space::Global, Access::Atomic, 0, 0}; break;
  case Opcode::LDS: s = {&i, Space::Shared, Access::Load, 0, 0}; break;
  case Opcode::STS: s = {&i, Space::Shared, Access::Store, 0, 0}; break;
  case Opcode::ATOMS: s = {&i, Space::Shared, Access::Atomic, 0, 0}; break;
  case Opcode::LDL: s = {&i, Space::Local, Access::Load, 0, 0}; break;
  case Opcode::STL: s = {&i, Space::Local, Access::Store, 0, 0}; break;
  default: return false;
  }
  bool found = false;
  for (unsigned k = 0; k < i.numUses(); ++k)
    if (i.use(k).kind == OperandKind::Addr) { s.addrUse = k; found = true; break; }
  if (!found) return false;
  const ori::Function &f = *i.function();
  auto words = [&](const Operand &o) -> unsigned {
    if (o.kind != OperandKind::Reg || o.reg == ori::kNoVReg) return 1;
    return o.subWidth ? o.subWidth : f.vreg(o.reg).width;
  };
  switch (i.mods().memType) {
  case isa::MemType::U8: case isa::MemType::S8: s.size = 1; break;
  case isa::MemType::U16: case isa::MemType::S16: s.size = 2; break;
  case isa::MemType::B64: s.size = 8; break;
  case isa::MemType::B128: s.size = 16; break;
  default:
    s.size = 4;
    // An atomic's width is its data operands' (ATOMG.E.ADD.64 has no memType).
    if (s.access == Access::Atomic)
      for (unsigned k = s.addrUse + 1; k < i.numUses(); ++k)
        if (i.use(k).kind == OperandKind::Reg && i.use(k).cls == RegClass::R) s.size = std::max(s.size, 4 * words(i.use(k)));
    break;
  }
  // A global access needs a 64-bit address register.
  if (s.space == Space::Global) {
    const Operand &a = i.use(s.addrUse);
    if (a.reg == ori::kNoVReg) return false;
    if ((a.subWidth ? a.subWidth : f.vreg(a.reg).width) < 2) return false;
  }
  return true;
}

// The module variable `name` of `bytes` (created on first use); returns its symbol index.
uint32_t runtimeVariable(ori::Module &m, std::string_view name, uint64_t bytes) {
  int k = m.findSymbol(name);
  if (k >= 0) return static_cast<uint32_t>(k);
  ori::Symbol s;
  s.name = std::string(name);
  s.kind = ori::SymbolKind::Global;
  s.size = bytes;
  s.align = 16;
  s.isVisible = true;   // the host finds it by name
  return m.addSymbol(std::move(s));
}

// Moves `i` and everything after it in its block into a new block right after it.
BasicBlock *splitBefore(ori::Function &f, Instr *i) {
  BasicBlock *bb = i->parent();
  BasicBlock *tail = f.createBlockAfter(bb);
  std::vector<Instr *> moved;
  for (Instr *k = i; k; k = k->next()) moved.push_back(k);
  for (Instr *k : moved) {
    k->removeFromParent();
    tail->append(k);
  }
  return tail;
}

class Instrumenter {
public:
  Instrumenter(ori::Function &f, sanitizer::Mode mode, uint32_t tableSlot, uint32_t reportSlot)
      : f_(f), b_(f), mode_(mode), tableSlot_(tableSlot), reportSlot_(reportSlot) {}

  void run() {
    std::vector<Site> sites;
    for (BasicBlock *bb : f_.blocks())
      for (Instr *i : *bb) {
        Site s;
        if (classify(*i, s)) sites.push_back(s);
      }
    if (sites.empty()) return;
    desc_ = descriptor();
    uint32_t n = 0;
    for (const Site &s : sites) instrument(s, ++n);
    ori::analyzeControlFlow(f_);
  }

private:
  ori::Function &f_;
  ori::Builder b_;
  sanitizer::Mode mode_;
  uint32_t tableSlot_, reportSlot_;
  Operand desc_;

  Operand reg(RegClass c = RegClass::R, unsigned width = 1) { return b_.reg(b_.newReg(c, width)); }
  Operand word(const Operand &r, unsigned k) const {
    Operand o = r;
    o.subOff = static_cast<uint8_t>(r.subOff + k);
    o.subWidth = 1;
    return o;
  }
  static Operand imm(int64_t v) { return Operand::imm(static_cast<int32_t>(static_cast<uint32_t>(v))); }
  static isa::Modifiers cmpMods(isa::Cmp c, bool isUnsigned) {
    isa::Modifiers m;
    m.cmp = c;
    m.boolOp = isa::BoolOp::AND;
    if (isUnsigned) m.intType = isa::IntType::U32;
    return m;
  }
  static isa::Modifiers ldc64() {
    isa::Modifiers m;
    m.memType = isa::MemType::B64;
    return m;
  }
  static isa::Modifiers mem(isa::MemType t = isa::MemType::None) {
    isa::Modifiers m;
    m.wide = true;
    m.memType = t;
    return m;
  }

  // The memory descriptor (ULDC.64 c[0x0][0x208]) the function's global accesses use.
  Operand descriptor() {
    BasicBlock *entry = f_.entry();
    for (Instr *i : *entry)
      if (i->opcode() == Opcode::ULDC && i->numDefs() == 1 && i->numUses() == 1 &&
          i->use(0).kind == OperandKind::CBank && i->use(0).bank == 0 && i->use(0).value == 0x208 &&
          !i->isPredicated())
        return i->def(0);
    Operand d = reg(RegClass::UR, 2);
    if (entry->empty()) b_.setInsertPoint(entry);
    else b_.setInsertPoint(entry->front());
    b_.create(Opcode::ULDC, {d}, {Operand::cbank(0, 0x208)}, ldc64());
    return d;
  }

  // pair + imm (64-bit), into a new pair.
  Operand add64(const Operand &pair, int64_t v) {
    Operand r = reg(RegClass::R, 2), carry = reg(RegClass::P);
    b_.create(Opcode::IADD3, {word(r, 0), carry}, {word(pair, 0), imm(v), Operand::zero()});
    isa::Modifiers x;
    x.ex = true;
    b_.create(Opcode::IADD3, {word(r, 1)},
              {word(pair, 1), imm(v >> 32), Operand::zero(), carry, Operand::truePred().setFlag(ori::OpNot)}, x);
    return r;
  }

  // The access's own guard as the chained predicate of a compare (PT when unguarded).
  static Operand chained(const Instr &i) { return i.isPredicated() ? i.guard() : Operand::truePred(); }

  void instrument(const Site &s, uint32_t site) {
    Instr *i = s.instr;
    b_.setLoc(i->loc());
    const Operand &a = i->use(s.addrUse);
    Operand bad = reg(RegClass::P), address;
    Operand good = mode_ == sanitizer::Mode::Threadsteer ? reg(RegClass::P) : Operand::truePred();
    if (s.space == Space::Global) {
      b_.setInsertPoint(i);
      Operand base = a.subWidth ? Operand::vregPart(a.reg, RegClass::R, a.subOff, 2)
                                : Operand::vreg(a.reg, RegClass::R);
      address = a.value ? add64(base, a.value) : base;
      Operand tbl = reg(RegClass::R, 2), count = reg(), ok = reg();
      b_.create(Opcode::LDC, {tbl}, {Operand::cbank(4, tableSlot_)}, ldc64());
      b_.create(Opcode::LDG, {count}, {desc_, Operand::addr(tbl.reg, RegClass::R, 0)}, mem());
      Operand p = add64(tbl, sanitizer::kTableHeaderBytes);
      b_.create(Opcode::MOV, {ok}, {imm(0)});
      BasicBlock *head = i->parent();
      splitBefore(f_, i);
      BasicBlock *loop = f_.createBlockAfter(head);   // head, loop, then the block of `i`
      b_.setInsertPoint(loop);
      Operand e = reg(RegClass::R, 4), d = reg(RegClass::R, 2), c = reg(RegClass::P), lim = reg();
      Operand q1 = reg(RegClass::P), q2 = reg(RegClass::P), q3 = reg(RegClass::P), more = reg(RegClass::P);
      b_.create(Opcode::LDG, {e}, {desc_, Operand::addr(p.reg, RegClass::R, 0)}, mem(isa::MemType::B128));
      // d = address - base (64-bit): the offset of the access in this entry.
      b_.create(Opcode::IADD3, {word(d, 0), c}, {word(address, 0), Operand(word(e, 0)).setFlag(ori::OpNeg), Operand::zero()});
      isa::Modifiers x;
      x.ex = true;
      b_.create(Opcode::IADD3, {word(d, 1)},
                {word(address, 1), Operand(word(e, 1)).setFlag(ori::OpNot), Operand::zero(), c,
                 Operand::truePred().setFlag(ori::OpNot)}, x);
      // inside when size >= S and d <= size - S (d < 2^32: sizes are below 4 GiB).
      b_.create(Opcode::IADD3, {lim}, {word(e, 2), imm(-int64_t(s.size)), Operand::zero()});
      b_.create(Opcode::ISETP, {q1, Operand::truePred()}, {word(e, 2), imm(s.size), Operand::truePred()},
                cmpMods(isa::Cmp::GE, true));
      b_.create(Opcode::ISETP, {q2, Operand::truePred()}, {word(d, 0), lim, q1}, cmpMods(isa::Cmp::LE, true));
      b_.create(Opcode::ISETP, {q3, Operand::truePred()}, {word(d, 1), Operand::zero(), q2}, cmpMods(isa::Cmp::EQ, true));
      b_.create(Opcode::MOV, {ok}, {imm(1)})->setGuard(q3);
      Operand next = add64(p, sanitizer::kEntryBytes);
      b_.create(Opcode::MOV, {word(p, 0)}, {word(next, 0)});
      b_.create(Opcode::MOV, {word(p, 1)}, {word(next, 1)});
      b_.create(Opcode::IADD3, {count}, {count, imm(-1), Operand::zero()});
      b_.create(Opcode::ISETP, {more, Operand::truePred()}, {count, Operand::zero(), Operand::truePred()},
                cmpMods(isa::Cmp::GT, false));
      b_.create(Opcode::BRA, {}, {Operand::label(loop)})->setGuard(more);
      b_.setInsertPoint(i);
      b_.create(Opcode::ISETP, {bad, Operand::truePred()}, {ok, Operand::zero(), chained(*i)}, cmpMods(isa::Cmp::EQ, true));
      if (mode_ == sanitizer::Mode::Threadsteer)
        b_.create(Opcode::ISETP, {good, Operand::truePred()}, {ok, Operand::zero(), chained(*i)}, cmpMods(isa::Cmp::NE, true));
    } else {
      b_.setInsertPoint(i);
      Operand at = reg(), end = reg(), bound = reg();
      if (a.reg != ori::kNoVReg)
        b_.create(Opcode::IADD3, {at}, {a.subWidth ? Operand::vregPart(a.reg, RegClass::R, a.subOff, 1) : Operand::vreg(a.reg, RegClass::R),
                                        imm(a.value), Operand::zero()});
      else
        b_.create(Opcode::MOV, {at}, {imm(a.value)});
      address = at;
      Operand off = at;
      if (s.space == Space::Shared) {
        off = reg();
        isa::Modifiers lop;
        lop.lut = 0xc0;   // a & b
        b_.create(Opcode::LOP3, {off}, {at, imm(0xffffff), Operand::zero(), Operand::truePred().setFlag(ori::OpNot)}, lop);
        b_.create(Opcode::S2R, {bound}, {Operand::sreg(ori::SpecialReg::SMEMSZ)});
      } else {
        b_.create(Opcode::LDC, {bound}, {Operand::cbank(0, 0x28)});
      }
      b_.create(Opcode::IADD3, {end}, {off, imm(s.size), Operand::zero()});
      b_.create(Opcode::ISETP, {bad, Operand::truePred()}, {end, bound, chained(*i)}, cmpMods(isa::Cmp::GT, true));
      if (mode_ == sanitizer::Mode::Threadsteer)
        b_.create(Opcode::ISETP, {good, Operand::truePred()}, {end, bound, chained(*i)}, cmpMods(isa::Cmp::LE, true));
    }
    report(bad, address, s, site);
    if (mode_ == sanitizer::Mode::Memcheck) {
      isa::Modifiers trap;
      trap.bpt = isa::BptMode::TRAP;
      b_.setInsertPoint(i);
      b_.create(Opcode::BPT, {}, {Operand::imm(1)}, trap)->setGuard(bad);
      splitBefore(f_, i);   // BPT ends its block
    } else {
      i->setGuard(good);
      b_.setInsertPointAfter(i);
      for (const Operand &d : i->defs())
        if (d.kind == OperandKind::Reg && d.cls == RegClass::R) {
          unsigned n = d.subWidth ? d.subWidth : f_.vreg(d.reg).width;
          for (unsigned k = 0; k < n; ++k) b_.create(Opcode::MOV, {word(d, k)}, {imm(0)})->setGuard(bad);
        }
    }
  }

  // The first faulting thread records what it did (guarded by `bad`), before the access.
  void report(const Operand &bad, const Operand &address, const Site &s, uint32_t site) {
    Instr *i = s.instr;
    b_.setInsertPoint(i);
    Operand rep = reg(RegClass::R, 2), one = reg(), old = reg(), first = reg(RegClass::P);
    b_.create(Opcode::LDC, {rep}, {Operand::cbank(4, reportSlot_)}, ldc64());
    b_.create(Opcode::MOV, {one}, {imm(1)});
    b_.create(Opcode::MOV, {old}, {imm(1)});
    isa::Modifiers xchg = mem();
    xchg.atom = isa::AtomOp::EXCH;
    xchg.order = isa::MemOrder::RELAXED;
    xchg.scope = isa::Scope::GPU;
    b_.create(Opcode::ATOMG, {Operand::truePred(), old}, {desc_, Operand::addr(rep.reg, RegClass::R, 0), one}, xchg)
        ->setGuard(bad);
    b_.create(Opcode::ISETP, {first, Operand::truePred()}, {old, Operand::zero(), bad}, cmpMods(isa::Cmp::EQ, true));
    auto store = [&](int64_t off, const Operand &v) {
      b_.create(Opcode::STG, {}, {desc_, Operand::addr(rep.reg, RegClass::R, off), v}, mem())->setGuard(first);
    };
    auto value = [&](int64_t v) {
      Operand r = reg();
      b_.create(Opcode::MOV, {r}, {imm(v)});
      return r;
    };
    store(4, value(sanitizer::packInfo(s.access, s.space, s.size, site)));
    store(8, s.space == Space::Global ? word(address, 0) : address);
    if (s.space == Space::Global) store(12, word(address, 1));
    Operand tid = reg(), cta = reg();
    b_.create(Opcode::S2R, {tid}, {Operand::sreg(ori::SpecialReg::TID_X)});
    store(16, tid);
    b_.create(Opcode::S2R, {cta}, {Operand::sreg(ori::SpecialReg::CTAID_X)});
    store(20, cta);
    store(24, value(i->loc().line));
  }
};

class OriSanitize final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override {
    return !ctx.knobs().isSet(knobs::Knob::OptxasSanitize) || ctx.function().isAllocated();
  }
  void execute(PhaseContext &ctx) override {
    const std::string &text = ctx.knobs().getString(knobs::Knob::OptxasSanitize);
    sanitizer::Mode mode = sanitizer::parseMode(text);
    if (mode == sanitizer::Mode::None) {
      ctx.diags().error(SourceLoc{}, "OptxasSanitize: unknown mode '{}' (expected memcheck or threadsteer)", text);
      return;
    }
    ori::Module &m = ctx.module();
    uint32_t table = runtimeVariable(m, sanitizer::kAllocTableSymbol, sanitizer::kTableBytes);
    uint32_t report = runtimeVariable(m, sanitizer::kReportSymbol, sanitizer::kReportBytes);
    codegen::VariableLayout layout = codegen::layoutVariables(m, /*relocatable=*/false);
    Instrumenter(ctx.function(), mode, layout.globalSlot[table], layout.globalSlot[report]).run();
  }
};

} // namespace

std::unique_ptr<Phase> createOriSanitize(PhaseId id) { return std::make_unique<OriSanitize>(id); }

} // namespace optxas::phases
