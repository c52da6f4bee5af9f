// The per-opcode mapping of memory, control-flow and synchronization instructions.
#include "Decoder.h"

#include <fmt/format.h>

#include <vector>

namespace optxas::sim::ptxi {

using namespace optxas::ptx;

bool Decoder::decodeMemory(const Instruction &ins, DOp &op) {
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  op.space = spaceOf(ins.space());
  op.vec = uint8_t(ins.vectorWidth());
  Type t = op.type;
  if (ins.op == Opcode::Cp) return decodeCpAsync(ins, op);
  if (ins.op == Opcode::Mapa || ins.op == Opcode::Getctarank) {
    // Clusters have one CTA: rank 0 maps to itself, and every shared address is rank 0's.
    if (n != (ins.op == Opcode::Mapa ? 3u : 2u)) return false;
    if (ins.op == Opcode::Getctarank) {
      op.op = XOp::Mov;
      op.bits = 32;
      op.flags &= uint16_t(~F_SIGNED);
      setOperands(op, {dst(o(0))}, {constSlot(0)});
      return true;
    }
    op.op = XOp::Mapa;
    setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), Type::U32)});
    return true;
  }
  if (t == Type::B128 && op.vec == 1 && (ins.op == Opcode::Ld || ins.op == Opcode::St) && n == 2) {
    // A .b128 register is two 64-bit slots (low half first): a 16-byte access of two b64.
    const Operand &r = o(ins.op == Opcode::Ld ? 0 : 1);
    if (r.kind != OperandKind::Reg || !r.reg || typeBits(r.reg->type) != 128) return false;
    op.type = Type::B64;
    op.bits = 64;
    op.vec = 2;
    uint32_t s0 = regSlot(r);
    if (ins.op == Opcode::Ld) {
      op.op = XOp::Ld;
      if (!address(o(1), op)) return false;
      setOperands(op, {s0, s0 + 1}, {});
    } else {
      op.op = XOp::St;
      if (!address(o(0), op)) return false;
      setOperands(op, {}, {s0, s0 + 1});
    }
    return true;
  }
  if (typeBits(t) > 64 || typeBits(t) == 0) {
    if (ins.op != Opcode::Stacksave && ins.op != Opcode::Stackrestore && ins.op != Opcode::Alloca)
      return false;
  }
  auto listOf = [&](const Operand &x, bool isDst, uint32_t *out) -> unsigned {
    if (x.kind == OperandKind::Vector) {
      unsigned k = 0;
      for (const Operand &e : x.elems) out[k++] = isDst ? dst(e) : src(e, t);
      return k;
    }
    if (x.kind == OperandKind::Reg && x.reg && x.reg->vecWidth > 1 && x.componentIndex() < 0) {
      // A whole vector register (.reg .v4 .f32 %v): its elements occupy consecutive slots.
      uint32_t first = regSlot(x);
      for (unsigned k = 0; k < x.reg->vecWidth; ++k) out[k] = first + k;
      return x.reg->vecWidth;
    }
    out[0] = isDst ? dst(x) : src(x, t);
    return 1;
  };
  switch (ins.op) {
  case Opcode::Ld: case Opcode::Ldu: {
    if (n < 2) return false;
    op.op = XOp::Ld;
    if (!address(o(1), op)) return false;
    op.nd = uint8_t(listOf(o(0), true, op.r));
    return op.nd == op.vec;
  }
  case Opcode::St: {
    if (n < 2) return false;
    op.op = XOp::St;
    if (!address(o(0), op)) return false;
    op.nd = 0;
    op.ns = uint8_t(listOf(o(1), false, op.r));
    return op.ns == op.vec;
  }
  case Opcode::Atom: case Opcode::Red: {
    AtomOp a;
    if (!atomOpOf(ins.atomOp(), a)) return false;
    op.mode = uint8_t(a);
    bool isAtom = ins.op == Opcode::Atom;
    op.op = isAtom ? XOp::Atom : XOp::Red;
    if (op.space != Space::Global && op.space != Space::Shared && op.space != Space::Generic)
      return false;
    size_t ai = isAtom ? 1 : 0;
    if (n < ai + 2) return false;
    if (!address(o(ai), op)) return false;
    uint32_t dsts[8] = {}, srcs[8] = {};
    unsigned nd = isAtom ? listOf(o(0), true, dsts) : 0;
    unsigned nb = listOf(o(ai + 1), false, srcs);
    if (isAtom && nd != nb) return false;
    if (nb != op.vec) return false;
    op.nd = uint8_t(nd);
    for (unsigned i = 0; i < nd; ++i) op.r[i] = dsts[i];
    op.ns = uint8_t(nb);
    for (unsigned i = 0; i < nb; ++i) op.r[nd + i] = srcs[i];
    if (a == AtomOp::Cas) {
      if (n != ai + 3 || op.vec != 1) return false;
      op.r[op.nd + op.ns] = src(o(ai + 2), t);
      op.ns++;
    }
    return true;
  }
  case Opcode::Alloca:
    if (n < 2) return false;
    op.op = XOp::Alloca;
    setOperands(op, {dst(o(0))}, {src(o(1), Type::U32), n > 2 ? src(o(2), Type::U32) : constSlot(0)});
    return true;
  case Opcode::Stacksave:
    if (n != 1) return false;
    op.op = XOp::StackSave;
    setOperands(op, {dst(o(0))}, {});
    return true;
  case Opcode::Stackrestore:
    if (n != 1) return false;
    op.op = XOp::StackRestore;
    setOperands(op, {}, {src(o(0), op.type)});
    return true;
  default:
    return false;
  }
}

// cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src}: executed as a
// synchronous copy (zero-filling past src-size), so commit_group/wait_group/wait_all are no-ops.
bool Decoder::decodeCpAsync(const Instruction &ins, DOp &op) {
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  if (!ins.has(Mod::Async)) return false;
  if (ins.has(Mod::Bulk) || ins.has(Mod::Tensor) || ins.has(Mod::Mbarrier)) return false;
  if (ins.has(Mod::CommitGroup) || ins.has(Mod::WaitGroup) || ins.has(Mod::WaitAll)) {
    op.op = XOp::Nop;
    return true;
  }
  if (n < 3 || o(1).kind != OperandKind::Address || o(2).kind != OperandKind::ImmInt) return false;
  op.op = XOp::CpAsync;
  op.space = Space::Shared;
  if (!address(o(0), op)) return false;
  // The source address: base register (or none) plus a constant offset, as two slots.
  uint32_t base = constSlot(0);
  uint64_t off = uint64_t(o(1).offset);
  if (o(1).base == BaseKind::Reg) {
    base = regSlot(o(1));
  } else if (o(1).base == BaseKind::Symbol) {
    off += symbolAddress(o(1).sym, 0, false);
  }
  uint64_t size = o(2).bits;
  if (size != 4 && size != 8 && size != 16) return false;
  uint32_t srcSize = constSlot(size), ignore = constSlot(0);
  if (n > 3 && o(3).kind != OperandKind::Reg) srcSize = src(o(3), Type::U32);
  else if (n > 3 && o(3).reg && o(3).reg->type == Type::Pred) ignore = src(o(3), Type::Pred);
  else if (n > 3) srcSize = src(o(3), Type::U32);
  if (n > 3 && o(3).negated) op.flags |= F_NEG_C;
  op.vec = uint8_t(size);
  setOperands(op, {}, {base, constSlot(off), srcSize, ignore});
  return true;
}

bool Decoder::decodeControl(const Instruction &ins, DOp &op, uint32_t astIndex) {
  (void)astIndex;
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  switch (ins.op) {
  case Opcode::Bra: {
    if (n != 1 || o(0).kind != OperandKind::Symbol || !o(0).sym ||
        o(0).sym->kind != DeclKind::Label)
      return false;
    op.op = XOp::Bra;
    fixups_.push_back({uint32_t(f_->code.size()), static_cast<const Label *>(o(0).sym)});
    return true;
  }
  case Opcode::Brx: {
    if (n != 2 || o(1).kind != OperandKind::Symbol || !o(1).sym ||
        o(1).sym->kind != DeclKind::Label)
      return false;
    const auto *tl = static_cast<const Label *>(o(1).sym);
    if (tl->labelKind != LabelKind::BranchTargets) return false;
    op.op = XOp::BrxIdx;
    op.aux = uint32_t(p_.branchTables.size());
    p_.branchTables.emplace_back();
    TableFixup tf{op.aux, {}};
    for (const Label *l : tl->branchTargets) tf.labels.push_back(l);
    tableFixups_.push_back(std::move(tf));
    setOperands(op, {}, {src(o(0), Type::U32)});
    return true;
  }
  case Opcode::Call: {
    CallSite cs;
    size_t i = 0;
    const Operand *rets = nullptr, *args = nullptr;
    if (i < n && o(i).kind == OperandKind::List) rets = &o(i++);
    if (i >= n) return false;
    const Operand &target = o(i++);
    if (i < n && o(i).kind == OperandKind::List) args = &o(i++);
    if (target.kind == OperandKind::Symbol && target.sym && target.sym->kind == DeclKind::Function) {
      const auto *fn = static_cast<const Function *>(target.sym);
      auto it = p_.byAst.find(fn);
      if (it != p_.byAst.end()) {
        cs.callee = it->second;
      } else {
        // Declared but not defined here: only the CUDA runtime's device functions can run.
        std::string_view name = fn->name.str();
        cs.builtin = name == "vprintf" ? Builtin::Vprintf : name == "malloc" ? Builtin::Malloc
                   : name == "free" ? Builtin::Free : name == "__assertfail" ? Builtin::AssertFail
                   : Builtin::None;
        if (cs.builtin == Builtin::None) {
          DOp u = unsupported(ins, fmt::format("call to '{}', which has no definition in this module", name));
          op.op = u.op;
          op.aux = u.aux;
          return true;
        }
      }
    } else if (target.kind == OperandKind::Reg) {
      cs.fptrSlot = regSlot(target);
    } else {
      return false;
    }
    if (rets)
      for (const Operand &r : rets->elems) cs.rets.push_back(callOperand(r, 0));
    if (args)
      for (const Operand &a : args->elems) cs.args.push_back(callOperand(a, 0));
    op.op = XOp::Call;
    op.aux = uint32_t(p_.calls.size());
    p_.calls.push_back(std::move(cs));
    return true;
  }
  case Opcode::Ret:
    op.op = XOp::Ret;
    return true;
  case Opcode::Exit:
    op.op = XOp::Exit;
    return true;
  case Opcode::Trap:
    op.op = XOp::Trap;
    return true;
  default:
    return false;
  }
}

bool Decoder::decodeSync(const Instruction &ins, DOp &op) {
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  if (ins.has(Mod::Sync)) op.flags |= F_SYNC;
  switch (ins.op) {
  case Opcode::Bar: case Opcode::Barrier: {
    if (ins.has(Mod::Cluster)) {       // barrier.cluster.arrive / .wait (one-CTA clusters)
      if (n != 0) return false;
      op.op = ins.has(Mod::Wait) ? XOp::ClusterWait : XOp::ClusterArrive;
      return ins.has(Mod::Wait) || ins.has(Mod::Arrive);
    }
    if (ins.has(Mod::Warp)) {          // bar.warp.sync membermask
      if (n != 1) return false;
      op.op = XOp::BarWarp;
      setOperands(op, {}, {src(o(0), Type::B32)});
      return true;
    }
    op.op = XOp::Bar;
    if (ins.has(Mod::Red)) {
      // bar.red.popc.u32 d, a{, b}, {!}c   /  bar.red.and|or.pred p, a{, b}, {!}c
      op.mode = ins.has(Mod::Popc) ? 2 : ins.has(Mod::And) ? 3 : ins.has(Mod::Or) ? 4 : 0;
      if (!op.mode || (n != 3 && n != 4)) return false;
      const Operand &c = o(n - 1);
      if (c.negated) op.flags |= F_NEG_C;
      setOperands(op, {dst(o(0))},
                  {src(o(1), Type::U32), n == 4 ? src(o(2), Type::U32) : kNoSlot, src(c, Type::Pred)});
      return true;
    }
    op.mode = ins.has(Mod::Arrive) ? 1 : 0;
    if (n != 1 && n != 2) return false;
    setOperands(op, {}, {src(o(0), Type::U32), n == 2 ? src(o(1), Type::U32) : kNoSlot});
    return true;
  }
  case Opcode::Mma: {
    // mma.sync.aligned.{m8n8k128,m16n8k128,m16n8k256}.row.col.s32.b1.b1.s32.{and,xor}.popc
    // d, a, b, c: a collective of the whole warp (mode: shape 0/1/2, mode2: 1 for .xor).
    auto vec = [&](const Operand &x, bool isDst, std::vector<uint32_t> &out) {
      if (x.kind != OperandKind::Vector) return;
      for (const Operand &e : x.elems) out.push_back(isDst ? dst(e) : src(e, Type::B32));
    };
    if (n != 4 || !ins.has(Mod::Sync) || !ins.has(Mod::Popc) || ins.types().size() != 4 ||
        ins.type(1) != Type::B1 || ins.type(2) != Type::B1 || ins.type(0) != Type::S32 ||
        ins.type(3) != Type::S32 || (!ins.has(Mod::And) && !ins.has(Mod::Xor)))
      return false;
    const ptx::Shape &s = ins.shape;
    if (s.m == 8 && s.n == 8 && s.k == 128) op.mode = 0;
    else if (s.m == 16 && s.n == 8 && s.k == 128) op.mode = 1;
    else if (s.m == 16 && s.n == 8 && s.k == 256) op.mode = 2;
    else return false;
    op.op = XOp::MmaB1;
    op.mode2 = ins.has(Mod::Xor) ? 1 : 0;
    std::vector<uint32_t> d, a, b, c;
    vec(o(0), true, d);
    vec(o(1), false, a);
    vec(o(2), false, b);
    vec(o(3), false, c);
    const size_t cd = op.mode == 0 ? 2 : 4, na = op.mode == 0 ? 1 : op.mode == 1 ? 2 : 4;
    const size_t nb = op.mode == 2 ? 2 : 1;
    if (d.size() != cd || a.size() != na || b.size() != nb || c.size() != cd) return false;
    op.nd = uint8_t(cd);
    op.ns = uint8_t(na + nb + cd);
    unsigned i = 0;
    for (auto *v : {&d, &a, &b, &c})
      for (uint32_t x : *v) op.r[i++] = x;
    return true;
  }
  case Opcode::Shfl: {
    Mod m = ins.firstOf({Mod::Up, Mod::Down, Mod::Bfly, Mod::Idx});
    if (m == Mod::NumMods) return false;
    op.op = XOp::Shfl;
    op.mode = uint8_t(m == Mod::Up ? 0 : m == Mod::Down ? 1 : m == Mod::Bfly ? 2 : 3);
    size_t need = (op.flags & F_SYNC) ? 5 : 4;
    if (n != need) return false;
    uint32_t d0, d1;
    if (o(0).kind == OperandKind::Pair) {
      d0 = dst(o(0).elems[0]);
      d1 = dst(o(0).elems[1]);
    } else {
      d0 = dst(o(0));
      d1 = scratch();
    }
    setOperands(op, {d0, d1},
                {src(o(1), Type::B32), src(o(2), Type::U32), src(o(3), Type::U32),
                 need == 5 ? src(o(4), Type::B32) : constSlot(0xffffffffu)});
    return true;
  }
  case Opcode::Vote: {
    Mod m = ins.firstOf({Mod::All, Mod::Any, Mod::Uni, Mod::Ballot});
    if (m == Mod::NumMods) return false;
    op.op = XOp::Vote;
    op.mode = uint8_t(m == Mod::All ? 0 : m == Mod::Any ? 1 : m == Mod::Uni ? 2 : 3);
    size_t need = (op.flags & F_SYNC) ? 3 : 2;
    if (n != need) return false;
    if (o(1).negated) op.flags |= F_NEG_C;
    setOperands(op, {dst(o(0))},
                {src(o(1), Type::Pred), need == 3 ? src(o(2), Type::B32) : constSlot(0xffffffffu)});
    return true;
  }
  case Opcode::Match: {
    if (n != 3) return false;
    op.op = XOp::Match;
    op.mode = ins.has(Mod::All) ? 1 : 0;
    uint32_t d0, d1;
    if (o(0).kind == OperandKind::Pair) {
      d0 = dst(o(0).elems[0]);
      d1 = dst(o(0).elems[1]);
    } else {
      d0 = dst(o(0));
      d1 = scratch();
    }
    setOperands(op, {d0, d1}, {src(o(1), op.type), src(o(2), Type::B32)});
    return true;
  }
  case Opcode::Redux: {
    if (n != 3) return false;
    AtomOp a;
    if (!atomOpOf(ins.atomOp(), a)) return false;
    op.op = XOp::Redux;
    op.mode = uint8_t(a);
    if (ins.has(Mod::Abs)) op.flags |= F_XORSIGN;
    if (ins.has(Mod::NaN)) op.flags |= F_NAN;
    setOperands(op, {dst(o(0))}, {src(o(1), op.type), src(o(2), Type::B32)});
    return true;
  }
  case Opcode::Activemask:
    if (n != 1) return false;
    op.op = XOp::Activemask;
    setOperands(op, {dst(o(0))}, {});
    return true;
  case Opcode::Elect: {
    if (n != 2) return false;
    op.op = XOp::Elect;
    uint32_t d0, d1;
    if (o(0).kind == OperandKind::Pair) {
      d0 = dst(o(0).elems[0]);
      d1 = dst(o(0).elems[1]);
    } else {
      d0 = dst(o(0));
      d1 = scratch();
    }
    setOperands(op, {d0, d1}, {src(o(1), Type::B32)});
    return true;
  }
  default:
    return false;
  }
}

} // namespace optxas::sim::ptxi
