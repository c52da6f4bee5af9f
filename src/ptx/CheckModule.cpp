// Checks on the module header (.version/.target against -arch), variable declarations and
// initializers, and function headers (parameters, performance directives).
#include <fmt/format.h>

#include "CheckerImpl.h"

namespace optxas::ptx {
namespace {

std::string versionString(unsigned v) { return fmt::format("{}.{}", v / 10, v % 10); }

bool isPowerOfTwo(uint64_t x) { return x && !(x & (x - 1)); }

} // namespace

// -arch must be able to run code for the module's .target (ptxas 13.0 rules):
//   sm_XY   -> any sm_MN[a|f] with MN >= XY
//   sm_XYa  -> exactly sm_XYa
//   sm_XYf  -> sm_XZ, sm_XZa, sm_XZf of the same family (X) with Z >= Y
void Checker::Impl::checkTarget() {
  if (!m || m->target.archs.empty() || opts.archSm == 0) return;
  unsigned before = diags.errorCount();
  checkTargetAgainstArch();
  terminated = diags.errorCount() != before;
}

void Checker::Impl::checkTargetAgainstArch() {
  const TargetArch &t = m->target.archs[0];
  if (t.prefix == TargetArch::Lto) return;
  TargetArch arch;
  arch.number = opts.archSm;
  arch.suffix = opts.archSuffix;
  arch.prefix = opts.archVirtual ? TargetArch::Compute : TargetArch::SM;
  std::string archName = targetName(arch);
  if (opts.archVirtual) archName = opts.archName;
  if (t.suffix == 'a') {
    if (arch.number > t.number)
      fatal({}, fmt::format("Program with .target '{}' cannot be compiled to future architecture", targetName(t)));
    else if (arch.number < t.number)
      fatal({}, "SM version specified by .target is higher than default SM version assumed");
    else if (arch.suffix != 'a')
      fatal({}, fmt::format("PTX with .target '{}' cannot be compiled for architecture '{}'", targetName(t), archName));
    return;
  }
  if (arch.number < t.number) {
    fatal({}, "SM version specified by .target is higher than default SM version assumed");
    return;
  }
  if (t.suffix == 'f' && arch.number / 10 != t.number / 10)
    fatal({}, fmt::format("Program with .target '{}' cannot be compiled to different SM-family architecture", targetName(t)));
}

void Checker::Impl::finishModule() {
  if (!m) return;
  for (const TargetArch &t : m->target.archs) {
    unsigned need = targetMinPtx(t);
    if (need && m->version() < need) {
      error(m->target.loc, fmt::format("PTX .version {} does not support .target {}", versionString(m->version()), targetName(t)));
      break;
    }
  }
}

void Checker::Impl::checkVariable(const Variable &v) {
  if (v.isParam) return;
  // Independent samplers exist only in texmode_independent modules.
  if (v.type == Type::SamplerRef && m && !m->target.texmodeIndependent)
    error(v.loc, "Instruction or declaration violates .target texmode_unified setting");
  if (v.align && !isPowerOfTwo(v.align)) error(v.loc, "Alignment must be a power of two");
  bool unsized = false;
  for (uint64_t d : v.dims) unsized = unsized || d == 0;
  if (v.init) {
    if (v.space == StateSpace::Shared || v.space == StateSpace::Local || v.space == StateSpace::Reg) {
      error(v.loc, fmt::format("No initial value is allowed for '{}' in this state space", v.name.str()));
      return;
    }
    checkInitializer(v, *v.init, 0);
  } else if (unsized && v.linkage != Linkage::Extern && v.space != StateSpace::Shared) {
    error(v.loc, fmt::format("Non-external variable '{}' has incomplete type", v.name.str()));
  }
  if (m && v.linkage == Linkage::Common && m->version() < 50)
    error(v.loc, "Feature '.common directive' requires PTX ISA .version 5.0 or later");
}

// Initializer values must fit the variable: numbers of the right kind, no more elements than
// the array holds. ptxas treats these as fatal.
void Checker::Impl::checkInitializer(const Variable &v, const Initializer &in, unsigned depth) {
  if (v.type == Type::SamplerRef || v.type == Type::TexRef || v.type == Type::SurfRef) return;
  if (in.kind == InitKind::Aggregate) {
    // The number of elements allowed at this nesting level.
    uint64_t limit = 0;
    if (depth < v.dims.size()) limit = v.dims[depth];
    else if (depth == v.dims.size() && v.vecWidth > 1) limit = v.vecWidth;
    if (limit && in.elems.size() > limit) {
      fatal(in.loc.valid() ? in.loc : v.loc, "Greater number of elements in array initializer");
      return;
    }
    for (const Initializer &e : in.elems) checkInitializer(v, e, depth + 1);
    return;
  }
  if (in.kind == InitKind::Int && isFloat(v.type)) fatal(in.loc.valid() ? in.loc : v.loc, "Initial value type mismatch");
  // Addresses initialize integer variables only (.u64 p = g;), not untyped .bN or floats.
  bool isAddress = in.kind == InitKind::Address || in.kind == InitKind::Generic || in.kind == InitKind::Mask;
  if (isAddress && !isInteger(v.type)) fatal(in.loc.valid() ? in.loc : v.loc, "Initial value type mismatch");
  if (in.kind == InitKind::Float && (isInteger(v.type) || v.type == Type::Pred))
    fatal(in.loc.valid() ? in.loc : v.loc, "Initial value type mismatch");
}

void Checker::Impl::checkFunctionHeader(const Function &f) {
  if (!m) return;
  if (f.isEntry) {
    for (const Variable *p : f.params)
      if (p->space != StateSpace::Param)
        error(p->loc, fmt::format("Entry parameter '{}' must have .param state space", p->name.str()));
  }
  const PerfDirectives &pd = f.perf;
  bool maxntid = pd.maxntid[0] != 0, reqntid = pd.reqntid[0] != 0;
  auto later = [](SourceLoc a, SourceLoc b) { return a.line > b.line || (a.line == b.line && a.col > b.col) ? a : b; };
  if (maxntid && reqntid)
    error(later(pd.maxntidLoc, pd.reqntidLoc), "Conflicting directives: .maxntid and .reqntid cannot both be specified");
  if (pd.reqnctapercluster[0] && pd.maxclusterrank)
    error(later(pd.reqnctaperclusterLoc, pd.maxclusterrankLoc),
          "Conflicting directives: .reqnctapercluster and .maxclusterrank cannot both be specified");
  if (pd.reqnctapercluster[0] || pd.explicitcluster || pd.maxclusterrank) {
    std::string_view which = pd.reqnctapercluster[0] ? ".reqnctapercluster"
                             : pd.explicitcluster ? ".explicitcluster" : ".maxclusterrank";
    gate(f.loc, GateKind::Feature, which, 78, 90);
  }
  if (f.noreturn) {
    gate(f.loc, GateKind::Feature, ".noreturn", 64, 0);
    if (!f.results.empty() || f.isEntry)
      error(f.headerEnd, fmt::format("Invalid directive '.noreturn' for function '{}'", f.name.str()));
  }
  if (f.abiPreserve >= 0) gate(f.loc, GateKind::Feature, ".abi_preserve", 90, 0);
  if (f.abiPreserveControl >= 0) gate(f.loc, GateKind::Feature, ".abi_preserve_control", 90, 0);
  if (pd.blocksareclusters) gate(f.loc, GateKind::Feature, ".blocksareclusters", 90, 90);
}

void Checker::Impl::checkFunctionEnd(const Function &f) {
  if (!m) return;
  // ptxas reports this one at the closing brace, after reading the body.
  const PerfDirectives &pd = f.perf;
  if (pd.minnctapersm && !pd.maxntid[0] && !pd.reqntid[0])
    warning(f.bodyEnd, ".minnctapersm is ignored when neither .maxntid nor .reqntid is specified.");
}

} // namespace optxas::ptx
