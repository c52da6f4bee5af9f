// The back end linked into this build: for the checked modules of one program,
//   1. lower::lowerProgram    PTX AST -> Ori IR (SASS opcodes on virtual registers)
//   2. compileOriModule       the phase schedule (with allocation, control bits, encoding),
//                             the -v report and the cubin (OriBackEnd.h)
// Errors go through `diags`; on any error no cubin is returned (the driver writes no file).
#include "optxas/api/Compiler.h"
#include "optxas/api/OriBackEnd.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <sys/stat.h>

#include "optxas/codegen/CubinAssembly.h"
#include "optxas/knobs/Knobs.h"
#include "optxas/lower/Lower.h"
#include "optxas/ori/Module.h"
#include "optxas/target/MachineModel.h"

namespace optxas::api {

namespace {

// The call prototype of a function as ptxas spells it in .nv.prototype (docs/abi.md).
std::string prototypeOf(const ptx::Function &f) {
  auto code = [](const ptx::Variable *v) -> std::string {
    if (v->elementCount() != 1) return fmt::format("b{}", v->sizeInBytes());
    bool fp = ptx::isFloat(v->type);
    switch (ptx::typeBytes(v->type)) {
    case 1: return "b";
    case 2: return "h";
    case 4: return fp ? "f" : "i";
    case 8: return fp ? "d" : "l";
    default: return fmt::format("b{}", v->sizeInBytes());
    }
  };
  std::string p = "#";
  if (f.results.empty()) p += "v";
  for (const ptx::Variable *r : f.results) p += code(r);
  for (const ptx::Variable *a : f.params) p += code(a);
  return p;
}

// What the cubin records about the declarations that lowering does not carry into Ori.
codegen::PtxDeclarations declarationsOf(std::span<const ptx::Module *const> modules) {
  codegen::PtxDeclarations d;
  for (const ptx::Module *pm : modules) {
    if (!pm) continue;
    for (const ptx::Function *f : pm->functions) {
      if (!f->isEntry) d.prototypes.emplace(std::string(f->name.str()), prototypeOf(*f));
      for (const ptx::Instruction *i : f->instructions) {
        if (i->op == ptx::Opcode::Wmma) d.wmma.insert(std::string(f->name.str()));
        if (i->op == ptx::Opcode::Mma && (i->has(ptx::Mod::Sp) || i->has(ptx::Mod::SpOrderedMetadata)))
          d.sparseMma.insert(std::string(f->name.str()));
        if (i->op == ptx::Opcode::Txq || i->op == ptx::Opcode::Suq) d.textureQueries = true;
        if (i->op == ptx::Opcode::Alloca || i->op == ptx::Opcode::Stackrestore) d.movesStack.insert(std::string(f->name.str()));
      }
    }
    for (const ptx::Variable *v : pm->globals)
      if (v->attrs.managed) d.managed.insert(std::string(v->name.str()));
  }
  return d;
}

// The PTX line of the first instruction after a label (0: none, the function's end).
uint32_t lineAfter(const ptx::Label &l) {
  if (!l.owner || l.instrIndex >= l.owner->instructions.size()) return 0;
  return l.owner->instructions[l.instrIndex]->loc.line;
}

const ptx::Label *labelNamed(const ptx::Function *f, std::string_view name) {
  if (!f) return nullptr;
  for (const ptx::Label *l : f->labels)
    if (l->name.str() == name) return l;
  return nullptr;
}

// The DWARF sections of debug-build PTX (`.section .debug_info { ... }`) as bytes plus the
// places holding label addresses, which the cubin writer resolves (codegen/DwarfSections.cpp).
std::vector<codegen::DwarfSectionInput> dwarfInputs(std::span<const ptx::Module *const> modules) {
  std::vector<codegen::DwarfSectionInput> out;
  for (const ptx::Module *pm : modules) {
    if (!pm) continue;
    // Labels are function-scoped; the sections name them at module scope (NVVM numbers them
    // uniquely per module).
    std::map<std::string_view, const ptx::Label *> labels;
    for (const ptx::Function *f : pm->functions)
      for (const ptx::Label *l : f->labels) labels.emplace(l->name.str(), l);
    for (const ptx::DwarfSection &ds : pm->sections) {
      std::string name(ds.name.str());
      auto it = std::find_if(out.begin(), out.end(), [&](const auto &x) { return x.name == name; });
      codegen::DwarfSectionInput &sec = it != out.end() ? *it : out.emplace_back();
      sec.name = name;
      for (const ptx::SectionItem &item : ds.items) {
        if (item.kind != ptx::SectionItem::Data) continue;
        unsigned width = ptx::typeBytes(item.width);
        for (const ptx::Initializer &v : item.values) {
          uint64_t at = sec.bytes.size(), bits = v.kind == ptx::InitKind::Int ? v.bits : 0;
          const ptx::Label *label = nullptr;
          if (v.kind == ptx::InitKind::Address) {
            if (v.sym && v.sym->kind == ptx::DeclKind::Label) label = static_cast<const ptx::Label *>(v.sym);
            else if (auto it = labels.find(v.symName.str()); !v.sym && it != labels.end()) label = it->second;
          }
          if (v.kind == ptx::InitKind::Address && !label) {
            // A variable's address or an offset into a DWARF section.
            const auto *var = v.sym && v.sym->kind == ptx::DeclKind::Variable ? static_cast<const ptx::Variable *>(v.sym)
                                                                              : nullptr;
            bool global = var && (var->space == ptx::StateSpace::Global || var->space == ptx::StateSpace::Const);
            if (global || (!v.sym && v.symName.str().starts_with(".debug_"))) {
              codegen::DwarfLabelRef r;
              r.offset = at;
              r.width = width;
              r.symbol = std::string(v.symName.str());
              r.addend = v.offset;
              sec.refs.push_back(r);
            }
          }
          if (label) {
            const ptx::Label &l = *label;
            if (l.owner) {
              codegen::DwarfLabelRef r;
              r.offset = at;
              r.width = width;
              r.function = std::string(l.owner->name.str());
              r.line = lineAfter(l);
              if (!v.minusName.empty()) {
                const ptx::Label *other = labelNamed(l.owner, v.minusName.str());
                r.difference = other != nullptr;
                r.otherLine = other ? lineAfter(*other) : 0;
              }
              if (v.minusName.empty() || r.difference) sec.refs.push_back(r);
            }
          }
          for (unsigned b = 0; b < width; ++b) sec.bytes.push_back(static_cast<uint8_t>(b < 8 ? bits >> (8 * b) : 0));
        }
      }
    }
  }
  return out;
}

// The .file table and each function's .loc directives, for the line tables
// (codegen/LineTables.cpp). Empty when the PTX has no .loc.
codegen::LineInfoInput lineInfoOf(std::span<const ptx::Module *const> modules) {
  codegen::LineInfoInput out;
  for (const ptx::Module *pm : modules) {
    if (!pm) continue;
    for (const ptx::FileEntry &f : pm->files) {
      codegen::LineFile lf{std::string(f.name), f.timestamp, f.size};
      // Without them in the .file directive, ptxas records the file's time and size on this
      // machine (0 where it does not exist).
      struct stat st;
      if (!f.hasTimestamp && ::stat(lf.path.c_str(), &st) == 0)
        lf.timestamp = static_cast<uint64_t>(st.st_mtime), lf.size = static_cast<uint64_t>(st.st_size);
      out.files.emplace(f.index, std::move(lf));
    }
    // Offsets of the labels in .debug_str (the `function_name` of inlined .locs).
    std::map<std::string_view, uint64_t> strings;
    for (const ptx::DwarfSection &ds : pm->sections) {
      if (ds.name.str() != ".debug_str") continue;
      uint64_t at = 0;
      for (const ptx::SectionItem &item : ds.items) {
        if (item.kind == ptx::SectionItem::LabelDef) strings.emplace(item.label.str(), at);
        else at += ptx::typeBytes(item.width) * item.values.size();
      }
    }
    for (const ptx::Function *f : pm->functions) {
      if (!f->isDefinition) continue;
      codegen::FunctionLines fl;
      fl.bodyLine = f->headerEnd.line;
      for (size_t k = 0; k < f->debugLocs.size(); ++k) {
        const ptx::DebugLoc &d = f->debugLocs[k];
        codegen::LineLoc l;
        l.file = d.file;
        l.line = d.line;
        l.inlined = d.hasInlinedAt;
        if (d.hasInlinedAt) {
          l.atFile = d.inlinedFile;
          l.atLine = d.inlinedLine;
          auto s = strings.find(d.functionName.str());
          l.functionName = (s != strings.end() ? s->second : 0) + d.functionNameOffset;
          // Inlined at the position of an earlier inlined .loc: that one is its parent.
          for (size_t p = k; p-- > 0;) {
            const ptx::DebugLoc &q = f->debugLocs[p];
            if (q.hasInlinedAt && q.file == d.inlinedFile && q.line == d.inlinedLine && q.col == d.inlinedCol) {
              l.parent = static_cast<int32_t>(p);
              break;
            }
          }
        }
        fl.locs.push_back(l);
      }
      for (const ptx::Instruction *ins : f->instructions)
        if (ins->debugLoc) fl.locOfLine[ins->loc.line] = ins->debugLoc - 1;
      out.functions.emplace(std::string(f->name.str()), std::move(fl));
    }
  }
  return out;
}

// .nv_debug_ptx_txt: the PTX text as ptxas 13.0 keeps it for the debugger, one NUL-terminated
// string per source line, leading white space removed; comment lines, .loc, .file and the data
// lines of DWARF sections (.b8/.b16/.b32/.b64) are left empty so that line numbers stay. The
// text is read again from the input file (ptx::Module keeps no copy); inputs that are not files
// (stdin, --input-as-string) get no section.
// In -c objects ptxas names the section .nv_debug_ptx_txt.<Adler-32 of the PTX file, decimal>
// (checked for one input file; for several, optxas sums over all of them in order).
struct PtxText {
  std::vector<uint8_t> bytes;
  uint32_t adler32 = 1;
};
std::optional<PtxText> ptxDebugText(std::span<const ptx::Module *const> modules) {
  PtxText r;
  std::vector<uint8_t> &out = r.bytes;
  uint32_t a = 1, b = 0;
  for (const ptx::Module *pm : modules) {
    if (!pm || pm->fileName.empty() || pm->fileName == "-") return std::nullopt;
    std::ifstream in{std::string(pm->fileName), std::ios::binary};
    if (!in) return std::nullopt;
    std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (unsigned char ch : raw) {
      a = (a + ch) % 65521;
      b = (b + a) % 65521;
    }
    std::istringstream lines(raw);
    std::string line;
    size_t keep = out.size();   // ptxas drops the empty lines at the end of the file
    while (std::getline(lines, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      size_t start = line.find_first_not_of(" \t\v\f");
      std::string_view text = start == std::string::npos ? std::string_view() : std::string_view(line).substr(start);
      auto starts = [&](std::string_view p) {
        return text.substr(0, p.size()) == p && (p == "//" || text.size() == p.size() || text[p.size()] == ' ' ||
                                                  text[p.size()] == '\t');
      };
      if (starts("//") || starts(".loc") || starts(".file") || starts(".b8") || starts(".b16") || starts(".b32") ||
          starts(".b64"))
        text = {};
      out.insert(out.end(), text.begin(), text.end());
      out.push_back(0);
      if (!text.empty()) keep = out.size();
    }
    out.resize(keep);
  }
  r.adler32 = b << 16 | a;
  return r;
}

bool runBackEnd(std::span<const ptx::Module *const> modules, const Options &opts, DiagEngine &diags,
                std::vector<uint8_t> &cubin) {
  if (!target::machineModel(opts.arch.number) && !isPipelineOnlyTarget(opts.arch.number)) {
    diags.report(Severity::Fatal,
                 fmt::format("optxas: code generation for '{}' is not implemented yet (sm_80, sm_86, sm_89, sm_90, sm_100 and sm_120 are, with their a/f variants)",
                             opts.arch.name()));
    return false;
  }
  unsigned errorsBefore = diags.errorCount();
  // Debug builds (-g, or PTX for `.target ..., debug`, which ptxas compiles as if -g were given):
  // every function keeps its own section and calls go through relocations (docs/abi.md).
  Options o = opts;
  for (const ptx::Module *pm : modules) o.deviceDebug |= pm && pm->target.debug;
  if (o.deviceDebug && !opts.deviceDebug) {
    // As with -g (Driver.cpp): unoptimized; an explicit -O above 0 is refused.
    if (opts.optLevelGiven && opts.optLevel != 0) {
      diags.report(Severity::Fatal, "Optimized debugging not supported");
      return false;
    }
    o.optLevel = 0;
  }
  lower::LowerOptions lo;
  lo.smVersion = opts.arch.number;
  lo.optLevel = o.optLevel;
  lo.deviceDebug = o.deviceDebug;
  lo.lineInfo = opts.lineInfo;
  lo.compileOnly = opts.compileOnly;
  {
    // Testing knob read before the back end applies (and reports) the knobs.
    DiagEngine quiet([](Severity, const std::string &) {});
    knobs::KnobRegistry ks;
    for (const Knob &k : opts.knobs) k.file.empty() ? ks.set(k.name, k.value, quiet) : ks.loadFile(k.file, quiet);
    for (const std::string &what : ks.getList(knobs::Knob::OptxasNoReconvergence)) {
      if (what == "cas") lo.casLoopRegions = false;
      if (what == "loops") lo.loopRegions = false;
      if (what == "calls") lo.callRegions = false;
      if (what == "warpsync") lo.warpSyncRegions = false;
    }
    lo.bmmaEmulation = ks.getBool(knobs::Knob::OptxasBmmaEmulation);
  }
  std::unique_ptr<ori::Module> mod = lower::lowerProgram(modules, lo, diags);
  if (!mod || diags.errorCount() != errorsBefore) return false;
  codegen::PtxDeclarations decls = declarationsOf(modules);
  if (o.deviceDebug) {
    if (auto text = ptxDebugText(modules))
      decls.dwarf.push_back({o.compileOnly ? fmt::format(".nv_debug_ptx_txt.{}", text->adler32) : ".nv_debug_ptx_txt",
                          std::move(text->bytes), {}});
    for (codegen::DwarfSectionInput &d : dwarfInputs(modules)) decls.dwarf.push_back(std::move(d));
  }
  decls.lines = lineInfoOf(modules);
  decls.lines.requested = opts.lineInfo || o.deviceDebug;   // the tables even without .loc
  if (decls.lines.any()) {
    std::string textName = o.compileOnly ? ".nv_debug_ptx_txt" : "";
    if (!o.deviceDebug) {
      // Line information alone (-lineinfo, or .loc in the PTX): the PTX text and .debug_str too.
      if (auto text = ptxDebugText(modules)) {
        if (o.compileOnly) textName = fmt::format(".nv_debug_ptx_txt.{}", text->adler32);
        decls.dwarf.push_back({o.compileOnly ? textName : ".nv_debug_ptx_txt", std::move(text->bytes), {}});
      }
      for (codegen::DwarfSectionInput &d : dwarfInputs(modules))
        if (d.name == ".debug_str") decls.dwarf.push_back(std::move(d));
    }
    for (const codegen::DwarfSectionInput &d : decls.dwarf)
      if (o.compileOnly && d.name.starts_with(".nv_debug_ptx_txt")) textName = d.name;
    decls.lines.ptxTextName = o.compileOnly ? textName : "";
  }
  if (!compileOriModule(*mod, o, diags, cubin, std::move(decls))) {
    cubin.clear();
    return false;
  }
  return true;
}

} // namespace

BackEnd defaultBackEnd() { return runBackEnd; }

} // namespace optxas::api
