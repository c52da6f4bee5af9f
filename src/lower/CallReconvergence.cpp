// Reconvergence across calls (docs/abi.md, "Convergence barriers across calls"). Lowering gives a
// device function the regions of a kernel except those whose join only returns (Reconvergence.cpp);
// a function that may return diverged is reconverged by its callers, as ptxas 13.0 does in whole
// programs:
//
//         BSSY Bn, J
//         CALL f            <- f returns diverged
//         BSYNC Bn
//   J:    ...
//
// Barrier numbers: a function runs while its callers hold the barriers of the regions around each
// call (and Bn of a bracket), so its own regions start above the most any call site holds
// ("base"; ptxas measured: a callee's loop uses B1 when the call is inside a B0 region). A call
// that is the last thing before its region's BSYNC gets no bracket (ptxas: none; that BSYNC
// reconverges the warp). Functions on a call cycle reconverge inside (ptxas 13.0 measured) and
// save the barriers they use around each activation:
//
//   f:    BMOV.32.CLEAR Rs, Bn      <- the caller's (or outer activation's) mask, Bn emptied
//         BSSY Bn, J ... CALL f ... BSYNC Bn
//   J:    BMOV.32 Bn, Rs            <- before each RET
//         RET
//
// so calls inside a cycle get no bracket and do not raise the callee's base (the save makes the
// overlap harmless; the base comes from the calls from outside the cycle).
#include <algorithm>
#include <map>
#include <string>

#include "ModuleLowering.h"
#include "optxas/ori/Builder.h"

namespace optxas::lower {

using isa::Opcode;

namespace {

const ptx::Function *asFunction(const ptx::Decl *d) {
  return d && d->kind == ptx::DeclKind::Function ? static_cast<const ptx::Function *>(d) : nullptr;
}

// The block control reaches after `bb` when it does not branch conditionally; null otherwise.
ori::BasicBlock *nextBlock(const ori::Function &f, const ori::BasicBlock *bb) {
  const ori::Instr *t = bb->terminator();
  if (t) {
    if (t->opcode() != Opcode::BRA || t->isPredicated() || t->numUses() == 0) return nullptr;
    return t->use(0).kind == ori::OperandKind::Label ? t->use(0).block : nullptr;
  }
  auto it = std::find(f.blocks().begin(), f.blocks().end(), bb);
  return it != f.blocks().end() && it + 1 != f.blocks().end() ? *(it + 1) : nullptr;
}

// Whether nothing but copies follows `call` before a BSYNC (the end of an enclosing region).
bool endsRegion(const ori::Function &f, const ori::Instr *call) {
  const ori::BasicBlock *bb = call->parent();
  for (const ori::Instr *i = call->next(); i; i = i->next())
    if (i->opcode() != Opcode::PSEUDO_COPY && !(i->opcode() == Opcode::BRA && i == bb->back())) return false;
  const ori::BasicBlock *n = nextBlock(f, bb);
  return n && !n->empty() && n->front()->opcode() == Opcode::BSYNC;
}

// BSSY Bn / BSYNC Bn around `call`: the instructions after it move to a new block J.
void bracket(ori::Function &f, ori::Instr *call, unsigned barrier) {
  ori::BasicBlock *bb = call->parent();
  auto pos = std::find(f.blocks().begin(), f.blocks().end(), bb);
  if (!call->next() && pos + 1 == f.blocks().end()) return;   // nothing after the CALL to join
  isa::Modifiers m;
  m.barrierId = static_cast<uint8_t>(barrier);
  ori::BasicBlock *sync = f.createBlockAfter(bb);   // (moves the layout: pos is stale now)
  ori::BasicBlock *join = nullptr;
  if (call->next()) {
    join = f.createBlockAfter(sync);
    while (ori::Instr *i = call->next()) {
      i->removeFromParent();
      join->append(i);
    }
  } else {
    join = *(std::find(f.blocks().begin(), f.blocks().end(), sync) + 1);
  }
  ori::Builder b(f);
  b.setLoc(call->loc());
  b.setInsertPoint(call);
  b.create(Opcode::BSSY, {}, {ori::Operand::label(join)}, m);
  b.setInsertPoint(sync);
  b.create(Opcode::BSYNC, {}, {}, m);
}

// BMOV.32.CLEAR Rs, Bk for each of `barriers` on entry (a block of its own, run once), BMOV.32
// Bk, Rs before each RET (unguarded: Reconvergence.cpp gives functions with a guarded RET no
// regions). ptxas saves the highest first.
void saveBarriers(ori::Function &f, const std::vector<unsigned> &barriers) {
  std::vector<ori::Instr *> rets;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb)
      if (i->opcode() == Opcode::RET) rets.push_back(i);
  ori::BasicBlock *first = f.blocks().front();
  ori::BasicBlock *entry = f.createBlock();
  f.moveBlockAfter(entry, nullptr);
  ori::Builder b(f);
  if (!first->empty()) b.setLoc(first->front()->loc());
  std::vector<std::pair<unsigned, ori::VRegId>> saved;
  for (auto it = barriers.rbegin(); it != barriers.rend(); ++it) {
    isa::Modifiers m;
    m.barrierId = static_cast<uint8_t>(*it);
    m.extra = 1;   // .CLEAR
    ori::VRegId r = f.newVReg(ori::RegClass::R);
    b.setInsertPoint(entry);
    b.create(Opcode::BMOV, {ori::Operand::vreg(r, ori::RegClass::R)}, {}, m);
    saved.push_back({*it, r});
  }
  for (ori::Instr *ret : rets) {
    b.setLoc(ret->loc());
    b.setInsertPoint(ret);
    for (auto [bar, r] : saved) {
      isa::Modifiers m;
      m.barrierId = static_cast<uint8_t>(bar);
      b.create(Opcode::BMOV, {}, {ori::Operand::vreg(r, ori::RegClass::R)}, m);
    }
  }
}

} // namespace

void ModuleLowering::analyzeCalls(std::span<const ptx::Module *const> modules) {
  // A declaration in one module and the definition in another are one function.
  std::map<std::string_view, const ptx::Function *> defined;
  for (const ptx::Module *pm : modules)
    for (const ptx::Function *f : pm->functions)
      if (f->isDefinition) defined[f->name.str()] = f;
  auto resolve = [&](const ptx::Decl *d) -> const ptx::Function * {
    const ptx::Function *f = asFunction(d);
    if (!f) return nullptr;
    auto it = defined.find(f->name.str());
    return it == defined.end() ? nullptr : it->second;
  };
  auto taken = [&](auto &self, const ptx::Operand &o) -> void {
    if (const ptx::Function *f = resolve(o.sym)) addressTaken_.insert(f);
    for (const ptx::Operand &e : o.elems) self(self, e);
  };
  auto initTaken = [&](auto &self, const ptx::Initializer &in) -> void {
    if (const ptx::Function *f = resolve(in.sym)) addressTaken_.insert(f);
    for (const ptx::Initializer &e : in.elems) self(self, e);
  };
  std::map<const ptx::Function *, std::vector<const ptx::Function *>> callees;
  std::vector<const ptx::Function *> indirect;   // functions with an indirect call
  for (const ptx::Module *pm : modules) {
    for (const ptx::Variable *v : pm->globals)
      if (v->init) initTaken(initTaken, *v->init);
    for (const ptx::Function *f : pm->functions) {
      if (!f->isDefinition) continue;
      for (const ptx::Instruction *in : f->instructions) {
        const auto &ops = in->operands;
        size_t target = ops.size();
        if (in->op == ptx::Opcode::Call) {
          // [results] target [args] [prototype]: as Calls.cpp reads them.
          target = ops.size() > 1 && ops[0].kind == ptx::OperandKind::List &&
                           ops[1].kind != ptx::OperandKind::List ? 1 : 0;
          if (target < ops.size()) {
            if (const ptx::Function *g = resolve(ops[target].sym)) callees[f].push_back(g);
            else if (ops[target].kind == ptx::OperandKind::Reg) indirect.push_back(f);
          }
        }
        for (size_t k = 0; k < ops.size(); ++k)
          if (k != target) taken(taken, ops[k]);
      }
    }
  }
  for (const ptx::Function *f : indirect)
    callees[f].insert(callees[f].end(), addressTaken_.begin(), addressTaken_.end());
  // f is on a cycle when a call chain from f comes back to it.
  for (const auto &[f, direct] : callees) {
    std::vector<const ptx::Function *> work(direct.begin(), direct.end());
    std::unordered_set<const ptx::Function *> seen;
    while (!work.empty()) {
      const ptx::Function *g = work.back();
      work.pop_back();
      if (g == f) {
        recursive_.insert(f);
        break;
      }
      if (!seen.insert(g).second) continue;
      auto it = callees.find(g);
      if (it != callees.end()) work.insert(work.end(), it->second.begin(), it->second.end());
    }
  }
}

void ModuleLowering::reconvergeCalls() {
  if (!opts_.callRegions) return;
  std::map<std::string, ori::Function *> byName;
  std::vector<ori::Function *> addressTaken;
  std::map<ori::Function *, const ptx::Function *> source;
  for (const auto &fp : m_.functions()) byName[fp->name()] = fp.get();
  for (const auto &[d, idx] : symbols_)
    if (const ptx::Function *pf = asFunction(d))
      if (auto it = byName.find(std::string(pf->name.str())); it != byName.end()) source[it->second] = pf;
  for (const auto &[f, pf] : source)
    if (addressTaken_.count(pf)) addressTaken.push_back(f);
  std::sort(addressTaken.begin(), addressTaken.end(),
            [](const ori::Function *a, const ori::Function *b) { return a->name() < b->name(); });
  auto isRecursive = [&](ori::Function *f) {
    auto it = source.find(f);
    return it != source.end() && recursive_.count(it->second);
  };

  struct Site {
    ori::Function *caller;
    ori::Instr *call;
    unsigned depth;                        // the caller's regions around it
    std::vector<ori::Function *> targets;  // the functions it may reach
    bool bracketed = false;
  };
  std::vector<Site> sites;
  for (const auto &fp : m_.functions()) {
    ori::Function *f = fp.get();
    for (auto [call, depth] : reconvergence(f).calls) {
      Site s{f, call, depth, {}};
      // The callee's symbol (first use; a call out of the module keeps it after the address
      // register), or none: an indirect call.
      const ori::Operand *callee = nullptr;
      for (const ori::Operand &u : call->uses())
        if (!callee && u.kind == ori::OperandKind::Symbol) callee = &u;
      if (callee) {
        auto it = byName.find(m_.symbol(static_cast<uint32_t>(callee->value)).name);
        if (it != byName.end()) s.targets.push_back(it->second);
      } else {
        s.targets = addressTaken;
      }
      bool diverged = false;
      for (ori::Function *g : s.targets) diverged |= reconvergence(g).returnsDiverged;
      // Inside a cycle the bracket's barrier would be held again by the recursive activation.
      bool cycle = isRecursive(f) && std::any_of(s.targets.begin(), s.targets.end(), isRecursive);
      s.bracketed = diverged && !cycle && !endsRegion(*f, call);
      sites.push_back(std::move(s));
    }
  }
  // Each function's first barrier: above every barrier held where it is called.
  std::map<const ori::Function *, unsigned> base;
  for (bool changed = true; changed;) {
    changed = false;
    for (const Site &s : sites) {
      unsigned need = std::min(base[s.caller] + s.depth + (s.bracketed ? 1u : 0u), 16u);
      const bool cycle = isRecursive(s.caller);
      for (ori::Function *g : s.targets)
        if (!(cycle && isRecursive(g) && reconvergence(g).savesBarriers) && base[g] < need)
          base[g] = need, changed = true;
    }
  }
  for (const auto &fp : m_.functions()) {
    unsigned b = base[fp.get()];
    if (b == 0 || reconvergence(fp.get()).barriers == 0) continue;
    if (b + reconvergence(fp.get()).barriers > 16)
      diags_.warning(SourceLoc{}, "'{}' needs more than 16 convergence barriers with its callers'; "
                     "its regions may reuse theirs", fp->name());
    for (ori::BasicBlock *bb : fp->blocks())
      for (ori::Instr *i : *bb)
        if (i->opcode() == Opcode::BSSY || i->opcode() == Opcode::BSYNC)
          i->mods().barrierId = static_cast<uint8_t>(std::min(i->mods().barrierId + b, 15u));
  }
  for (const auto &fp : m_.functions()) {
    const ReconvergenceFacts &facts = reconvergence(fp.get());
    if (!facts.savesBarriers || facts.barriers == 0) continue;
    std::vector<unsigned> used;
    for (unsigned k = 0; k < facts.barriers; ++k) used.push_back(std::min(base[fp.get()] + k, 15u));
    used.erase(std::unique(used.begin(), used.end()), used.end());
    saveBarriers(*fp, used);
    fp->invalidateCFG();
  }
  for (const Site &s : sites) {
    unsigned level = base[s.caller] + s.depth;
    if (!s.bracketed || level >= 16) continue;
    bracket(*s.caller, s.call, level);
    s.caller->invalidateCFG();
  }
}

} // namespace optxas::lower
