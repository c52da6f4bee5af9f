// Atomics and reductions (atom, red) on global, generic and shared memory:
//   global  ATOMG.E.op{.type}.STRONG.scope PT, d, desc, [Rpair.64 + off], b
//           ATOMG.E.CAS{.64}.STRONG.scope   PT, d, [Rpair.64 + off], cmp, new   (no descriptor)
//           REDG.E.op{.type}.STRONG.scope   desc, [a], b                        (red)
//   generic ATOM.E / RED.E (same operands)
//   shared  ATOMS.op{.type} d, [R + off], b   ATOMS.CAS d, [a], cmp, new   (red: d = RZ)
// .acquire adds CCTL.IVALL after, .release MEMBAR.ALL.scope before (acq_rel both), as ptxas.
#include "Emit.h"
#include "Memory.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

bool atomOpOf(ptx::Mod m, isa::AtomOp &out) {
  switch (m) {
  case ptx::Mod::Add: out = isa::AtomOp::ADD; return true;
  case ptx::Mod::Min: out = isa::AtomOp::MIN; return true;
  case ptx::Mod::Max: out = isa::AtomOp::MAX; return true;
  case ptx::Mod::Inc: out = isa::AtomOp::INC; return true;
  case ptx::Mod::Dec: out = isa::AtomOp::DEC; return true;
  case ptx::Mod::And: out = isa::AtomOp::AND; return true;
  case ptx::Mod::Or: out = isa::AtomOp::OR; return true;
  case ptx::Mod::Xor: out = isa::AtomOp::XOR; return true;
  case ptx::Mod::Exch: out = isa::AtomOp::EXCH; return true;
  case ptx::Mod::Cas: out = isa::AtomOp::CAS; return true;
  default: return false;
  }
}

// The data type slot: 32-bit unsigned/bit types print nothing, .64 for 64-bit unsigned.
bool atomTypeOf(ptx::Type t, isa::Modifiers &m) {
  switch (t) {
  case ptx::Type::U32:
  case ptx::Type::B32: m.atomType = isa::AtomType::None; return true;
  case ptx::Type::S32: m.atomType = isa::AtomType::S32; return true;
  case ptx::Type::U64:
  case ptx::Type::B64: m.atomType = isa::AtomType::U64; return true;
  case ptx::Type::S64: m.atomType = isa::AtomType::S64; return true;
  case ptx::Type::F32:
    m.atomType = isa::AtomType::F32;
    m.ftz = true;
    m.round = isa::Round::RN;
    return true;
  case ptx::Type::F64:
    m.atomType = isa::AtomType::F64;
    m.round = isa::Round::RN;
    return true;
  default: return false;
  }
}

isa::Scope scopeOf(ptx::Mod m) {
  switch (m) {
  case ptx::Mod::Cta: return isa::Scope::CTA;
  case ptx::Mod::Sys: return isa::Scope::SYS;
  default: return isa::Scope::GPU;
  }
}

bool lowerAtom(LowerCtx &cx, const ptx::Instruction &in) {
  const bool isRed = in.op == ptx::Opcode::Red;
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  isa::Modifiers m;
  if (!atomOpOf(in.atomOp(), m.atom)) return cx.unsupported(std::string(in.opcodeName()) + " operation");
  if (!atomTypeOf(t, m)) return cx.unsupported(std::string(in.opcodeName()) + "." + std::string(ptx::typeName(t)));
  if (in.vectorWidth() > 1) return cx.unsupported("vector atomics");
  if (in.has(ptx::Mod::L2CacheHint)) return cx.unsupported("atomics with an L2 cache hint");
  const bool isCas = m.atom == isa::AtomOp::CAS;
  const unsigned words = LowerCtx::wordsOf(t);
  const unsigned addrIdx = isRed ? 0 : 1;
  MemAddr ma;
  if (!resolveAddress(cx, ops[addrIdx], in.space(), ma)) return false;
  auto value = [&](unsigned i) { return words == 2 ? cx.srcWide(ops[i], t, 2) : cx.srcReg(ops[i], t); };
  Operand b = value(addrIdx + 1);
  Operand c = isCas ? value(addrIdx + 2) : Operand{};
  Operand d = isRed ? RZ() : (words == 2 ? cx.dstWide(ops[0], t, 2) : cx.dst(ops[0], t));
  // A result written before the address/operands are read is not possible (one instruction),
  // but d may alias b/c of the same instruction, which SASS allows.

  if (ma.unit == MemUnit::Shared) {
    if (t == ptx::Type::F32 || t == ptx::Type::F64 || (words == 2 && !isCas && m.atom != isa::AtomOp::EXCH &&
                                                       m.atom != isa::AtomOp::AND && m.atom != isa::AtomOp::OR &&
                                                       m.atom != isa::AtomOp::XOR))
      return cx.unsupported("this shared-memory atomic (a compare-and-swap loop in ptxas)");
    isa::Modifiers ms;
    ms.atom = m.atom;
    ms.atomType = m.atomType;
    if (isCas) cx.emit(Opcode::ATOMS, {d}, {ma.addr, b, c}, ms);
    else cx.emit(Opcode::ATOMS, {d}, {ma.addr, b}, ms);
    return true;
  }
  if (ma.unit != MemUnit::Global && ma.unit != MemUnit::Generic)
    return cx.unsupported(std::string(in.opcodeName()) + " in this state space");

  m.wide = true;
  m.order = isa::MemOrder::RELAXED;   // .STRONG
  m.scope = scopeOf(in.scope());
  ptx::Mod sem = in.semantics();
  const bool release = sem == ptx::Mod::Release || sem == ptx::Mod::AcqRel;
  const bool acquire = sem == ptx::Mod::Acquire || sem == ptx::Mod::AcqRel;
  if (release) {
    isa::Modifiers f;
    f.fence = isa::FenceMode::ALL;
    f.scope = m.scope;
    cx.emit(Opcode::MEMBAR, {}, {}, f);
  }
  const bool global = ma.unit == MemUnit::Global;
  if (isRed && !isCas) {
    cx.emit(global ? Opcode::REDG : Opcode::RED, {}, {cx.memDescriptor(), ma.addr, b}, m);
  } else if (isCas) {
    cx.emit(global ? Opcode::ATOMG : Opcode::ATOM, {PT(), d}, {ma.addr, b, c}, m);
  } else {
    cx.emit(global ? Opcode::ATOMG : Opcode::ATOM, {PT(), d}, {cx.memDescriptor(), ma.addr, b}, m);
  }
  if (acquire && m.scope != isa::Scope::CTA) {
    isa::Modifiers f;
    f.cctl = isa::CctlOp::IVALL;
    cx.emit(Opcode::CCTL, {}, {}, f);
  }
  return true;
}

} // namespace

void registerAtomicOps(Registry &r) {
  r.add(ptx::Opcode::Atom, lowerAtom);
  r.add(ptx::Opcode::Red, lowerAtom);
}

} // namespace optxas::lower
