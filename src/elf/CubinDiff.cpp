#include "optxas/elf/CubinDiff.h"

#include "optxas/elf/CubinPrinter.h"
#include "optxas/elf/CubinReader.h"
#include "optxas/elf/ElfFormat.h"
#include "optxas/elf/ElfImage.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace optxas::elf {

bool isCodeOffsetAttribute(NvInfoKind k) {
  using K = NvInfoKind;
  switch (k) {
  case K::EXIT_INSTR_OFFSETS:
  case K::S2RCTAID_INSTR_OFFSETS:
  case K::COOP_GROUP_INSTR_OFFSETS:
  case K::COOP_GROUP_MASK_REGIDS:
  case K::INT_WARP_WIDE_INSTR_OFFSETS:
  case K::SYSCALL_OFFSETS:
  case K::INDIRECT_BRANCH_TARGETS:
  case K::LD_CACHEMOD_INSTR_OFFSETS:
  case K::ATOM_SYS_INSTR_OFFSETS:
  case K::ATOMF16_EMUL_INSTR_OFFSETS:
  case K::ATOM16_EMUL_INSTR_REG_MAP:
  case K::MBARRIER_INSTR_OFFSETS:
  case K::COROUTINE_RESUME_ID_OFFSETS:
  case K::BINDLESS_IMAGE_OFFSETS:
  case K::STACK_CANARY_TRAP_OFFSETS:
  case K::LOCAL_CTA_ASYNC_STORE_OFFSETS:
  case K::IGNOREOOB_CP_ASYNC_BULK_INSTR_OFFSETS:
  case K::INSTR_OFFSETS:
  case K::INSTR_REG_MAP:
  case K::UNUSED_LOAD_BYTE_OFFSET:
  case K::JUMPTABLE_RELOCS: return true;
  default: return false;
  }
}

namespace {

class Differ {
public:
  Differ(const DiffOptions &o, std::vector<Difference> &out) : o_(o), out_(out) {}

  void add(const std::string &where, const std::string &what) { out_.push_back({where, what}); }
  template <typename T> void field(const std::string &where, const char *name, const T &a, const T &b) {
    if (!(a == b)) add(where, fmt::format("{}: {} vs {}", name, a, b));
  }
  template <typename T>
  void optField(const std::string &where, const char *name, const std::optional<T> &a, const std::optional<T> &b) {
    auto s = [](const std::optional<T> &v) { return v ? fmt::format("{:#x}", *v) : std::string("absent"); };
    if (a != b) add(where, fmt::format("{}: {} vs {}", name, s(a), s(b)));
  }

  void module(const Cubin &a, const Cubin &b);
  void function(const Function &a, const Function &b);
  void attributes(const std::string &where, const Function &a, const Function &b);
  void relocations(const std::string &where, const std::vector<Relocation> &a, const std::vector<Relocation> &b,
                   bool inCode);
  void variables(const Cubin &a, const Cubin &b);
  void data(const Cubin &a, const Cubin &b);

private:
  const DiffOptions &o_;
  std::vector<Difference> &out_;
};

void Differ::module(const Cubin &a, const Cubin &b) {
  field("module", "target", a.target.name(), b.target.name());
  field("module", "ELF type", std::string(a.kind == ObjectKind::Executable ? "EXEC" : "REL"),
        std::string(b.kind == ObjectKind::Executable ? "EXEC" : "REL"));
  if (a.headerFlagsHigh != b.headerFlagsHigh)
    add("module", fmt::format("e_flags bits 24-31: {:#x} vs {:#x}", a.headerFlagsHigh, b.headerFlagsHigh));
  field("module", "cuinfo virtual SM", a.cudaNote.virtualSm, b.cudaNote.virtualSm);
  field("module", "cuinfo toolkit version", a.cudaNote.toolkitVersion, b.cudaNote.toolkitVersion);
  field("module", "cuinfo note version", a.cudaNote.noteVersion, b.cudaNote.noteVersion);
  if (!o_.ignoreToolkitNote && !(a.toolkit == b.toolkit))
    add("module", fmt::format(".note.nv.tkinfo: \"{} {} {}\" vs \"{} {} {}\"", a.toolkit.toolName,
                              a.toolkit.toolVersion, a.toolkit.commandLine, b.toolkit.toolName, b.toolkit.toolVersion,
                              b.toolkit.commandLine));
  // .nv.compat by kind.
  std::map<uint8_t, NvInfoRecord> ca, cb;
  for (const auto &r : a.compat) ca[r.kind] = r;
  for (const auto &r : b.compat) cb[r.kind] = r;
  std::set<uint8_t> kinds;
  for (auto &[k, v] : ca) kinds.insert(k);
  for (auto &[k, v] : cb) kinds.insert(k);
  for (uint8_t k : kinds) {
    auto ia = ca.find(k), ib = cb.find(k);
    std::string n = compatKindName(k);
    if (ia == ca.end()) add(".nv.compat", n + ": missing in A");
    else if (ib == cb.end()) add(".nv.compat", n + ": missing in B");
    else if (!(ia->second == ib->second)) add(".nv.compat", n + ": values differ");
  }
  // Functions by name.
  std::map<std::string, const Function *> fa, fb;
  for (const auto &f : a.functions) fa[f.name] = &f;
  for (const auto &f : b.functions) fb[f.name] = &f;
  for (const auto &[n, f] : fa)
    if (!fb.count(n)) add("function " + n, "missing in B");
  for (const auto &[n, f] : fb)
    if (!fa.count(n)) add("function " + n, "missing in A");
  for (const auto &[n, f] : fa)
    if (auto it = fb.find(n); it != fb.end()) function(*f, *it->second);
  variables(a, b);
  data(a, b);
}

void Differ::function(const Function &a, const Function &b) {
  std::string w = "function " + a.name;
  field(w, "kind", std::string(a.isKernel() ? "kernel" : "device"), std::string(b.isKernel() ? "kernel" : "device"));
  field(w, "binding", std::string(a.weak ? "weak" : a.global ? "global" : "local"),
        std::string(b.weak ? "weak" : b.global ? "global" : "local"));
  field(w, "visibility", a.visibility, b.visibility);
  if (!o_.ignoreCode) {
    field(w, "code size", a.code.size(), b.code.size());
    if (a.code.size() == b.code.size() && a.code != b.code) add(w, "code bytes differ");
  }
  if (!o_.ignoreResources) {
    field(w, "EIATTR_REGCOUNT", a.registerCount, b.registerCount);
    field(w, "EIATTR_FRAME_SIZE", a.frameSize, b.frameSize);
    optField(w, "EIATTR_MIN_STACK_SIZE", a.minStackSize, b.minStackSize);
    optField(w, "EIATTR_MAX_STACK_SIZE", a.maxStackSize, b.maxStackSize);
  } else {
    if (a.minStackSize.has_value() != b.minStackSize.has_value()) add(w, "EIATTR_MIN_STACK_SIZE presence differs");
    if (a.maxStackSize.has_value() != b.maxStackSize.has_value()) add(w, "EIATTR_MAX_STACK_SIZE presence differs");
  }
  field(w, "EIATTR_GEN_ERRBAR_AT_EXIT", a.genErrbarAtExit, b.genErrbarAtExit);
  // Parameters by ordinal.
  field(w, "EIATTR_CBANK_PARAM_SIZE", a.paramBlockSize, b.paramBlockSize);
  std::map<unsigned, const KernelParam *> pa, pb;
  for (const auto &p : a.params) pa[p.ordinal] = &p;
  for (const auto &p : b.params) pb[p.ordinal] = &p;
  for (const auto &[k, p] : pa) {
    auto it = pb.find(k);
    if (it == pb.end()) add(w, fmt::format("EIATTR_KPARAM_INFO #{}: missing in B", k));
    else if (!(*p == *it->second))
      add(w, fmt::format("EIATTR_KPARAM_INFO #{}: {} vs {}", k, formatKernelParam(*p), formatKernelParam(*it->second)));
  }
  for (const auto &[k, p] : pb)
    if (!pa.count(k)) add(w, fmt::format("EIATTR_KPARAM_INFO #{}: missing in A", k));
  attributes(w, a, b);
  // Subroutines by name.
  std::map<std::string, const Subroutine *> sa, sb;
  for (const auto &s : a.subroutines) sa[s.name] = &s;
  for (const auto &s : b.subroutines) sb[s.name] = &s;
  for (const auto &[n, s] : sa) {
    auto it = sb.find(n);
    if (it == sb.end()) {
      add(w, "subroutine " + n + ": missing in B");
      continue;
    }
    const Subroutine &t = *it->second;
    if (!o_.ignoreCode && (s->offset != t.offset || s->size != t.size))
      add(w, fmt::format("subroutine {}: at {:#x}+{:#x} vs {:#x}+{:#x}", n, s->offset, s->size, t.offset, t.size));
    if (!o_.ignoreResources && s->frameSize != t.frameSize)
      add(w, fmt::format("subroutine {}: EIATTR_FRAME_SIZE {:#x} vs {:#x}", n, s->frameSize, t.frameSize));
    if (s->weak != t.weak || s->global != t.global) add(w, "subroutine " + n + ": binding differs");
  }
  for (const auto &[n, s] : sb)
    if (!sa.count(n)) add(w, "subroutine " + n + ": missing in A");
  optField(w, ".nv.shared size", a.sharedSize, b.sharedSize);
  if (a.sharedSize && b.sharedSize) field(w, ".nv.shared alignment", a.sharedAlign, b.sharedAlign);
  field(w, "static shared variables", a.staticShared, b.staticShared);
  field(w, "shared placeholder symbol", a.sharedPlaceholder, b.sharedPlaceholder);
  if (a.constant2.has_value() != b.constant2.has_value())
    add(w, std::string(".nv.constant2: missing in ") + (a.constant2 ? "B" : "A"));
  else if (a.constant2 && *a.constant2 != *b.constant2)
    add(w, fmt::format(".nv.constant2: contents differ ({} vs {} bytes)", a.constant2->size(), b.constant2->size()));
  relocations(w + " .text", a.relocations, b.relocations, true);
  relocations(w + " .nv.constant2", a.constant2Relocations, b.constant2Relocations, false);
  if (!(a.resolved == b.resolved)) add(w, "relocations resolved by the assembler differ");
}

void Differ::attributes(const std::string &w, const Function &a, const Function &b) {
  // Attributes by kind; kinds that repeat are compared as lists.
  std::map<uint8_t, std::vector<const Attribute *>> ma, mb;
  for (const auto &x : a.attributes) ma[static_cast<uint8_t>(x.kind)].push_back(&x);
  for (const auto &x : b.attributes) mb[static_cast<uint8_t>(x.kind)].push_back(&x);
  std::set<uint8_t> kinds;
  for (auto &[k, v] : ma) kinds.insert(k);
  for (auto &[k, v] : mb) kinds.insert(k);
  for (uint8_t k : kinds) {
    std::string n = nvInfoKindName(k);
    auto &va = ma[k], &vb = mb[k];
    if (va.empty()) {
      add(w, n + ": missing in A (B has " + formatAttribute(*vb[0]) + ")");
      continue;
    }
    if (vb.empty()) {
      add(w, n + ": missing in B (A has " + formatAttribute(*va[0]) + ")");
      continue;
    }
    if (o_.ignoreCode && isCodeOffsetAttribute(static_cast<NvInfoKind>(k))) continue;
    if (va.size() != vb.size()) {
      add(w, fmt::format("{}: {} records vs {}", n, va.size(), vb.size()));
      continue;
    }
    for (size_t i = 0; i < va.size(); ++i)
      if (!(*va[i] == *vb[i])) add(w, formatAttribute(*va[i]) + " vs " + formatAttribute(*vb[i]).substr(n.size() + 1));
  }
}

void Differ::relocations(const std::string &w, const std::vector<Relocation> &a, const std::vector<Relocation> &b,
                         bool inCode) {
  // As multisets; code offsets are ignored with ignoreCode.
  auto key = [&](const Relocation &r) {
    Relocation k = r;
    if (inCode && o_.ignoreCode) k.offset = 0;
    return formatRelocation(k);
  };
  std::map<std::string, int> count;
  for (const auto &r : a) ++count[key(r)];
  for (const auto &r : b) --count[key(r)];
  for (const auto &[k, n] : count) {
    if (n > 0) add(w, fmt::format("relocation {}: {} more in A", k, n));
    if (n < 0) add(w, fmt::format("relocation {}: {} more in B", k, -n));
  }
}

void Differ::variables(const Cubin &a, const Cubin &b) {
  std::map<std::string, const Variable *> va, vb;
  for (const auto &v : a.variables) va[v.name] = &v;
  for (const auto &v : b.variables) vb[v.name] = &v;
  for (const auto &[n, v] : va) {
    auto it = vb.find(n);
    if (it == vb.end()) {
      add("variable " + n, "missing in B");
      continue;
    }
    const Variable &u = *it->second;
    std::string w = "variable " + n;
    field(w, "space", static_cast<int>(v->space), static_cast<int>(u.space));
    field(w, "owner", v->owner, u.owner);
    field(w, "offset", v->offset, u.offset);
    field(w, "size", v->size, u.size);
    field(w, "global binding", v->global, u.global);
  }
  for (const auto &[n, v] : vb)
    if (!va.count(n)) add("variable " + n, "missing in A");
  std::map<std::string, const ExternalSymbol *> ea, eb;
  for (const auto &e : a.externals) ea[e.name] = &e;
  for (const auto &e : b.externals) eb[e.name] = &e;
  for (const auto &[n, e] : ea)
    if (!eb.count(n)) add("external " + n, "missing in B");
    else if (!(*e == *eb[n])) add("external " + n, "kind, binding or size differs");
  for (const auto &[n, e] : eb)
    if (!ea.count(n)) add("external " + n, "missing in A");
}

void Differ::data(const Cubin &a, const Cubin &b) {
  std::map<unsigned, const ConstantBank *> ba, bb;
  for (const auto &x : a.constantBanks) ba[x.bank] = &x;
  for (const auto &x : b.constantBanks) bb[x.bank] = &x;
  for (const auto &[n, x] : ba) {
    std::string w = fmt::format(".nv.constant{}", n);
    auto it = bb.find(n);
    if (it == bb.end()) {
      add(w, "missing in B");
      continue;
    }
    if (x->data != it->second->data) add(w, fmt::format("contents differ ({} vs {} bytes)", x->data.size(), it->second->data.size()));
    field(w, "alignment", x->align, it->second->align);
    relocations(w, x->relocations, it->second->relocations, false);
  }
  for (const auto &[n, x] : bb)
    if (!ba.count(n)) add(fmt::format(".nv.constant{}", n), "missing in A");
  optField(".nv.global", "size", a.globalSize, b.globalSize);
  if (a.globalInit.has_value() != b.globalInit.has_value())
    add(".nv.global.init", std::string("missing in ") + (a.globalInit ? "B" : "A"));
  else if (a.globalInit && *a.globalInit != *b.globalInit)
    add(".nv.global.init", "contents differ");
  relocations(".nv.global.init", a.globalInitRelocations, b.globalInitRelocations, false);
  optField(".nv.shared.reserved.0", "size", a.reservedSharedSize, b.reservedSharedSize);
  std::set<std::string> ra, rb;
  for (const auto &r : a.reservedSymbols) ra.insert(r.name);
  for (const auto &r : b.reservedSymbols) rb.insert(r.name);
  for (const auto &n : ra)
    if (!rb.count(n)) add("symbol " + n, "missing in B");
  for (const auto &n : rb)
    if (!ra.count(n)) add("symbol " + n, "missing in A");
  auto pairs = [&](const char *what, const std::vector<CallGraph::Pair> &x, const std::vector<CallGraph::Pair> &y) {
    std::multiset<std::pair<std::string, std::string>> sx, sy;
    for (const auto &p : x) sx.insert({p.first, p.second});
    for (const auto &p : y) sy.insert({p.first, p.second});
    for (const auto &p : sx)
      if (!sy.count(p)) add(".nv.callgraph", fmt::format("{} {} {}: missing in B", what, p.first, p.second));
    for (const auto &p : sy)
      if (!sx.count(p)) add(".nv.callgraph", fmt::format("{} {} {}: missing in A", what, p.first, p.second));
  };
  pairs("call", a.callGraph.calls, b.callGraph.calls);
  pairs("address-taken", a.callGraph.addressTaken, b.callGraph.addressTaken);
  pairs("indirect call", a.callGraph.indirectCalls, b.callGraph.indirectCalls);
  pairs("indirect target", a.callGraph.indirectTargets, b.callGraph.indirectTargets);
  std::map<std::string, std::string> pa, pb;
  for (const auto &p : a.prototypes) pa[p.symbol] = p.prototype;
  for (const auto &p : b.prototypes) pb[p.symbol] = p.prototype;
  for (const auto &[s, p] : pa)
    if (!pb.count(s)) add(".nv.prototype", s + ": missing in B");
    else if (pb[s] != p) add(".nv.prototype", fmt::format("{}: {} vs {}", s, p, pb[s]));
  for (const auto &[s, p] : pb)
    if (!pa.count(s)) add(".nv.prototype", s + ": missing in A");
  // Debug sections by name; contents only when not ignoring code.
  std::map<std::string, const DebugSection *> da, db;
  for (const auto &d : a.debugSections) da[d.name] = &d;
  for (const auto &d : b.debugSections) db[d.name] = &d;
  for (const auto &[n, d] : da) {
    auto it = db.find(n);
    if (it == db.end()) add("section " + n, "missing in B");
    else if (!o_.ignoreCode && (d->data != it->second->data || !(d->relocations == it->second->relocations)))
      add("section " + n, fmt::format("contents or relocations differ ({} vs {} bytes)", d->data.size(),
                                      it->second->data.size()));
  }
  for (const auto &[n, d] : db)
    if (!da.count(n)) add("section " + n, "missing in A");
  if (!o_.ignoreCode) {
    std::map<std::string, const MercurySection *> ma, mb;
    for (const auto &m : a.mercury) ma[m.name] = &m;
    for (const auto &m : b.mercury) mb[m.name] = &m;
    for (const auto &[n, m] : ma)
      if (!mb.count(n)) add("section " + n, "missing in B");
      else if (!(*m == *mb[n])) add("section " + n, "contents differ");
    for (const auto &[n, m] : mb)
      if (!ma.count(n)) add("section " + n, "missing in A");
  }
}

// What the ELF level adds: the set of section names and the symbol table's names and kinds.
void elfLevel(const ElfImage &a, const ElfImage &b, const DiffOptions &o, std::vector<Difference> &out) {
  auto isCode = [](const std::string &n) {
    return n.starts_with(".nv.merc.") || n.starts_with(".nv.capmerc.") || n.starts_with(".nv_debug") ||
           n.starts_with(".debug_");
  };
  std::map<std::string, const ElfSection *> sa, sb;
  for (const auto &s : a.sections) sa[s.name] = &s;
  for (const auto &s : b.sections) sb[s.name] = &s;
  for (const auto &[n, s] : sa) {
    auto it = sb.find(n);
    if (it == sb.end()) {
      if (!(o.ignoreCode && isCode(n))) out.push_back({"section " + n, "missing in B"});
      continue;
    }
    const ElfSection &t = *it->second;
    if (s->type != t.type || s->flags != t.flags || s->align != t.align || s->entsize != t.entsize)
      out.push_back({"section " + n, fmt::format("type/flags/align/entsize {:#x}/{:#x}/{}/{} vs {:#x}/{:#x}/{}/{}",
                                                 s->type, s->flags, s->align, s->entsize, t.type, t.flags, t.align,
                                                 t.entsize)});
  }
  for (const auto &[n, s] : sb)
    if (!sa.count(n) && !(o.ignoreCode && isCode(n))) out.push_back({"section " + n, "missing in A"});
  int ia = a.findSection(".symtab"), ib = b.findSection(".symtab");
  int ta = a.findSection(".strtab"), tb = b.findSection(".strtab");
  if (ia < 0 || ib < 0 || ta < 0 || tb < 0) return;
  std::map<std::string, ElfSymbol> ya, yb;
  for (const auto &y : decodeSymbols(a.sections[ia], a.sections[ta]))
    if (!y.name.empty()) ya[y.name] = y;
  for (const auto &y : decodeSymbols(b.sections[ib], b.sections[tb]))
    if (!y.name.empty()) yb[y.name] = y;
  for (const auto &[n, y] : ya) {
    auto it = yb.find(n);
    if (it == yb.end()) {
      out.push_back({"symbol " + n, "missing in B"});
      continue;
    }
    const ElfSymbol &z = it->second;
    if (y.info != z.info || y.other != z.other)
      out.push_back({"symbol " + n, fmt::format("info/other {:#x}/{:#x} vs {:#x}/{:#x}", y.info, y.other, z.info, z.other)});
    bool codeSized = symType(y.info) == STT_FUNC;
    if (y.size != z.size && !(o.ignoreCode && codeSized))
      out.push_back({"symbol " + n, fmt::format("size {:#x} vs {:#x}", y.size, z.size)});
  }
  for (const auto &[n, y] : yb)
    if (!ya.count(n)) out.push_back({"symbol " + n, "missing in A"});
}

} // namespace

std::vector<Difference> diffCubins(const Cubin &a, const Cubin &b, const DiffOptions &options) {
  std::vector<Difference> out;
  Differ d(options, out);
  d.module(a, b);
  return out;
}

std::optional<std::vector<Difference>> diffCubinFiles(std::span<const uint8_t> a, std::span<const uint8_t> b,
                                                      const DiffOptions &options, std::string &error) {
  ElfImage ia, ib;
  if (auto e = parseElf(a, ia)) return error = "A: " + *e, std::nullopt;
  if (auto e = parseElf(b, ib)) return error = "B: " + *e, std::nullopt;
  std::vector<Difference> out;
  elfLevel(ia, ib, options, out);
  // A cubin the model cannot represent is still compared at the ELF level; the reason is reported.
  Cubin ca, cb;
  auto ea = readCubin(a, ca), eb = readCubin(b, cb);
  if (ea) out.push_back({"model", "A not fully understood: " + *ea});
  if (eb) out.push_back({"model", "B not fully understood: " + *eb});
  if (!ea && !eb) {
    auto more = diffCubins(ca, cb, options);
    for (auto &d : more) { // the ELF level may already have said it
      bool seen = false;
      for (const auto &e : out) seen |= e.where == d.where && e.what == d.what;
      if (!seen) out.push_back(std::move(d));
    }
  }
  return out;
}

} // namespace optxas::elf
