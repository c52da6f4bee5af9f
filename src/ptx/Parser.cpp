// PTX parser, module level: the .version/.target/.address_size header, module-scope
// directives, variable and register declarations, and function headers.
#include "ParserImpl.h"
#include "optxas/ptx/Targets.h"

#include <algorithm>
#include <charconv>

#include <pthread.h>

#include <fmt/format.h>

namespace optxas::ptx {

// The parser recurses on nested expressions and blocks (up to ptxas's own nesting limit, see
// NestGuard), which can need more stack than a default thread has, especially under
// sanitizers. It therefore runs on a thread with a large, lazily committed stack.
namespace {
struct ParseJob {
  Parser *parser;
  std::unique_ptr<Module> result;
};
void *runParseJob(void *arg) {
  auto *job = static_cast<ParseJob *>(arg);
  job->result = job->parser->run();
  return nullptr;
}
} // namespace

std::unique_ptr<Module> parseModule(std::string_view text, uint32_t fileId, DiagEngine &diags,
                                    const ParseOptions &opts) {
  Parser p(text, fileId, diags, opts);
  ParseJob job{&p, nullptr};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = false;
  if (pthread_attr_init(&attr) == 0) {
    started = pthread_attr_setstacksize(&attr, size_t(512) << 20) == 0 &&
              pthread_create(&thread, &attr, runParseJob, &job) == 0;
    pthread_attr_destroy(&attr);
  }
  if (started) pthread_join(thread, nullptr);
  else runParseJob(&job);
  return std::move(job.result);
}

Parser::Parser(std::string_view text, uint32_t fileId, DiagEngine &diags, const ParseOptions &opts)
    : lex_(text), fileId_(fileId), diags_(diags), opts_(opts), checker_(opts.checker),
      m_(std::make_unique<Module>()) {
  m_->fileId = fileId;
  m_->fileName = m_->arena.copyString(diags.fileName(fileId));
  binding_.resize(1024, nullptr);
}

std::unique_ptr<Module> Parser::run() {
  if (checker_) checker_->begin(*m_);
  try {
    advance();
    parseHeader();
    while (!at(Tok::Eof)) parseTopLevel();
    if (lex_.unterminatedComment())
      fatal({fileId_, lex_.unterminatedCommentLine(), 1},
            "Parsing error near '': unexpected EOF while scanning");
    if (checker_) checker_->finishModule();
  } catch (const ParseAbort &) {
  }
  return std::move(m_);
}

// ------------------------------------------------------------------------------------------
// Tokens and errors
// ------------------------------------------------------------------------------------------

void Parser::advance() {
  if (havePeek_) {
    tok_ = peek_;
    havePeek_ = false;
  } else {
    tok_ = lex_.next();
  }
}

const Token &Parser::peek() {
  if (!havePeek_) {
    peek_ = lex_.next();
    havePeek_ = true;
  }
  return peek_;
}

void Parser::syntaxError() {
  // ptxas names the token it stopped at. Its lexer reads ".version 8.0" as one token.
  std::string near(tok_.text);
  if (tok_.kind == Tok::Eof && lex_.unterminatedComment())
    fatal({fileId_, lex_.unterminatedCommentLine(), 1},
          "Parsing error near '': unexpected EOF while scanning");
  if (tok_.kind == Tok::DotIdent && tok_.text == ".version") {
    Token v = peek();
    if (v.kind == Tok::Float) near += " " + std::string(v.text);
  }
  fatal(loc(), fmt::format("Parsing error near '{}': syntax error", near));
}

void Parser::nestingExhausted() {
  fatal(loc(), fmt::format("Parsing error near '{}': memory exhausted", tok_.text));
}

void Parser::fatal(SourceLoc at, std::string msg) {
  diags_.report(Severity::Fatal, at, msg);
  throw ParseAbort{};
}

void Parser::error(SourceLoc at, std::string msg) {
  diags_.report(Severity::Error, at, msg);
  if (++errors_ >= opts_.maxErrors) throw ParseAbort{};
}

uint64_t Parser::expectUInt() {
  if (!at(Tok::Int) && !at(Tok::LParen) && !at(Tok::Minus) && !at(Tok::Tilde) && !at(Tok::Bang))
    syntaxError();
  ConstValue v = parseConstExpr();
  if (v.isFloat) syntaxError();
  return v.bits;
}

std::string_view Parser::expectString() {
  if (!at(Tok::String)) syntaxError();
  std::string_view s = tok_.text.substr(1, tok_.text.size() - 2);
  advance();
  return s;
}

// ------------------------------------------------------------------------------------------
// Header: .version, .target, .address_size
// ------------------------------------------------------------------------------------------

void Parser::parseHeader() {
  if (!atDot(".version") || peek().kind != Tok::Float) {
    // ptxas reads ".target sm_XX[, ...]" as a unit and complains at what follows it.
    if (atDot(".target")) {
      advance();
      while (at(Tok::Ident)) {
        advance();
        if (!accept(Tok::Comma)) break;
      }
    }
    fatal(SourceLoc{fileId_, std::max(tok_.line, 1u), 1},
          fmt::format("Missing .version directive at start of file '{}'", m_->fileName));
  }
  m_->versionLoc = loc();
  advance();
  // "8.0" arrives as a float token; split it at the dot.
  std::string_view v = tok_.text;
  size_t dot = v.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= v.size() ||
      v.find_first_not_of("0123456789", dot + 1) != std::string_view::npos)
    fatal(m_->versionLoc, fmt::format("Missing .version directive at start of file '{}'", m_->fileName));
  std::from_chars(v.data(), v.data() + dot, m_->versionMajor);
  std::from_chars(v.data() + dot + 1, v.data() + v.size(), m_->versionMinor);
  if (m_->versionMinor > 9 || m_->version() > kMaxPtxVersion)
    fatal(m_->versionLoc, fmt::format("Unsupported .version {}; current version is '{}.{}'", v,
                                      kMaxPtxVersion / 10, kMaxPtxVersion % 10));
  advance();
  if (!atDot(".target"))
    fatal(loc(), fmt::format("Missing .target directive at start of file '{}'", m_->fileName));
  parseTarget();
  if (atDot(".address_size")) {
    SourceLoc at = loc();
    advance();
    uint64_t n = expectUInt();
    m_->addressSize = static_cast<uint32_t>(n);
    m_->hasAddressSize = true;
    if (n != 32 && n != 64) error(at, "Illegal value for .address_size directive (must be 32 or 64)");
  }
  if (checker_) {
    checker_->checkTarget();
    if (checker_->terminated()) throw ParseAbort{};
  }
}

void Parser::parseTarget() {
  m_->target.loc = loc();
  advance();
  for (;;) {
    if (!at(Tok::Ident)) syntaxError();
    std::string_view t = tok_.text;
    SourceLoc at = loc();
    if (t == "texmode_unified") m_->target.texmodeUnified = true;
    else if (t == "texmode_independent") m_->target.texmodeIndependent = true;
    else if (t == "debug") m_->target.debug = true;
    else if (t == "map_f64_to_f32") m_->target.mapF64ToF32 = true;
    else {
      TargetArch a;
      std::string_view rest;
      if (t.starts_with("sm_")) { a.prefix = TargetArch::SM; rest = t.substr(3); }
      else if (t.starts_with("compute_")) { a.prefix = TargetArch::Compute; rest = t.substr(8); }
      else if (t.starts_with("lto_")) { a.prefix = TargetArch::Lto; rest = t.substr(4); }
      size_t n = 0;
      while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
      bool ok = n > 0 && n <= 4;
      if (ok) {
        std::from_chars(rest.data(), rest.data() + n, a.number);
        std::string_view suffix = rest.substr(n);
        if (suffix == "a" || suffix == "f") a.suffix = suffix[0];
        else if (!suffix.empty()) ok = false;
      }
      if (!ok || targetMinPtx(a) == 0) fatal(at, fmt::format("Unsupported .target '{}'", t));
      m_->target.archs.push_back(a);
    }
    advance();
    if (!accept(Tok::Comma)) break;
  }
}

// ------------------------------------------------------------------------------------------
// Module-scope items
// ------------------------------------------------------------------------------------------

std::optional<StateSpace> Parser::spaceFromDirective(std::string_view d) const {
  if (d == ".global") return StateSpace::Global;
  if (d == ".shared") return StateSpace::Shared;
  if (d == ".const") return StateSpace::Const;
  if (d == ".local") return StateSpace::Local;
  if (d == ".param") return StateSpace::Param;
  if (d == ".tex") return StateSpace::Tex;
  if (d == ".reg") return StateSpace::Reg;
  if (d == ".sreg") return StateSpace::SReg;
  return std::nullopt;
}

void Parser::parseTopLevel() {
  if (at(Tok::DwarfLine)) {
    m_->dwarfLines.push_back({m_->arena.copyString(tok_.text), loc()});
    advance();
    return;
  }
  if (at(Tok::Semi)) { advance(); return; }
  if (!at(Tok::DotIdent)) syntaxError();
  std::string_view d = tok_.text;
  SourceLoc start = loc();
  if (d == ".file") return parseFile();
  if (d == ".section") return parseSection();
  if (d == ".alias") return parseAlias();
  if (d == ".pragma") {
    advance();
    size_t before = m_->pragmas.size();
    parsePragmaList(m_->pragmas);
    for (size_t i = before; i < m_->pragmas.size(); ++i)
      m_->order.push_back({TopLevel::Pragma, static_cast<uint32_t>(i)});
    return;
  }
  if (d == ".extern" || d == ".visible" || d == ".weak" || d == ".common" || d == ".entry" ||
      d == ".func")
    return parseLinkageItem();
  if (d == ".reg") {
    advance();
    error(start, "Module-scoped variables in .reg state space are not allowed with ABI");
    std::vector<RegDecl *> ignored;
    parseRegDecl(nullptr, &ignored);
    return;
  }
  if (auto space = spaceFromDirective(d)) {
    if (*space == StateSpace::SReg) syntaxError();
    if (*space == StateSpace::Param) error(start, "Parameter variables may not be declared at module scope");
    advance();
    std::vector<Variable *> vars;
    parseVarDecl(*space, Linkage::None, nullptr, start, &vars);
    for (Variable *v : vars) {
      m_->order.push_back({TopLevel::Var, static_cast<uint32_t>(m_->globals.size())});
      m_->globals.push_back(v);
    }
    return;
  }
  if (d == ".version" || d == ".target" || d == ".address_size") syntaxError();
  syntaxError();
}

void Parser::parseLinkageItem() {
  Linkage linkage = Linkage::None;
  SourceLoc start = loc();
  while (at(Tok::DotIdent)) {
    std::string_view d = tok_.text;
    Linkage l;
    if (d == ".extern") l = Linkage::Extern;
    else if (d == ".visible") l = Linkage::Visible;
    else if (d == ".weak") l = Linkage::Weak;
    else if (d == ".common") l = Linkage::Common;
    else break;
    if (linkage != Linkage::None) syntaxError();
    linkage = l;
    advance();
  }
  if (atDot(".entry") || atDot(".func")) {
    bool isEntry = atDot(".entry");
    advance();
    parseFunction(linkage, isEntry, start);
    return;
  }
  if (at(Tok::DotIdent)) {
    if (auto space = spaceFromDirective(tok_.text);
        space && *space != StateSpace::Reg && *space != StateSpace::SReg && *space != StateSpace::Param) {
      advance();
      std::vector<Variable *> vars;
      parseVarDecl(*space, linkage, nullptr, start, &vars);
      for (Variable *v : vars) {
        m_->order.push_back({TopLevel::Var, static_cast<uint32_t>(m_->globals.size())});
        m_->globals.push_back(v);
      }
      return;
    }
  }
  syntaxError();
}

void Parser::parsePragmaList(std::vector<std::string_view> &out) {
  for (;;) {
    out.push_back(m_->arena.copyString(expectString()));
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::Semi);
}

void Parser::parseFile() {
  FileEntry f;
  f.loc = loc();
  advance();
  f.index = static_cast<uint32_t>(expectUInt());
  f.name = m_->arena.copyString(expectString());
  if (accept(Tok::Comma)) {
    f.timestamp = expectUInt();
    f.hasTimestamp = true;
    if (accept(Tok::Comma)) f.size = expectUInt();
  }
  m_->files.push_back(f);
}

void Parser::parseAlias() {
  Alias a;
  a.loc = loc();
  advance();
  if (!at(Tok::Ident)) syntaxError();
  a.alias = intern(tok_.text);
  SourceLoc aliasLoc = loc();
  advance();
  expect(Tok::Comma);
  if (!at(Tok::Ident)) syntaxError();
  a.aliasee = intern(tok_.text);
  SourceLoc aliaseeLoc = loc();
  advance();
  expect(Tok::Semi);
  Decl *d1 = lookup(a.alias), *d2 = lookup(a.aliasee);
  if (!d1) error(aliasLoc, fmt::format("Unknown symbol '{}'", a.alias.str()));
  else if (d1->kind == DeclKind::Function) a.aliasFn = static_cast<Function *>(d1);
  if (!d2) error(aliaseeLoc, fmt::format("Unknown symbol '{}'", a.aliasee.str()));
  else if (d2->kind == DeclKind::Function) a.aliaseeFn = static_cast<Function *>(d2);
  if (a.aliasFn && a.aliaseeFn) a.aliasFn->aliasOf = a.aliaseeFn;
  m_->order.push_back({TopLevel::Alias, static_cast<uint32_t>(m_->aliases.size())});
  m_->aliases.push_back(a);
}

// .section .debug_info { .b8 1, 2  .b32 .debug_abbrev  .b64 $L__func_begin0  label: ... }
void Parser::parseSection() {
  DwarfSection sec;
  sec.loc = loc();
  advance();
  if (!at(Tok::DotIdent) && !at(Tok::Ident)) syntaxError();
  sec.name = intern(tok_.text);
  advance();
  // Optional ELF-style flags: .section .name, "flags", @type
  while (accept(Tok::Comma)) {
    if (at(Tok::String) || at(Tok::Ident) || at(Tok::DotIdent)) advance();
    else if (accept(Tok::At)) { if (!at(Tok::Ident)) syntaxError(); advance(); }
    else syntaxError();
  }
  expect(Tok::LBrace);
  std::vector<SectionItem> items;
  std::vector<Initializer> vals;
  while (!at(Tok::RBrace)) {
    if (at(Tok::Eof)) syntaxError();
    SectionItem it;
    it.loc = loc();
    if (at(Tok::Ident) && peek().kind == Tok::Colon) {
      it.kind = SectionItem::LabelDef;
      it.label = intern(tok_.text);
      advance();
      advance();
      items.push_back(it);
      continue;
    }
    if (!at(Tok::DotIdent)) syntaxError();
    std::string_view w = tok_.text;
    if (w == ".b8") it.width = Type::B8;
    else if (w == ".b16") it.width = Type::B16;
    else if (w == ".b32") it.width = Type::B32;
    else if (w == ".b64") it.width = Type::B64;
    else syntaxError();
    advance();
    vals.clear();
    for (;;) {
      Initializer v;
      v.loc = loc();
      if (at(Tok::Ident) || at(Tok::DotIdent)) {
        v.kind = InitKind::Address;
        v.symName = intern(tok_.text);
        v.sym = lookup(v.symName);
        advance();
        if (at(Tok::Minus) && peek().kind == Tok::Ident) {  // $L__end - $L__start
          advance();
          v.minusName = intern(tok_.text);
          advance();
        }
        if (at(Tok::Plus) || at(Tok::Minus)) {
          bool neg = at(Tok::Minus);
          advance();
          ConstValue off = parseUnary();
          v.offset = neg ? -off.asInt() : off.asInt();
        }
      } else {
        ConstValue c = parseConstExpr();
        if (c.isFloat) syntaxError();
        v.kind = InitKind::Int;
        v.bits = c.bits;
      }
      vals.push_back(v);
      if (!accept(Tok::Comma)) break;
    }
    it.values = m_->arena.copy(vals);
    items.push_back(it);
  }
  advance();
  sec.items = m_->arena.copy(items);
  m_->order.push_back({TopLevel::Section, static_cast<uint32_t>(m_->sections.size())});
  m_->sections.push_back(sec);
}

// ------------------------------------------------------------------------------------------
// Functions
// ------------------------------------------------------------------------------------------

Variable *Parser::parseParam(Function *fn, bool isReturn, bool isEntry) {
  auto *v = m_->arena.make<Variable>();
  v->owner = fn;
  v->isParam = true;
  v->isReturn = isReturn;
  v->loc = loc();
  if (atDot(".param")) v->space = StateSpace::Param;
  else if (atDot(".reg")) v->space = StateSpace::Reg;
  else syntaxError();
  advance();
  if (!parseTypeAndAttrs(*v)) syntaxError();
  if (!at(Tok::Ident)) syntaxError();
  v->name = intern(tok_.text);
  v->loc = loc();
  advance();
  std::vector<uint64_t> dims;
  while (accept(Tok::LBracket)) {
    if (at(Tok::RBracket)) dims.push_back(0);
    else dims.push_back(expectUInt());
    expect(Tok::RBracket);
  }
  v->dims = m_->arena.copy(dims);
  (void)isEntry;
  return v;
}

void Parser::parseParamList(std::vector<Variable *> &out, Function *fn, bool isReturn, bool isEntry) {
  expect(Tok::LParen);
  if (accept(Tok::RParen)) return;
  for (;;) {
    out.push_back(parseParam(fn, isReturn, isEntry));
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::RParen);
}

void Parser::parsePerfDirectives(Function *fn) {
  std::vector<std::string_view> pragmas(fn->perf.pragmas.begin(), fn->perf.pragmas.end());
  auto dims = [&](std::array<uint32_t, 3> &d) {
    advance();
    for (int i = 0; i < 3; ++i) {
      d[i] = static_cast<uint32_t>(expectUInt());
      if (!accept(Tok::Comma)) break;
    }
  };
  while (at(Tok::DotIdent)) {
    std::string_view d = tok_.text;
    // A .func takes only ABI attributes; the performance directives belong to entries.
    if (!fn->isEntry && d != ".noreturn" && d != ".abi_preserve" && d != ".abi_preserve_control" &&
        d != ".pragma")
      break;
    if (fn->isEntry && (d == ".noreturn" || d == ".abi_preserve" || d == ".abi_preserve_control")) break;
    if (d == ".maxnreg") { advance(); fn->perf.maxnreg = static_cast<uint32_t>(expectUInt()); }
    else if (d == ".maxntid") { fn->perf.maxntidLoc = loc(); dims(fn->perf.maxntid); }
    else if (d == ".reqntid") { fn->perf.reqntidLoc = loc(); dims(fn->perf.reqntid); }
    else if (d == ".reqnctapercluster") { fn->perf.reqnctaperclusterLoc = loc(); dims(fn->perf.reqnctapercluster); }
    else if (d == ".minnctapersm") { advance(); fn->perf.minnctapersm = static_cast<uint32_t>(expectUInt()); }
    else if (d == ".maxnctapersm") { advance(); fn->perf.maxnctapersm = static_cast<uint32_t>(expectUInt()); }
    else if (d == ".maxclusterrank") {
      fn->perf.maxclusterrankLoc = loc();
      advance();
      fn->perf.maxclusterrank = static_cast<uint32_t>(expectUInt());
    }
    else if (d == ".minperctamemory") { advance(); fn->perf.minperctamemory = static_cast<uint32_t>(expectUInt()); }
    else if (d == ".explicitcluster") { advance(); fn->perf.explicitcluster = true; }
    else if (d == ".blocksareclusters") { advance(); fn->perf.blocksareclusters = true; }
    else if (d == ".noreturn") { advance(); fn->noreturn = true; }
    else if (d == ".abi_preserve") { advance(); fn->abiPreserve = static_cast<int32_t>(expectUInt()); }
    else if (d == ".abi_preserve_control") { advance(); fn->abiPreserveControl = static_cast<int32_t>(expectUInt()); }
    else if (d == ".pragma") { advance(); parsePragmaList(pragmas); }
    else break;
  }
  fn->perf.pragmas = m_->arena.copy(pragmas);
}

static bool sameSignature(const Function &a, const Function &b, std::string &why) {
  if (a.params.size() != b.params.size() || a.results.size() != b.results.size()) {
    why = "number of parameters differ";
    return false;
  }
  return true;
}

Function *Parser::parseFunction(Linkage linkage, bool isEntry, SourceLoc startLoc) {
  auto *fn = m_->arena.make<Function>();
  fn->isEntry = isEntry;
  fn->linkage = linkage;
  fn->loc = startLoc;
  std::vector<Variable *> results, params;
  if (!isEntry && at(Tok::LParen)) parseParamList(results, fn, true, false);
  if (!at(Tok::Ident)) syntaxError();
  fn->name = intern(tok_.text);
  SourceLoc nameLoc = loc();
  advance();
  if (at(Tok::LParen)) parseParamList(params, fn, false, isEntry);
  fn->results = m_->arena.copy(std::span<Variable *const>(results));
  fn->params = m_->arena.copy(std::span<Variable *const>(params));
  parsePerfDirectives(fn);

  // A function may be declared several times and defined once.
  Function *prev = nullptr;
  if (Decl *d = lookup(fn->name)) {
    if (d->kind == DeclKind::Function) prev = static_cast<Function *>(d);
    else error(nameLoc, fmt::format("Inconsistent redefinition of variable '{}'", fn->name.str())),
         fatal(nameLoc, fmt::format("Inconsistent redefinition of symbol '{}'", fn->name.str()));
  }
  bool isDefinition = at(Tok::LBrace);
  fn->headerEnd = loc();
  if (prev) {
    std::string why;
    if (prev->isDefinition && isDefinition)
      error(nameLoc, fmt::format("Duplicate definition of function '{}'", fn->name.str()));
    else if (!sameSignature(*prev, *fn, why))
      error(nameLoc, fmt::format("Inconsistent prototypes of '{}', {}", fn->name.str(), why));
  }
  if (!prev) {
    declare(fn->name, fn, nameLoc, "function");
    m_->order.push_back({TopLevel::Func, static_cast<uint32_t>(m_->functions.size())});
    m_->functions.push_back(fn);
  } else if (isDefinition && !prev->isDefinition) {
    // The definition replaces the declaration in place so that earlier references see it.
    Function keep = *fn;
    *prev = keep;
    fn = prev;
  }
  if (checker_) checker_->checkFunctionHeader(*fn);
  if (isDefinition) {
    fn->isDefinition = true;
    parseBody(fn);
  } else {
    expect(Tok::Semi);
  }
  return fn;
}

} // namespace optxas::ptx
