#include "optxas/ori/Parser.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "optxas/ori/ModifierText.h"

namespace optxas::ori {
namespace {

constexpr unsigned kMaxOperands = 255;

struct ParseError {
  size_t col;
  std::string message;
};

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' || c == '$'; }

std::optional<int64_t> parseInteger(std::string_view s) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
}

// A cursor over one line; every failure throws ParseError with the column.
class LineCursor {
public:
  explicit LineCursor(std::string_view line) : s_(line) {}

  void skipWs() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  bool atEnd() {
    skipWs();
    return pos_ >= s_.size();
  }
  char peek() {
    skipWs();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool accept(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  void expect(char c, const char *what) {
    if (!accept(c)) fail(std::string("expected ") + what);
  }
  bool acceptWord(std::string_view w) {
    skipWs();
    if (s_.substr(pos_, w.size()) != w) return false;
    size_t end = pos_ + w.size();
    if (end < s_.size() && isIdentChar(s_[end])) return false;
    pos_ = end;
    return true;
  }
  std::string_view ident() {
    skipWs();
    size_t b = pos_;
    while (pos_ < s_.size() && isIdentChar(s_[pos_])) ++pos_;
    if (b == pos_) fail("expected a name");
    return s_.substr(b, pos_ - b);
  }
  // Consumes s exactly if the text continues with it (no word boundary check).
  bool acceptRaw(std::string_view w) {
    skipWs();
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  // Letters then digits: the name part of "%r12" (stops before ".reuse" or "[").
  std::string_view regName() {
    size_t b = pos_;
    while (pos_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (b == pos_) fail("expected a register name");
    return s_.substr(b, pos_ - b);
  }
  // A float literal body after "f32:" and friends.
  std::string_view floatBody() {
    size_t b = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' ||
                                s_[pos_] == '-' || s_[pos_] == '+'))
      ++pos_;
    return s_.substr(b, pos_ - b);
  }
  int64_t integer() {
    skipWs();
    size_t b = pos_;
    if (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) ++pos_;
    while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    auto v = parseInteger(s_.substr(b, pos_ - b));
    if (!v) {
      pos_ = b;
      fail("expected an integer");
    }
    return *v;
  }
  std::string quoted() {
    skipWs();
    if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a quoted name");
    size_t e = s_.find('"', pos_ + 1);
    if (e == std::string_view::npos) fail("unterminated string");
    std::string r(s_.substr(pos_ + 1, e - pos_ - 1));
    pos_ = e + 1;
    return r;
  }
  // Everything up to the next whitespace or '}' (attribute values).
  std::string_view rawValue() {
    size_t b = pos_;
    while (pos_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[pos_])) && s_[pos_] != '}') ++pos_;
    return s_.substr(b, pos_ - b);
  }
  // Whether a '=' appears at bracket depth 0 before any '{' (i.e. the instruction has defs).
  bool hasDefsAhead() const {
    int depth = 0;
    bool inString = false;
    for (size_t i = pos_; i < s_.size(); ++i) {
      char c = s_[i];
      if (inString) {
        inString = c != '"';
        continue;
      }
      if (c == '"') inString = true;
      else if (c == '[') ++depth;
      else if (c == ']') --depth;
      else if (c == '{') return false;
      else if (c == '=' && depth == 0) return true;
    }
    return false;
  }
  size_t pos() const { return pos_; }
  [[noreturn]] void fail(std::string msg) const { throw ParseError{pos_ + 1, std::move(msg)}; }

private:
  std::string_view s_;
  size_t pos_ = 0;
};

class ModuleParser {
public:
  ModuleParser(std::string_view text, DiagEngine &diags, std::string_view fileName)
      : text_(text), diags_(diags), file_(diags.addFile(std::string(fileName))) {}

  std::unique_ptr<Module> run() {
    splitLines();
    module_ = std::make_unique<Module>();
    for (size_t n = 0; n < lines_.size(); ++n) {
      try {
        parseTopLine(n);
      } catch (const ParseError &e) {
        error(n, e.col, e.message);
        if (fn_) skipToEnd(n);
      }
      if (errors_ > 20) break;
    }
    if (fn_ && errors_ == 0) error(lines_.size() - 1, 1, "missing .end for function \"" + fn_->name() + "\"");
    return errors_ ? nullptr : std::move(module_);
  }

private:
  void splitLines() {
    size_t b = 0;
    while (b <= text_.size()) {
      size_t e = text_.find('\n', b);
      if (e == std::string_view::npos) e = text_.size();
      std::string_view line = text_.substr(b, e - b);
      // Strip comments outside strings.
      bool inString = false;
      for (size_t i = 0; i + 1 < line.size(); ++i) {
        if (line[i] == '"') inString = !inString;
        if (!inString && line[i] == '/' && line[i + 1] == '/') {
          line = line.substr(0, i);
          break;
        }
      }
      lines_.push_back(line);
      b = e + 1;
    }
  }

  void error(size_t line, size_t col, const std::string &msg) {
    ++errors_;
    diags_.error(SourceLoc{file_, static_cast<uint32_t>(line + 1), static_cast<uint32_t>(col)}, "{}", msg);
  }

  // After an error inside a function, continue after its .end so later functions still parse.
  void skipToEnd(size_t &n) {
    while (n < lines_.size() && LineCursor(lines_[n]).acceptWord(".end") == false) ++n;
    fn_ = nullptr;
  }

  // "bb12:", "bb12 \"label\":", either with " nounroll" before the colon (comments are already
  // stripped).
  static bool isBlockHeader(std::string_view line, uint32_t &id, std::string *label = nullptr,
                            bool *noUnroll = nullptr) {
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string_view::npos || line.substr(b, 2) != "bb") return false;
    size_t e = b + 2;
    while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e]))) ++e;
    auto v = parseInteger(line.substr(b + 2, e - b - 2));
    if (!v) return false;
    size_t k = line.find_first_not_of(" \t", e);
    std::string lbl;
    if (k != std::string_view::npos && line[k] == '"') {
      size_t q = line.find('"', k + 1);
      if (q == std::string_view::npos) return false;
      lbl = std::string(line.substr(k + 1, q - k - 1));
      k = line.find_first_not_of(" \t", q + 1);
    }
    bool nounroll = k != std::string_view::npos && line.substr(k, 8) == "nounroll";
    if (nounroll) k = line.find_first_not_of(" \t", k + 8);
    if (k == std::string_view::npos || line[k] != ':') return false;
    if (line.find_first_not_of(" \t\r", k + 1) != std::string_view::npos) return false;
    id = static_cast<uint32_t>(*v);
    if (label) *label = std::move(lbl);
    if (noUnroll) *noUnroll = nounroll;
    return true;
  }

  void parseTopLine(size_t &n) {
    LineCursor c(lines_[n]);
    if (c.atEnd()) return;
    if (c.acceptWord(".module")) {
      std::string_view sm = c.ident();
      auto v = sm.substr(0, 3) == "sm_" ? parseInteger(sm.substr(3)) : std::nullopt;
      if (!v) c.fail("expected sm_NN");
      module_->setSmVersion(static_cast<unsigned>(*v));
      if (!c.atEnd()) {
        std::string_view a = c.ident();
        auto bits = a.substr(0, 4) == "addr" ? parseInteger(a.substr(4)) : std::nullopt;
        if (!bits || (*bits != 32 && *bits != 64)) c.fail("expected addr32 or addr64");
        module_->setAddressBits(static_cast<unsigned>(*bits));
      }
    } else if (c.acceptWord(".symbol")) {
      parseSymbol(c);
    } else if (c.acceptWord(".function")) {
      std::string name = c.quoted();
      bool entry = c.acceptWord("entry");
      if (!entry && !c.acceptWord("func")) c.fail("expected 'entry' or 'func'");
      if (module_->findFunction(name)) c.fail("function \"" + name + "\" is defined twice");
      fn_ = &module_->createFunction(name, entry);
      parseFunctionBody(n);
      return;
    } else {
      c.fail("expected .module, .symbol or .function");
    }
    if (!c.atEnd()) c.fail("unexpected text at end of line");
  }

  void parseSymbol(LineCursor &c) {
    Symbol s;
    s.name = c.quoted();
    if (!parseSymbolKind(c.ident(), s.kind)) c.fail("unknown symbol kind");
    while (!c.atEnd()) {
      std::string_view key = c.ident();
      c.expect('=', "'='");
      if (key == "size") s.size = static_cast<uint64_t>(c.integer());
      else if (key == "align") s.align = static_cast<uint32_t>(c.integer());
      else if (key == "init") {
        std::string_view hex = c.rawValue();
        if (hex.size() % 2) c.fail("init= needs an even number of hex digits");
        for (size_t i = 0; i < hex.size(); i += 2) {
          auto v = parseInteger(std::string("0x").append(hex.substr(i, 2)));
          if (!v) c.fail("bad hex digit in init=");
          s.init.push_back(static_cast<uint8_t>(*v));
        }
      } else c.fail("unknown symbol attribute '" + std::string(key) + "'");
    }
    if (module_->findSymbol(s.name) >= 0) c.fail("symbol \"" + s.name + "\" is defined twice");
    module_->addSymbol(std::move(s));
  }

  void parseFunctionBody(size_t &n) {
    size_t first = n + 1, end = first;
    while (end < lines_.size() && !LineCursor(lines_[end]).acceptWord(".end")) ++end;
    if (end == lines_.size()) {
      error(n, 1, "missing .end for function \"" + fn_->name() + "\"");
      fn_ = nullptr;
      n = end;
      return;
    }
    // Pass 1: create the blocks in layout order so branches may refer forward.
    blocks_.clear();
    for (size_t k = first; k < end; ++k) {
      uint32_t id;
      std::string label;
      bool noUnroll = false;
      if (!isBlockHeader(lines_[k], id, &label, &noUnroll)) continue;
      if (blocks_.count(id) || id > 1'000'000) {
        error(k, 1, "block bb" + std::to_string(id) + " is defined twice or out of range");
        continue;
      }
      blocks_[id] = fn_->createBlockWithId(id, std::move(label));
      if (blocks_[id]) blocks_[id]->setNoUnroll(noUnroll);
    }
    declared_.clear();
    // Pass 2: everything else.
    BasicBlock *cur = nullptr;
    for (size_t k = first; k < end; ++k) {
      try {
        uint32_t id;
        if (isBlockHeader(lines_[k], id)) {
          cur = blocks_[id];
          continue;
        }
        LineCursor c(lines_[k]);
        if (c.atEnd()) continue;
        if (c.acceptWord(".reg")) parseRegDecl(c);
        else if (c.acceptWord(".frame")) parseFrame(c);
        else {
          if (!cur) c.fail("instruction outside a block (missing 'bbN:')");
          parseInstr(c, cur);
        }
        if (!c.atEnd()) c.fail("unexpected text at end of line");
      } catch (const ParseError &e) {
        error(k, e.col, e.message);
      }
    }
    n = end;
    fn_ = nullptr;
  }

  void parseFrame(LineCursor &c) {
    while (!c.atEnd()) {
      std::string_view key = c.ident();
      if (key == "allocated") {
        fn_->setAllocated(true);
        continue;
      }
      c.expect('=', "'='");
      auto v = static_cast<uint32_t>(c.integer());
      if (key == "local") fn_->localBytes = v;
      else if (key == "spill") fn_->spillBytes = v;
      else if (key == "lowspill") fn_->lowSpillBytes = v;
      else if (key == "shared") fn_->sharedBytes = v;
      else c.fail("unknown .frame attribute '" + std::string(key) + "'");
    }
  }

  // Makes sure vreg `id` exists with class `cls`.
  VRegId vregFor(LineCursor &c, RegClass cls, int64_t id) {
    if (id < 0 || id > 1'000'000) c.fail("register number out of range");
    auto r = static_cast<VRegId>(id);
    while (fn_->numVRegs() <= r) fn_->newVReg(RegClass::R, 1, 1);
    if (declared_.size() <= r) declared_.resize(r + 1, false);
    if (!declared_[r]) {
      fn_->vreg(r).cls = cls;
      declared_[r] = true;
    } else if (fn_->vreg(r).cls != cls) {
      c.fail("register " + std::to_string(r) + " is used with two classes");
    }
    return r;
  }

  // "%r12" -> class and number.
  VRegId parseVRegName(LineCursor &c) {
    c.expect('%', "'%'");
    std::string_view name = c.regName();
    RegClass cls;
    size_t digits = name.find_first_of("0123456789");
    std::string_view prefix = name.substr(0, digits);
    if (prefix == "r") cls = RegClass::R;
    else if (prefix == "p") cls = RegClass::P;
    else if (prefix == "ur") cls = RegClass::UR;
    else if (prefix == "up") cls = RegClass::UP;
    else c.fail("unknown register prefix '%" + std::string(prefix) + "'");
    auto id = digits == std::string_view::npos ? std::nullopt : parseInteger(name.substr(digits));
    if (!id) c.fail("expected a register number");
    return vregFor(c, cls, *id);
  }

  void parseRegDecl(LineCursor &c) {
    VRegId r = parseVRegName(c);
    VReg &v = fn_->vreg(r);
    v.width = 1;
    v.align = 0;
    while (!c.atEnd()) {
      if (c.accept('-')) {
        c.expect('>', "'->'");
        std::string_view phys = c.ident();
        v.phys = parsePhys(c, v.cls, phys);
        continue;
      }
      std::string_view w = c.ident();
      if (w.size() > 1 && w[0] == 'x') {
        auto n = parseInteger(w.substr(1));
        if (!n || *n < 1 || *n > 4) c.fail("width must be x1..x4");
        v.width = static_cast<uint8_t>(*n);
      } else if (w == "align") {
        c.expect('=', "'='");
        int64_t a = c.integer();
        if (a != 1 && a != 2 && a != 4 && a != 8) c.fail("alignment must be 1, 2, 4 or 8");
        v.align = static_cast<uint8_t>(a);
      } else c.fail("unknown .reg attribute '" + std::string(w) + "'");
    }
    if (v.align == 0) v.align = static_cast<uint8_t>(v.width >= 3 ? 4 : v.width);
  }

  static int parsePhys(LineCursor &c, RegClass cls, std::string_view s) {
    std::string_view prefix = regClassName(cls);
    if (s == "RZ" && cls == RegClass::R) return 255;
    if (s == "URZ" && cls == RegClass::UR) return 63;
    if (s == "PT" && cls == RegClass::P) return 7;
    if (s == "UPT" && cls == RegClass::UP) return 7;
    if (s.substr(0, prefix.size()) != prefix) c.fail("physical register of the wrong class");
    auto n = parseInteger(s.substr(prefix.size()));
    if (!n || *n < 0 || *n > 255) c.fail("bad physical register");
    return static_cast<int>(*n);
  }

  // "[2]" or "[0:2]" after a register.
  void parseSubRange(LineCursor &c, Operand &o) {
    if (c.peek() != '[') return;
    c.accept('[');
    int64_t off = c.integer(), width = 1;
    if (c.accept(':')) width = c.integer();
    c.expect(']', "']'");
    if (off < 0 || off > 3 || width < 1 || width > 4) c.fail("bad register sub-range");
    o.subOff = static_cast<uint8_t>(off);
    o.subWidth = static_cast<uint8_t>(width);
  }

  // Register (for Addr/CBank index) and offset inside brackets; the '[' is consumed.
  void parseBaseOffset(LineCursor &c, Operand &o) {
    if (c.peek() == '%') {
      o.reg = parseVRegName(c);
      o.cls = fn_->vreg(o.reg).cls;
      parseSubRange(c, o);
      if (c.accept('+')) o.value = c.integer();
      else if (c.peek() == '-') o.value = c.integer();
    } else {
      o.value = c.integer();
    }
    c.expect(']', "']'");
  }

  Operand parseOperand(LineCursor &c) {
    uint8_t flags = 0;
    for (;;) {
      if (c.accept('!')) flags |= OpNot;
      else if (c.peek() == '-' ) {
        // "-0x10" is a negative immediate; "-%r1" negates a register.
        LineCursor probe = c;
        probe.accept('-');
        char next = probe.peek();
        if (std::isdigit(static_cast<unsigned char>(next))) break;
        c.accept('-');
        flags |= OpNeg;
      } else if (c.accept('|')) flags |= OpAbs;
      else break;
    }
    Operand o;
    char ch = c.peek();
    if (ch == '%') {
      VRegId r = parseVRegName(c);
      o = Operand::vreg(r, fn_->vreg(r).cls);
      parseSubRange(c, o);
    } else if (ch == '[') {
      c.accept('[');
      o.kind = OperandKind::Addr;
      parseBaseOffset(c, o);
    } else if (ch == '"') {
      std::string name = c.quoted();
      int idx = module_->findSymbol(name);
      if (idx < 0) c.fail("unknown symbol \"" + name + "\"");
      o = Operand::symbol(static_cast<uint32_t>(idx));
    } else if (ch == '-' || std::isdigit(static_cast<unsigned char>(ch))) {
      o = Operand::imm(c.integer());
    } else if (auto ft = acceptFloatPrefix(c)) {
      o = parseFloatImm(c, *ft);
    } else {
      std::string_view w = c.ident();
      if (w == "RZ") o = Operand::zero(RegClass::R);
      else if (w == "URZ") o = Operand::zero(RegClass::UR);
      else if (w == "PT") o = Operand::truePred(RegClass::P);
      else if (w == "UPT") o = Operand::truePred(RegClass::UP);
      else if (w == "c") {
        c.expect('[', "'['");
        int64_t bank = c.integer();
        c.expect(']', "']'");
        c.expect('[', "'['");
        o.kind = OperandKind::CBank;
        o.bank = static_cast<uint16_t>(bank);
        parseBaseOffset(c, o);
      } else if (w.size() > 2 && w.substr(0, 2) == "bb" && parseInteger(w.substr(2))) {
        auto id = static_cast<uint32_t>(*parseInteger(w.substr(2)));
        auto it = blocks_.find(id);
        if (it == blocks_.end()) c.fail("unknown block " + std::string(w));
        o = Operand::label(it->second);
      } else {
        SpecialReg sr;
        if (w.ends_with(".reuse")) c.fail("'.reuse' applies to registers only");
        if (!parseSpecialReg(w, sr)) {
          if (!w.empty() && (w[0] == 'R' || w[0] == 'P' || w[0] == 'U'))
            c.fail("unknown operand '" + std::string(w) +
                   "' (physical registers are written as vregs with '.reg %rN -> " + std::string(w) + "')");
          c.fail("unknown operand '" + std::string(w) + "'");
        }
        o = Operand::sreg(sr);
      }
    }
    if (flags & OpAbs) c.expect('|', "closing '|'");
    o.flags |= flags;
    if (c.acceptWord(".H0_H0")) o.flags |= OpH0H0;
    else if (c.acceptWord(".H1_H1")) o.flags |= OpH1H1;
    if (c.acceptWord(".reuse")) o.flags |= OpReuse;
    return o;
  }

  static std::optional<isa::FloatType> acceptFloatPrefix(LineCursor &c) {
    static const std::pair<std::string_view, isa::FloatType> kPrefixes[] = {
        {"f32:", isa::FloatType::F32}, {"f64:", isa::FloatType::F64}, {"f16:", isa::FloatType::F16},
        {"bf16:", isa::FloatType::BF16}, {"tf32:", isa::FloatType::TF32}};
    for (auto &[p, t] : kPrefixes)
      if (c.acceptRaw(p)) return t;
    return std::nullopt;
  }

  Operand parseFloatImm(LineCursor &c, isa::FloatType ft) {
    std::string_view body = c.floatBody();
    if (body.substr(0, 2) == "0x") {
      auto bits = parseInteger(body);
      if (!bits) c.fail("bad float bits");
      return Operand::fimmBits(ft, static_cast<uint64_t>(*bits));
    }
    std::string s(body);
    char *end = nullptr;
    if (ft == isa::FloatType::F64) {
      double d = std::strtod(s.c_str(), &end);
      if (s.empty() || *end) c.fail("bad float literal '" + s + "'");
      return Operand::f64(d);
    }
    if (ft != isa::FloatType::F32) c.fail("f16/bf16/tf32 immediates are written as bits (0x...)");
    float f = std::strtof(s.c_str(), &end);
    if (s.empty() || *end) c.fail("bad float literal '" + s + "'");
    return Operand::f32(f);
  }

  void parseMnemonic(LineCursor &c, Instr *&instr, unsigned numDefs, uint32_t id,
                     std::vector<Operand> &defs) {
    size_t col = c.pos();
    std::string_view m = c.ident();
    size_t dot = m.find('.');
    std::string_view opName = m.substr(0, dot);
    isa::Opcode op;
    if (!isa::opcodeFromName(opName, op)) throw ParseError{col + 1, "unknown opcode '" + std::string(opName) + "'"};
    instr = id ? fn_->createInstrWithId(op, numDefs, 0, id) : fn_->createInstr(op, numDefs, 0);
    if (!instr) throw ParseError{col + 1, "instruction id [" + std::to_string(id) + "] is used twice"};
    for (unsigned d = 0; d < numDefs; ++d) instr->def(d) = defs[d];
    std::string_view rest = dot == std::string_view::npos ? std::string_view{} : m.substr(dot + 1);
    bool first = true;
    while (!rest.empty()) {
      size_t nd = rest.find('.');
      std::string_view tok = rest.substr(0, nd);
      rest = nd == std::string_view::npos ? std::string_view{} : rest.substr(nd + 1);
      if (first && op == isa::Opcode::PSEUDO_MACRO) {
        MacroKind mk;
        if (!parseMacroKind(tok, mk)) throw ParseError{col + 1, "unknown macro '" + std::string(tok) + "'"};
        instr->setMacro(mk);
        first = false;
        continue;
      }
      first = false;
      DataType t;
      if (parseDataType(tok, t)) instr->setType(t);
      else if (!applyModifierToken(tok, instr->mods()))
        throw ParseError{col + 1, "unknown modifier '" + std::string(tok) + "' on " + std::string(opName)};
    }
  }

  void parseAttrs(LineCursor &c, Instr *i) {
    while (!c.accept('}')) {
      if (c.atEnd()) c.fail("expected '}'");
      std::string_view key = c.ident();
      if (key == "ctrl") { i->ctrl().valid = true; continue; }
      if (key == "yield") { i->ctrl().yield = true; continue; }
      c.expect('=', "'='");
      if (key == "loc") {
        uint32_t parts[3] = {0, 0, 0};
        for (int k = 0; k < 3; ++k) {
          if (k) c.expect(':', "':'");
          parts[k] = static_cast<uint32_t>(c.integer());
        }
        i->setLoc(SourceLoc{parts[0], parts[1], parts[2]});
        continue;
      }
      auto v = static_cast<uint8_t>(c.integer());
      if (key == "stall") i->ctrl().stall = v;
      else if (key == "wr") i->ctrl().writeBarrier = v;
      else if (key == "rd") i->ctrl().readBarrier = v;
      else if (key == "wait") i->ctrl().waitMask = v;
      else if (key == "reuse") i->ctrl().reuseMask = v;
      else c.fail("unknown attribute '" + std::string(key) + "'");
    }
  }

  void parseInstr(LineCursor &c, BasicBlock *bb) {
    uint32_t id = 0;
    if (c.accept('[')) {
      int64_t v = c.integer();
      if (v <= 0) c.fail("instruction ids start at 1");
      id = static_cast<uint32_t>(v);
      c.expect(']', "']'");
    }
    Operand guard;
    bool hasGuard = false;
    if (c.accept('@')) {
      guard = parseOperand(c);
      if (!(guard.kind == OperandKind::Reg && isPredicateClass(guard.cls)) && guard.kind != OperandKind::True)
        c.fail("a guard must be a predicate register");
      hasGuard = guard.kind == OperandKind::Reg;
    }
    std::vector<Operand> defs;
    if (c.hasDefsAhead()) {
      do {
        if (defs.size() == kMaxOperands) c.fail("more than 255 results");
        defs.push_back(parseOperand(c));
      } while (c.accept(','));
      c.expect('=', "'='");
    }
    Instr *i = nullptr;
    parseMnemonic(c, i, static_cast<unsigned>(defs.size()), id, defs);
    bb->append(i);
    if (hasGuard) i->setGuard(guard);
    if (!c.atEnd() && c.peek() != '{') {
      do {
        if (i->numUses() == kMaxOperands) c.fail("more than 255 operands");
        i->addUse(parseOperand(c));
      } while (c.accept(','));
    }
    if (c.accept('{')) parseAttrs(c, i);
  }

  std::string_view text_;
  DiagEngine &diags_;
  uint32_t file_;
  std::vector<std::string_view> lines_;
  std::unique_ptr<Module> module_;
  Function *fn_ = nullptr;
  std::map<uint32_t, BasicBlock *> blocks_;
  std::vector<bool> declared_;
  unsigned errors_ = 0;
};

} // namespace

std::unique_ptr<Module> parseModule(std::string_view text, DiagEngine &diags, std::string_view fileName) {
  return ModuleParser(text, diags, fileName).run();
}

} // namespace optxas::ori
