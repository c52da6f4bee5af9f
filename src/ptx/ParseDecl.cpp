// PTX parser, declarations and names: variable and register declarations, and the scoped
// binding tables that resolve names while parsing.
#include <fmt/format.h>

#include "ParserImpl.h"

namespace optxas::ptx {

// ------------------------------------------------------------------------------------------
// Declarations
// ------------------------------------------------------------------------------------------

// Parses the part of a variable declaration between the state space and the name:
// [.align N] [.v2|.v4|.v8] .type [.ptr ...] [.attribute(...)], in any order ptxas accepts.
bool Parser::parseTypeAndAttrs(Variable &v) {
  bool haveType = false;
  while (at(Tok::DotIdent)) {
    std::string_view d = tok_.text;
    if (d == ".align") {
      advance();
      v.align = static_cast<uint32_t>(expectUInt());
      continue;
    }
    if (d == ".v2" || d == ".v4" || d == ".v8") {
      v.vecWidth = static_cast<uint8_t>(d[2] - '0');
      advance();
      continue;
    }
    if (d == ".ptr") {
      // .ptr [.space] [.align N] on kernel parameters
      v.isPtr = true;
      advance();
      if (at(Tok::DotIdent)) {
        std::string_view s = tok_.text;
        if (s == ".global") { v.ptrSpace = StateSpace::Global; advance(); }
        else if (s == ".shared") { v.ptrSpace = StateSpace::Shared; advance(); }
        else if (s == ".const") { v.ptrSpace = StateSpace::Const; advance(); }
        else if (s == ".local") { v.ptrSpace = StateSpace::Local; advance(); }
      }
      if (atDot(".align")) {
        advance();
        v.ptrAlign = static_cast<uint32_t>(expectUInt());
      }
      continue;
    }
    if (d == ".attribute") {
      advance();
      expect(Tok::LParen);
      for (;;) {
        if (atDot(".managed")) { v.attrs.managed = true; advance(); }
        else if (atDot(".unified")) {
          v.attrs.unified = true;
          advance();
          if (accept(Tok::LParen)) {
            v.attrs.unifiedId[0] = expectUInt();
            expect(Tok::Comma);
            v.attrs.unifiedId[1] = expectUInt();
            expect(Tok::RParen);
          }
        } else syntaxError();
        if (!accept(Tok::Comma)) break;
      }
      expect(Tok::RParen);
      continue;
    }
    if (haveType) break;
    auto t = typeFromName(d.substr(1));
    if (!t) syntaxError();
    v.type = *t;
    haveType = true;
    advance();
  }
  return haveType;
}

void Parser::parseVarDecl(StateSpace space, Linkage linkage, Function *owner, SourceLoc startLoc,
                          std::vector<Variable *> *out) {
  Variable proto;
  proto.space = space;
  proto.linkage = linkage;
  proto.owner = owner;
  if (!parseTypeAndAttrs(proto)) syntaxError();
  std::vector<uint64_t> dims;
  for (;;) {
    if (!at(Tok::Ident)) syntaxError();
    auto *v = m_->arena.make<Variable>(proto);
    v->name = intern(tok_.text);
    v->loc = loc();
    advance();
    dims.clear();
    bool paramCount = false;
    uint64_t count = 0;
    if (at(Tok::LAngle)) {
      // name<N>: N variables name0..name(N-1) (rare outside .reg)
      advance();
      if (!at(Tok::Int)) syntaxError();
      count = tok_.intValue;
      advance();
      expect(Tok::RAngle);
      paramCount = true;
    }
    while (accept(Tok::LBracket)) {
      if (at(Tok::RBracket)) dims.push_back(0);
      else dims.push_back(expectUInt());
      expect(Tok::RBracket);
    }
    if (accept(Tok::Equal)) {
      v->init = parseInitializer(*v);
      // `a[] = {...}` takes its size from the initializer.
      if (!dims.empty() && dims[0] == 0 && v->init->kind == InitKind::Aggregate) dims[0] = v->init->elems.size();
    }
    v->dims = m_->arena.copy(dims);
    (void)paramCount;
    (void)count;
    Decl *prev = owner ? nullptr : lookup(v->name);
    if (prev && prev->kind == DeclKind::Variable &&
        (static_cast<Variable *>(prev)->linkage == Linkage::Extern || v->linkage == Linkage::Extern)) {
      // An .extern declaration is resolved by a later visible definition (or repeats).
      auto *pv = static_cast<Variable *>(prev);
      if (v->linkage == Linkage::None || pv->linkage == Linkage::None)
        error(v->loc, fmt::format("'.extern' variable '{}' cannot be resolved by a '.static'", v->name.str()));
      else if (v->linkage != Linkage::Extern)
        binding_[v->name.id()] = v;
    } else {
      declare(v->name, v, v->loc, "variable");
    }
    if (checker_) checker_->checkVariable(*v);
    if (out) out->push_back(v);
    if (!accept(Tok::Comma)) break;
  }
  (void)startLoc;
  expect(Tok::Semi);
}

void Parser::parseRegDecl(Function *owner, std::vector<RegDecl *> *out) {
  RegDecl proto;
  proto.owner = owner;
  bool haveType = false;
  while (at(Tok::DotIdent)) {
    std::string_view d = tok_.text;
    if (d == ".v2" || d == ".v4" || d == ".v8") proto.vecWidth = static_cast<uint8_t>(d[2] - '0');
    else if (d == ".align") { advance(); proto.align = static_cast<uint32_t>(expectUInt()); continue; }
    else {
      if (haveType) syntaxError();
      auto t = typeFromName(d.substr(1));
      if (!t) syntaxError();
      proto.type = *t;
      haveType = true;
    }
    advance();
  }
  if (!haveType) syntaxError();
  if (proto.type == Type::Pred && proto.vecWidth > 1)
    error(loc(), "Predicate type can only be used to define scalar register variables");
  if (accept(Tok::Semi)) return;  // `.reg .b32;` declares nothing (ptxas accepts it)
  for (;;) {
    if (!at(Tok::Ident)) syntaxError();
    auto *r = m_->arena.make<RegDecl>(proto);
    r->name = intern(tok_.text);
    r->loc = loc();
    advance();
    if (accept(Tok::LAngle)) {
      if (!at(Tok::Int)) syntaxError();
      uint64_t n = tok_.intValue;
      advance();
      expect(Tok::RAngle);
      r->parameterized = true;
      r->count = static_cast<uint32_t>(std::min<uint64_t>(n, UINT32_MAX));
    }
    r->firstId = numRegs_;
    numRegs_ += r->count;
    checkRegisterClash(*r);
    if (r->parameterized) {
      // %r<N> binds the prefix for %r0..%r(N-1); it does not bind "%r" itself.
      uint32_t id = r->name.id();
      if (regPrefix_.size() <= id) regPrefix_.resize(id + 1024, nullptr);
      regUndo_.push_back({id, regPrefix_[id]});
      regPrefix_[id] = r;
      ++regGen_;
    } else {
      declare(r->name, r, r->loc, "variable");
    }
    if (out) out->push_back(r);
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::Semi);
}

// `.reg .b32 %r<10>` and `.reg .b32 %r3` in one scope name the same register twice.
void Parser::checkRegisterClash(const RegDecl &r) {
  if (!r.parameterized) {
    uint32_t idx;
    const RegDecl *p = lookupRegister(r.name, idx);
    if (p && p->owner == r.owner && inCurrentRegScope(p))
      error(r.loc, fmt::format("Duplicate definition of variable '{}'", r.name.str()));
    else
      simpleRegs_.push_back(&r);
    return;
  }
  // Compare with the plain registers declared so far in this function (usually none or two).
  std::string_view prefix = r.name.str();
  for (const RegDecl *p : simpleRegs_) {
    std::string_view n = p->name.str();
    if (p->owner != r.owner || n.size() <= prefix.size() || !n.starts_with(prefix)) continue;
    std::string_view digits = n.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string_view::npos || digits.size() > 9) continue;
    if (std::stoul(std::string(digits)) < r.count && lookup(p->name) == p) {
      error(r.loc, fmt::format("Duplicate definition of variable '{}'", n));
      return;
    }
  }
}

bool Parser::inCurrentRegScope(const RegDecl *p) const {
  size_t mark = regScopeMarks_.empty() ? 0 : regScopeMarks_.back();
  for (size_t i = mark; i < regUndo_.size(); ++i)
    if (regPrefix_[regUndo_[i].id] == p) return true;
  return regScopeMarks_.empty();
}

// ------------------------------------------------------------------------------------------
// Names
// ------------------------------------------------------------------------------------------

void Parser::pushScope() {
  scopeMarks_.push_back(undo_.size());
  regScopeMarks_.push_back(regUndo_.size());
}

void Parser::popScope() {
  size_t mark = scopeMarks_.back();
  scopeMarks_.pop_back();
  while (undo_.size() > mark) {
    binding_[undo_.back().id] = undo_.back().prev;
    undo_.pop_back();
  }
  size_t rmark = regScopeMarks_.back();
  regScopeMarks_.pop_back();
  if (regUndo_.size() > rmark) ++regGen_;
  while (regUndo_.size() > rmark) {
    regPrefix_[regUndo_.back().id] = static_cast<RegDecl *>(regUndo_.back().prev);
    regUndo_.pop_back();
  }
}

bool Parser::declare(Ident name, Decl *d, SourceLoc at, std::string_view what) {
  uint32_t id = name.id();
  if (binding_.size() <= id) binding_.resize(id * 2 + 1024, nullptr);
  Decl *prev = binding_[id];
  // Redefinition in the same scope is an error; shadowing an outer scope is allowed.
  if (prev) {
    size_t mark = scopeMarks_.empty() ? 0 : scopeMarks_.back();
    bool sameScope = scopeMarks_.empty();
    for (size_t i = mark; i < undo_.size() && !sameScope; ++i)
      if (undo_[i].id == id) sameScope = true;
    if (sameScope) {
      error(at, fmt::format("Duplicate definition of {} '{}'", what, name.str()));
      return false;
    }
  }
  if (!scopeMarks_.empty()) undo_.push_back({id, prev});
  binding_[id] = d;
  return true;
}

Decl *Parser::lookup(Ident name) const {
  uint32_t id = name.id();
  return id < binding_.size() ? binding_[id] : nullptr;
}

const RegDecl *Parser::lookupRegister(Ident name, uint32_t &index) {
  uint32_t id = name.id();
  if (id < regCache_.size() && regCache_[id].gen == regGen_) {
    index = regCache_[id].index;
    return regCache_[id].decl;
  }
  const RegDecl *found = nullptr;
  uint32_t idx = 0;
  std::string_view s = name.str();
  size_t n = s.size();
  while (n > 0 && s[n - 1] >= '0' && s[n - 1] <= '9') --n;
  if (n > 0 && n < s.size() && s.size() - n <= 10) {
    Ident prefix = m_->names.find(s.substr(0, n));
    uint64_t v = 0;
    for (size_t i = n; i < s.size(); ++i) v = v * 10 + static_cast<uint64_t>(s[i] - '0');
    if (prefix && prefix.id() < regPrefix_.size()) {
      const RegDecl *r = regPrefix_[prefix.id()];
      if (r && v < r->count) { found = r; idx = static_cast<uint32_t>(v); }
    }
  }
  if (regCache_.size() <= id) regCache_.resize(id * 2 + 1024, RegCache{nullptr, 0, 0});
  regCache_[id] = {found, idx, regGen_};
  index = idx;
  return found;
}

} // namespace optxas::ptx
