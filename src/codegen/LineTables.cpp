// The line tables ptxas 13.0 writes for PTX with .loc directives (-lineinfo, -g), learned from its
// output (docs/elf.md, "Line tables"):
//   .debug_line          SASS address -> CUDA source file:line (the .loc in effect at the PTX
//                        line each instruction came from); inlined code with NVIDIA's extended
//                        opcode 0x90 (row it is inlined at, .debug_str offset of the function);
//   .nv_debug_line_sass  SASS address -> PTX line (of .nv_debug_ptx_txt, which keeps the lines).
// Both are DWARF 2 line programs with line_base -5, line_range 14, opcode_base 10; columns are
// not recorded. One sequence per function section (with the device functions whole programs
// place in it), starting with DW_LNE_set_address (an R_CUDA_64 relocation against the function)
// and ending at the section's end.
#include "optxas/codegen/CubinAssembly.h"
#include "optxas/codegen/Emit.h"

#include <algorithm>

namespace optxas::codegen {

namespace {

constexpr int kLineBase = -5;
constexpr unsigned kLineRange = 14, kOpcodeBase = 10;

void uleb(std::vector<uint8_t> &o, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    o.push_back(b | (v ? 0x80 : 0));
  } while (v);
}

// ptxas encodes DW_LNS_advance_pc's operand as a signed LEB128 too (64 is c0 00).
void sleb(std::vector<uint8_t> &o, int64_t v) {
  for (;;) {
    uint8_t b = v & 0x7f;
    v >>= 7;
    bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
    o.push_back(b | (done ? 0 : 0x80));
    if (done) return;
  }
}

void put32(std::vector<uint8_t> &o, size_t at, uint32_t v) {
  for (int b = 0; b < 4; ++b) o[at + b] = static_cast<uint8_t>(v >> (8 * b));
}

// One line program: the header (with `dirs` and `files`), then the rows of each sequence.
class LineProgram {
public:
  LineProgram(const std::vector<std::string> &dirs, const std::vector<std::pair<std::string, LineFile>> &files,
              const std::vector<uint32_t> &fileDirs, bool padding) {
    o_.resize(10);                      // unit_length, version, header_length: filled in below
    o_[4] = 2;                          // version 2
    o_.push_back(1);                    // minimum_instruction_length
    o_.push_back(1);                    // default_is_stmt
    o_.push_back(static_cast<uint8_t>(kLineBase));
    o_.push_back(kLineRange);
    o_.push_back(kOpcodeBase);
    for (uint8_t n : {0, 1, 1, 1, 1, 0, 0, 0, 1}) o_.push_back(n);   // standard_opcode_lengths
    for (const std::string &d : dirs) text(d);
    o_.push_back(0);
    for (size_t k = 0; k < files.size(); ++k) {
      text(files[k].first);
      uleb(o_, fileDirs[k]);
      uleb(o_, files[k].second.timestamp);
      uleb(o_, files[k].second.size);
    }
    o_.push_back(0);
    // ptxas leaves four zero bytes after the file table when the PTX has inlined .locs.
    if (padding) o_.insert(o_.end(), 4, 0);
    put32(o_, 6, static_cast<uint32_t>(o_.size() - 10));
  }

  void begin(const std::string &function, uint32_t file, elf::DebugSection &s) {
    o_.insert(o_.end(), {0, 9, 2});     // DW_LNE_set_address
    elf::Relocation r;
    r.offset = o_.size();
    r.type = elf::RelocType::R_CUDA_64;
    r.symbol = function;
    s.relocations.push_back(r);
    o_.insert(o_.end(), 8, 0);
    o_.push_back(4);                    // DW_LNS_set_file
    uleb(o_, file);
    addr_ = 0, line_ = 1, file_ = file, inlinedAt_ = 0, fn_ = 0;
  }

  // Appends a row; returns its number (from 1, over the whole section: what 0x90 refers to).
  uint32_t row(uint64_t addr, uint32_t file, uint32_t line, uint32_t inlinedAt = 0, uint64_t fn = 0) {
    if (file != file_) {
      o_.push_back(4);
      uleb(o_, file);
      file_ = file;
    }
    if (inlinedAt != inlinedAt_ || fn != fn_) {
      std::vector<uint8_t> body{0x90};
      uleb(body, inlinedAt);
      uleb(body, fn);
      o_.push_back(0);
      uleb(o_, body.size());
      o_.insert(o_.end(), body.begin(), body.end());
      inlinedAt_ = inlinedAt, fn_ = fn;
    }
    int64_t dl = static_cast<int64_t>(line) - line_;
    uint64_t da = addr - addr_;
    // ptxas uses a special opcode only when the address advances.
    uint64_t special = dl >= kLineBase && dl < kLineBase + static_cast<int>(kLineRange)
                           ? (dl - kLineBase) + kLineRange * da + kOpcodeBase : 256;
    if (da > 0 && special <= 255) {
      o_.push_back(static_cast<uint8_t>(special));
    } else {
      if (dl) o_.push_back(3), sleb(o_, dl);
      if (da) o_.push_back(2), sleb(o_, static_cast<int64_t>(da));
      o_.push_back(1);                  // DW_LNS_copy
    }
    addr_ = addr, line_ = line;
    return ++rows_;
  }

  void end(uint64_t addr) {
    if (addr != addr_) o_.push_back(2), sleb(o_, static_cast<int64_t>(addr - addr_));
    o_.insert(o_.end(), {0, 1, 1});     // DW_LNE_end_sequence
  }

  std::vector<uint8_t> finish() {
    put32(o_, 0, static_cast<uint32_t>(o_.size() - 4));
    return std::move(o_);
  }
  size_t size() const { return o_.size(); }

private:
  void text(const std::string &s) {
    o_.insert(o_.end(), s.begin(), s.end());
    o_.push_back(0);
  }
  std::vector<uint8_t> o_;
  uint64_t addr_ = 0;
  int64_t line_ = 1;
  uint32_t file_ = 1, rows_ = 0;
  uint64_t inlinedAt_ = 0, fn_ = 0;
};

// The .debug_line rows of one function: each instruction's .loc (code without one continues the
// row before it; at the function's start it takes the function's first .loc). An inlined .loc
// brings the rows of the places it is inlined at (once per inlined .loc), then its own row
// pointing at them.
class SourceRows {
public:
  SourceRows(LineProgram &p, const FunctionLines &fl) : p_(p), fl_(fl), rowOf_(fl.locs.size(), 0),
                                                        atRow_(fl.locs.size(), 0) {}

  void at(uint64_t addr, int32_t loc) {
    if (loc < 0) {
      if (started_) return;
      loc = 0;
    }
    const LineLoc &l = fl_.locs[loc];
    uint32_t parent = l.inlined ? outer(addr, loc) : 0;
    Key key{l.file, l.line, parent, l.inlined ? l.functionName : 0};
    if (started_ && key == last_) return;
    rowOf_[loc] = emit(addr, key);
  }

private:
  struct Key {
    uint32_t file, line, inlinedAt;
    uint64_t fn;
    bool operator==(const Key &) const = default;
  };
  uint32_t emit(uint64_t addr, const Key &k) {
    started_ = true;
    last_ = k;
    return p_.row(addr, k.file, k.line, k.inlinedAt, k.fn);
  }
  // The row an inlined .loc points at: its parent .loc's row, or the row of its inlined-at
  // position, each written the first time it is needed.
  uint32_t outer(uint64_t addr, int32_t loc) {
    const LineLoc &l = fl_.locs[loc];
    if (l.parent >= 0) {
      if (!rowOf_[l.parent]) {
        const LineLoc &p = fl_.locs[l.parent];
        uint32_t up = p.inlined ? outer(addr, l.parent) : 0;
        rowOf_[l.parent] = emit(addr, {p.file, p.line, up, p.inlined ? p.functionName : 0});
      }
      return rowOf_[l.parent];
    }
    if (!atRow_[loc]) atRow_[loc] = emit(addr, {l.atFile, l.atLine, 0, 0});
    return atRow_[loc];
  }

  LineProgram &p_;
  const FunctionLines &fl_;
  std::vector<uint32_t> rowOf_, atRow_;
  bool started_ = false;
  Key last_{};
};

} // namespace

std::vector<elf::DebugSection> lineTables(const ori::Module &m, const LineInfoInput &in,
                                          const std::vector<elf::Function> &functions) {
  std::vector<elf::DebugSection> out;
  const target::MachineModel *model = target::machineModel(m.smVersion());
  if (!model || !in.any()) return out;
  // The file table: each .file split into directory and name, directories in order of first use.
  std::vector<std::string> dirs;
  std::vector<std::pair<std::string, LineFile>> files;
  std::vector<uint32_t> fileDirs;
  std::map<uint32_t, uint32_t> fileNumber;   // .file number -> position in the table (from 1)
  for (const auto &[number, f] : in.files) {
    size_t slash = f.path.rfind('/');
    uint32_t dir = 0;
    if (slash != std::string::npos) {
      std::string d = f.path.substr(0, slash);
      auto it = std::find(dirs.begin(), dirs.end(), d);
      dir = static_cast<uint32_t>(it - dirs.begin()) + 1;
      if (it == dirs.end()) dirs.push_back(d);
    }
    files.push_back({slash == std::string::npos ? f.path : f.path.substr(slash + 1), f});
    fileDirs.push_back(dir);
    fileNumber[number] = static_cast<uint32_t>(files.size());
  }
  std::vector<std::pair<std::string, LineFile>> ptxFiles;
  if (!in.ptxTextName.empty()) ptxFiles.push_back({in.ptxTextName, {}});
  LineProgram source(dirs, files, fileDirs, in.inlining());
  LineProgram ptx({}, ptxFiles, std::vector<uint32_t>(ptxFiles.size(), 0), false);
  elf::DebugSection line, sass;
  line.name = ".debug_line";
  sass.name = ".nv_debug_line_sass";
  for (const elf::Function &ef : functions) {
    if (ef.code.empty() || !m.findFunction(ef.name)) continue;
    // Runtime routines (the slow paths of -g builds) have no PTX text, so no rows (as ptxas).
    if (!m.findFunction(ef.name)->attrs.slowPathRoutine.empty()) continue;
    // The function's own code at 0, then the device functions placed after it (whole programs).
    std::vector<std::pair<const ori::Function *, uint64_t>> parts{{m.findFunction(ef.name), 0}};
    for (const elf::Subroutine &s : ef.subroutines) {
      std::string prefix = "$" + ef.name + "$";
      if (s.name.starts_with(prefix))
        if (const ori::Function *callee = m.findFunction(s.name.substr(prefix.size()))) parts.push_back({callee, s.offset});
    }
    static const FunctionLines none;
    auto linesOf = [&](const ori::Function *f) -> const FunctionLines & {
      auto it = in.functions.find(f->name());
      return it != in.functions.end() ? it->second : none;
    };
    const uint64_t step = model->instrBytes(), end = ef.code.size();
    // .nv_debug_line_sass: every function; code without a PTX line in the body belongs to its '{'.
    ptx.begin(ef.name, 0, sass);
    for (const auto &[f, base] : parts) {
      const FunctionLines &lines = linesOf(f);
      Layout layout = layoutFunction(*f, *model);
      uint32_t last = 0;
      for (size_t k = 0; k < layout.order.size(); ++k) {
        uint32_t l = layout.order[k]->loc().line;
        if (l < lines.bodyLine) l = lines.bodyLine;   // no line, or the header's (the prologue)
        if (k == 0 || l != last) ptx.row(base + k * step, 0, l);
        last = l;
      }
    }
    ptx.end(end);
    // .debug_line: functions with .loc only.
    if (linesOf(parts.front().first).locs.empty()) continue;
    const LineLoc &first = linesOf(parts.front().first).locs.front();
    source.begin(ef.name, fileNumber.count(first.file) ? fileNumber[first.file] : 1, line);
    for (const auto &[f, base] : parts) {
      // .loc file numbers -> positions in the table.
      FunctionLines mapped = linesOf(f);
      if (mapped.locs.empty()) continue;
      for (LineLoc &l : mapped.locs) {
        if (fileNumber.count(l.file)) l.file = fileNumber[l.file];
        if (fileNumber.count(l.atFile)) l.atFile = fileNumber[l.atFile];
      }
      Layout layout = layoutFunction(*f, *model);
      SourceRows rows(source, mapped);
      for (size_t k = 0; k < layout.order.size(); ++k) {
        auto it = mapped.locOfLine.find(layout.order[k]->loc().line);
        rows.at(base + k * step, it == mapped.locOfLine.end() ? -1 : static_cast<int32_t>(it->second));
      }
    }
    source.end(end);
  }
  // -lineinfo without .loc: a .debug_line with the header only.
  if (!line.relocations.empty() || (in.requested && !sass.relocations.empty())) {
    line.data = source.finish();
    out.push_back(std::move(line));
  }
  if (!sass.relocations.empty()) {
    sass.data = ptx.finish();
    out.push_back(std::move(sass));
  }
  return out;
}

} // namespace optxas::codegen
