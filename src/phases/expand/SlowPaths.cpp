// Slow paths as subroutines (ExpandMacros.h): which runtime routine each macro calls, the
// subroutines themselves (made before the phase schedule, so that every phase sees them as
// ordinary functions), and the call a site makes.
//
// Routine names are ptxas 13.0's (read from its cubins, docs/lowering-fp.md); the bodies are the
// general algorithms of FloatDivide.cpp, FloatSqrt.cpp and IntDivide.cpp. The calling convention
// is optxas's one for every .func (docs/abi.md): arguments in R4 upwards (a 64-bit value in an
// aligned pair), the result in R4 (R4:R5).
#include "optxas/phases/ExpandMacros.h"

#include <map>
#include <tuple>

#include <fmt/format.h>

#include "Site.h"

namespace optxas::phases {

namespace {

const char *roundName(isa::Round r) {
  switch (r) {
  case isa::Round::None:
  case isa::Round::RN: return "rn";
  case isa::Round::RZ: return "rz";
  case isa::Round::RM: return "rd";
  case isa::Round::RP: return "ru";
  default: return nullptr;
  }
}

unsigned numArgs(ori::MacroKind k) {
  switch (k) {
  case ori::MacroKind::RCP_F32:
  case ori::MacroKind::RCP_F64:
  case ori::MacroKind::SQRT_F32:
  case ori::MacroKind::SQRT_F64:
  case ori::MacroKind::RSQRT_F64: return 1;
  default: return 2;
  }
}

// The ptxas runtime routine a function was made for, or null.
ori::Function *subroutineFor(ori::Module &m, const std::string &routine) {
  for (const auto &f : m.functions())
    if (f->attrs.slowPathRoutine == routine) return f.get();
  return nullptr;
}

struct Need {
  ori::MacroKind kind;
  isa::Round round;
  bool ftz;
};

} // namespace

ori::Function &expand::createRoutineFunction(ori::Module &m, const std::string &name,
                                             const std::string &routine, bool localSymbol) {
  ori::Function &f = m.createFunction(name, false);
  f.attrs.linkage = localSymbol ? ori::Linkage::Internal : ori::Linkage::Weak;
  f.attrs.slowPathRoutine = routine;
  ori::Symbol sym;
  sym.name = name;
  sym.kind = ori::SymbolKind::Function;
  sym.isVisible = false;
  m.addSymbol(std::move(sym));
  return f;
}

namespace {

void buildSubroutine(ori::Module &m, const std::string &name, const std::string &routine, const Need &n,
                     const SlowPathOptions &opts) {
  using namespace expand;
  const bool separate = opts.separateFunctions;
  ori::Function &f = createRoutineFunction(m, name, routine, opts.localSymbols);

  const unsigned words = macroIsWide(n.kind) ? 2 : 1;
  Emitter E(f);
  E.setBlock(f.createBlock());
  // Arguments: precolored R4.. defined at entry, copied out at once (short precolored ranges).
  std::vector<Operand> args;
  unsigned reg = 4;
  for (unsigned a = 0; a < numArgs(n.kind); ++a, reg += words) {
    ori::VRegId pre = f.newVReg(RegClass::R, words, 1);
    f.vreg(pre).phys = static_cast<int32_t>(reg);
    E.emit(Opcode::PSEUDO_PARAM, {f.regOp(pre)}, {});
    Operand v = words == 2 ? E.r2() : E.r();
    E.copyTo(v, f.regOp(pre));
    args.push_back(v);
    ori::ParamInfo p;
    p.name = fmt::format("arg{}", a);
    p.offset = reg;
    p.size = 4 * words;
    p.align = 4 * words;
    f.attrs.params.push_back(p);
  }
  Operand d = words == 2 ? E.r2() : E.r();
  switch (n.kind) {
  case ori::MacroKind::DIV_F32:
  case ori::MacroKind::DIV_F64:
  case ori::MacroKind::RCP_F32:
  case ori::MacroKind::RCP_F64: floatDivideBody(E, n.kind, n.round, n.ftz, args, d); break;
  case ori::MacroKind::SQRT_F32:
  case ori::MacroKind::SQRT_F64:
  case ori::MacroKind::RSQRT_F64: floatSqrtBody(E, n.kind, n.round, n.ftz, args, d); break;
  default: intDivideBody(E, n.kind, args, d); break;
  }
  ori::VRegId res = f.newVReg(RegClass::R, words, 1);
  f.vreg(res).phys = 4;
  E.copyTo(f.regOp(res), d);
  ori::ParamInfo r;
  r.name = "result";
  r.offset = 4;
  r.size = 4 * words;
  r.align = 4 * words;
  f.attrs.results.push_back(r);
  Instr *ret = E.emit(Opcode::RET, {}, {f.regOp(res)});
  // Debug builds and -c: the routine is a function of its own, reached by absolute address.
  if (separate) ret->mods().absolute = true;
}

} // namespace

std::string slowPathRoutine(ori::MacroKind kind, isa::Round round, bool ftz) {
  const char *r = roundName(round);
  if (!r) return {};
  const bool rn = std::string_view(r) == "rn";
  const char *z = ftz ? "_ftz" : "";
  switch (kind) {
  case ori::MacroKind::DIV_F32:
    if (rn) return ftz ? "__cuda_sm3x_div_rn_ftz_f32_slowpath" : "__cuda_sm3x_div_rn_noftz_f32_slowpath";
    return fmt::format("__cuda_sm20_div_{}{}_f32", r, z);
  case ori::MacroKind::RCP_F32: return fmt::format("__cuda_sm20_rcp_{}{}_f32_slowpath", r, z);
  case ori::MacroKind::SQRT_F32: return fmt::format("__cuda_sm20_sqrt_{}{}_f32_slowpath", r, z);
  case ori::MacroKind::DIV_F64: return rn ? "__cuda_sm20_div_rn_f64_full" : fmt::format("__cuda_sm20_div_{}_f64_v2", r);
  case ori::MacroKind::RCP_F64: return rn ? "__cuda_sm20_dblrcp_rn_slowpath_v3" : fmt::format("__cuda_sm20_rcp_{}_f64", r);
  case ori::MacroKind::SQRT_F64:
    return rn ? "__cuda_sm20_dsqrt_rn_f64_mediumpath_v1" : fmt::format("__cuda_sm20_dsqrt_{}_f64", r);
  case ori::MacroKind::RSQRT_F64: return ftz ? "" : "__cuda_sm20_drsqrt_f64_slowpath_v2";
  case ori::MacroKind::DIV_S64: return "__cuda_sm20_div_s64";
  case ori::MacroKind::DIV_U64: return "__cuda_sm20_div_u64";
  case ori::MacroKind::REM_S64: return "__cuda_sm20_rem_s64";
  case ori::MacroKind::REM_U64: return "__cuda_sm20_rem_u64";
  default: return {};
  }
}

unsigned createSlowPathSubroutines(ori::Module &m, const SlowPathOptions &opts) {
  if (opts.regLimit && opts.regLimit < kMinCallRegs) return 0;
  std::map<std::string, Need> needed;   // by routine name: ptxas numbers them in name order
  for (const auto &f : m.functions())
    for (ori::BasicBlock *bb : f->blocks())
      for (ori::Instr *i : *bb) {
        if (i->opcode() != isa::Opcode::PSEUDO_MACRO) continue;
        isa::Round rnd = i->mods().round == isa::Round::None ? isa::Round::RN : i->mods().round;
        std::string routine = slowPathRoutine(i->macro(), rnd, i->mods().ftz);
        if (!routine.empty() && !subroutineFor(m, routine)) needed.emplace(routine, Need{i->macro(), rnd, i->mods().ftz});
      }
  unsigned n = 0;
  for (const auto &[routine, need] : needed) {
    std::string name = opts.separateFunctions ? routine : fmt::format("$__internal_{}_${}", n, routine);
    buildSubroutine(m, name, routine, need, opts);
    ++n;
  }
  // ptxas's warp-sync routines (__cuda_sm70_*) sort after these (__cuda_sm20_*, __cuda_sm3x_*).
  if (opts.warpSyncRoutines) n += createWarpSyncSubroutines(m, opts, n);
  return n;
}

namespace expand {

bool Site::callSlowPath(std::initializer_list<Operand> args) {
  if (generalOnly_) return false;
  ori::Function &caller = E.fn();
  ori::Module *m = caller.parent();
  if (!m) return false;
  std::string routine = slowPathRoutine(macro_->macro(), round(), ftz());
  ori::Function *callee = routine.empty() ? nullptr : subroutineFor(*m, routine);
  if (!callee || callee == &caller) return false;
  if (caller.attrs.maxnreg && caller.attrs.maxnreg < kMinCallRegs) return false;
  int sym = m->findSymbol(callee->name());
  if (sym < 0) return false;
  bool absolute = false;
  for (ori::BasicBlock *bb : callee->blocks())
    for (ori::Instr *i : *bb)
      if (i->opcode() == Opcode::RET) absolute = i->mods().absolute;

  const unsigned words = macroIsWide(macro_->macro()) ? 2 : 1;
  std::vector<Operand> argRegs;
  unsigned reg = 4;
  for (const Operand &a : args) {
    ori::VRegId pre = caller.newVReg(RegClass::R, words, 1);
    caller.vreg(pre).phys = static_cast<int32_t>(reg);
    reg += words;
    if (words == 1) {
      E.copyTo(caller.regOp(pre), a);
    } else {
      // Gathered in an ordinary pair and copied whole, as lower/Calls.cpp does.
      Operand g = E.r2();
      E.copyTo(E.lo(g), E.lo(a));
      E.copyTo(E.hi(g), E.hi(a));
      E.copyTo(caller.regOp(pre), g);
    }
    argRegs.push_back(caller.regOp(pre));
  }
  ori::VRegId res = caller.newVReg(RegClass::R, words, 1);
  caller.vreg(res).phys = 4;
  Instr *call = E.emit(Opcode::CALL, {}, {Operand::symbol(static_cast<uint32_t>(sym))});
  if (absolute) call->mods().absolute = true;
  for (const Operand &a : argRegs) call->addUse(a);
  call->addDef(caller.regOp(res));
  E.copyTo(def_, caller.regOp(res));
  slowPath_ = true;
  return true;
}

} // namespace expand
} // namespace optxas::phases
