// PTX parser, function bodies: statements, labels, instructions and operands.
#include "ParserImpl.h"

#include <fmt/format.h>

namespace optxas::ptx {

// ------------------------------------------------------------------------------------------
// Bodies and statements
// ------------------------------------------------------------------------------------------

void Parser::parseBody(Function *fn) {
  fn_ = fn;
  body_.clear();
  instrs_.clear();
  regs_.clear();
  simpleRegs_.clear();
  locals_.clear();
  debugLocs_.clear();
  labels_.clear();
  pendingLabelRefs_.clear();
  numRegs_ = 0;
  currentDebugLoc_ = 0;
  fn->bodyEnd = loc();

  pushScope();
  for (Variable *v : fn->results) declare(v->name, v, v->loc, "variable");
  for (Variable *v : fn->params) declare(v->name, v, v->loc, "variable");
  expect(Tok::LBrace);
  while (!at(Tok::RBrace)) parseStatement();
  fn->bodyEnd = loc();
  advance();
  resolveLabels(fn);
  popScope();

  fn->body = m_->arena.copy(std::span<Stmt *const>(body_));
  fn->instructions = m_->arena.copy(std::span<Instruction *const>(instrs_));
  fn->labels = m_->arena.copy(std::span<Label *const>(labels_));
  fn->regs = m_->arena.copy(std::span<RegDecl *const>(regs_));
  fn->locals = m_->arena.copy(std::span<Variable *const>(locals_));
  fn->debugLocs = m_->arena.copy(debugLocs_);
  fn->numRegs = numRegs_;
  for (Label *l : labels_) labelByIdent_[l->name.id()] = nullptr;
  if (checker_) checker_->checkFunctionEnd(*fn);
  fn_ = nullptr;
}

void Parser::resolveLabels(Function *fn) {
  for (const PendingRef &r : pendingLabelRefs_)
    if (!r.label->defined)
      error(r.at, fmt::format("Unknown symbol '{}'", r.label->name.str()));
  (void)fn;
}

Label *Parser::labelRef(Ident name, SourceLoc at) {
  uint32_t id = name.id();
  if (labelByIdent_.size() <= id) labelByIdent_.resize(id * 2 + 1024, nullptr);
  Label *l = labelByIdent_[id];
  if (!l) {
    l = m_->arena.make<Label>();
    l->name = name;
    l->owner = fn_;
    l->loc = at;
    labelByIdent_[id] = l;
    labels_.push_back(l);
  }
  if (!l->defined) pendingLabelRefs_.push_back({l, at});
  return l;
}

void Parser::parseStatement() {
  SourceLoc start = loc();
  switch (tok_.kind) {
  case Tok::LBrace: {
    NestGuard guard(*this, 6);
    advance();
    auto *b = m_->arena.make<ScopeStmt>(StmtKind::ScopeBegin);
    b->loc = start;
    body_.push_back(b);
    pushScope();
    while (!at(Tok::RBrace)) parseStatement();
    auto *e = m_->arena.make<ScopeStmt>(StmtKind::ScopeEnd);
    e->loc = loc();
    body_.push_back(e);
    advance();
    popScope();
    return;
  }
  case Tok::Eof:
    syntaxError();
  case Tok::Semi:
    advance();
    return;
  case Tok::At: {
    advance();
    Guard g;
    g.negated = accept(Tok::Bang);
    if (!at(Tok::Ident)) syntaxError();
    Ident name = intern(tok_.text);
    SourceLoc predLoc = loc();
    advance();
    Decl *d = lookup(name);
    if (d && d->kind == DeclKind::Register) {
      g.reg = static_cast<RegDecl *>(d);
    } else if (!d) {
      g.reg = lookupRegister(name, g.regIndex);
      if (!g.reg) {
        error(predLoc, "Predicate expression expected");
        error(predLoc, fmt::format("Unknown symbol '{}'", name.str()));
      }
    }
    if (g.reg && g.reg->type != Type::Pred) error(predLoc, "Predicate expression expected");
    if (d && d->kind != DeclKind::Register) error(predLoc, "Predicate expression expected");
    if (!at(Tok::Ident)) syntaxError();
    parseInstruction(start, g);
    return;
  }
  case Tok::Ident:
    if (peek().kind == Tok::Colon) {
      Ident name = intern(tok_.text);
      advance();
      advance();
      uint32_t id = name.id();
      if (labelByIdent_.size() <= id) labelByIdent_.resize(id * 2 + 1024, nullptr);
      Label *l = labelByIdent_[id];
      if (l && l->defined) {
        error(start, fmt::format("Duplicate definition of label '{}'", name.str()));
        l = m_->arena.make<Label>();  // keep going with a fresh, unreachable label
        l->name = name;
        l->owner = fn_;
      } else if (!l) {
        l = m_->arena.make<Label>();
        l->name = name;
        l->owner = fn_;
        labelByIdent_[id] = l;
        labels_.push_back(l);
      }
      l->defined = true;
      l->loc = start;
      l->stmtIndex = static_cast<uint32_t>(body_.size());
      l->instrIndex = static_cast<uint32_t>(instrs_.size());
      auto *s = m_->arena.make<LabelStmt>();
      s->loc = start;
      s->label = l;
      body_.push_back(s);
      if (at(Tok::DotIdent)) parseLabelDirective(l);
      return;
    }
    parseInstruction(start, Guard{});
    return;
  case Tok::DotIdent: {
    std::string_view d = tok_.text;
    if (d == ".reg") {
      advance();
      size_t before = regs_.size();
      parseRegDecl(fn_, &regs_);
      for (size_t i = before; i < regs_.size(); ++i) {
        auto *s = m_->arena.make<RegDeclStmt>();
        s->loc = regs_[i]->loc;
        s->reg = regs_[i];
        body_.push_back(s);
      }
      return;
    }
    if (d == ".loc") return parseLoc();
    if (d == ".pragma") {
      advance();
      std::vector<std::string_view> strs;
      parsePragmaList(strs);
      auto *s = m_->arena.make<PragmaStmt>();
      s->loc = start;
      s->strings = m_->arena.copy(strs);
      body_.push_back(s);
      return;
    }
    if (auto space = spaceFromDirective(d); space && *space != StateSpace::SReg) {
      advance();
      std::vector<Variable *> vars;
      parseVarDecl(*space, Linkage::None, fn_, start, &vars);
      for (Variable *v : vars) {
        locals_.push_back(v);
        auto *s = m_->arena.make<VarDeclStmt>();
        s->loc = v->loc;
        s->var = v;
        body_.push_back(s);
      }
      return;
    }
    syntaxError();
  }
  case Tok::DwarfLine:
    m_->dwarfLines.push_back({m_->arena.copyString(tok_.text), loc()});
    advance();
    return;
  default:
    syntaxError();
  }
}

// `L: .branchtargets A, B;`  `L: .calltargets f, g;`  `L: .callprototype (...) _ (...);`
void Parser::parseLabelDirective(Label *l) {
  std::string_view d = tok_.text;
  if (d == ".branchtargets") {
    advance();
    std::vector<Label *> targets;
    for (;;) {
      if (!at(Tok::Ident)) syntaxError();
      targets.push_back(labelRef(intern(tok_.text), loc()));
      advance();
      if (!accept(Tok::Comma)) break;
    }
    expect(Tok::Semi);
    l->labelKind = LabelKind::BranchTargets;
    l->branchTargets = m_->arena.copy(std::span<Label *const>(targets));
    return;
  }
  if (d == ".calltargets") {
    advance();
    std::vector<Function *> targets;
    for (;;) {
      if (!at(Tok::Ident)) syntaxError();
      Ident name = intern(tok_.text);
      Decl *dd = lookup(name);
      if (!dd || dd->kind != DeclKind::Function)
        error(loc(), fmt::format("Unknown symbol '{}'", name.str()));
      else
        targets.push_back(static_cast<Function *>(dd));
      advance();
      if (!accept(Tok::Comma)) break;
    }
    expect(Tok::Semi);
    l->labelKind = LabelKind::CallTargets;
    l->callTargets = m_->arena.copy(std::span<Function *const>(targets));
    return;
  }
  if (d == ".callprototype") {
    advance();
    l->labelKind = LabelKind::CallPrototype;
    l->prototype = parsePrototype();
    return;
  }
}

// .callprototype [(.param .b32 _)] _ [(.param .b32 _, ...)] [.noreturn] ;
Prototype *Parser::parsePrototype() {
  auto *p = m_->arena.make<Prototype>();
  std::vector<Variable *> results, params;
  if (at(Tok::LParen)) parseParamList(results, nullptr, true, false);
  if (!at(Tok::Ident) || tok_.text != "_") syntaxError();
  advance();
  if (at(Tok::LParen)) parseParamList(params, nullptr, false, false);
  while (at(Tok::DotIdent)) {
    if (atDot(".noreturn")) p->noreturn = true;
    else if (atDot(".abi_preserve") || atDot(".abi_preserve_control")) { advance(); expectUInt(); continue; }
    else syntaxError();
    advance();
  }
  expect(Tok::Semi);
  p->results = m_->arena.copy(std::span<Variable *const>(results));
  p->params = m_->arena.copy(std::span<Variable *const>(params));
  return p;
}

// .loc file line col [, function_name label[+off], inlined_at file line col]
void Parser::parseLoc() {
  auto *s = m_->arena.make<LocStmt>();
  s->loc = loc();
  advance();
  DebugLoc &d = s->dbg;
  d.file = static_cast<uint32_t>(expectUInt());
  d.line = static_cast<uint32_t>(expectUInt());
  d.col = static_cast<uint32_t>(expectUInt());
  while (accept(Tok::Comma)) {
    if (!at(Tok::Ident)) syntaxError();
    if (tok_.text == "function_name") {
      advance();
      if (!at(Tok::Ident)) syntaxError();
      d.functionName = intern(tok_.text);
      advance();
      if (accept(Tok::Plus)) d.functionNameOffset = static_cast<int64_t>(expectUInt());
    } else if (tok_.text == "inlined_at") {
      advance();
      d.hasInlinedAt = true;
      d.inlinedFile = static_cast<uint32_t>(expectUInt());
      d.inlinedLine = static_cast<uint32_t>(expectUInt());
      d.inlinedCol = static_cast<uint32_t>(expectUInt());
    } else {
      syntaxError();
    }
  }
  debugLocs_.push_back(d);
  currentDebugLoc_ = static_cast<uint32_t>(debugLocs_.size());
  body_.push_back(s);
}

// ------------------------------------------------------------------------------------------
// Instructions
// ------------------------------------------------------------------------------------------

void Parser::parseInstruction(SourceLoc startLoc, Guard guard) {
  std::string_view opText = tok_.text;
  SourceLoc opLoc = loc();
  auto op = opcodeFromName(opText, tok_.hash);
  if (!op) {
    error(opLoc, fmt::format("Not a name of any known instruction: '{}'", opText));
    // Skip the rest of the instruction; a syntax error inside it is still fatal in ptxas,
    // but we cannot know its grammar, so stop at the ';'.
    while (!at(Tok::Semi) && !at(Tok::Eof) && !at(Tok::RBrace)) advance();
    expect(Tok::Semi);
    return;
  }
  auto *ins = m_->arena.make<Instruction>();
  ins->loc = startLoc;
  ins->op = *op;
  ins->guard = guard;
  ins->debugLoc = currentDebugLoc_;
  advance();
  parseModifiers(*ins, opText);
  parseOperands(*ins);
  expect(Tok::Semi);
  body_.push_back(ins);
  instrs_.push_back(ins);
  if (checker_) checker_->checkInstruction(*ins, *fn_);
  // ptxas reports unknown operand names after the instruction's own errors.
  for (auto &[at, msg] : deferred_) error(at, msg);
  deferred_.clear();
}

static bool parseShape(std::string_view s, Shape &out) {
  // m16n8k16, m8n8, m64n256k16
  auto num = [&](size_t &i, uint16_t &v) {
    size_t b = i;
    uint32_t x = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - b < 5) x = x * 10 + (s[i++] - '0');
    v = static_cast<uint16_t>(x);
    return i > b;
  };
  size_t i = 0;
  if (i >= s.size() || s[i++] != 'm' || !num(i, out.m)) return false;
  if (i >= s.size() || s[i++] != 'n' || !num(i, out.n)) return false;
  if (i == s.size()) { out.k = 0; return true; }
  if (s[i++] != 'k' || !num(i, out.k)) return false;
  return i == s.size();
}

void Parser::parseModifiers(Instruction &ins, std::string_view opcodeText) {
  modBuf_.clear();
  while (at(Tok::DotIdent)) {
    std::string_view s = tok_.text.substr(1);
    Suffix sfx = lookupSuffix(s, tok_.hash);
    if (sfx.kind == Suffix::IsType) {
      if (ins.numTypes < ins.typeList.size()) ins.typeList[ins.numTypes++] = sfx.type();
      else error(loc(), fmt::format("Unknown modifier '{}'", tok_.text));
    } else if (sfx.kind == Suffix::IsMod) {
      modBuf_.push_back(sfx.mod());
    } else if (Shape sh; parseShape(s, sh)) {
      ins.shape = sh;
      modBuf_.push_back(Mod::Shape);
    } else {
      error(loc(), fmt::format("Unknown modifier '{}'", tok_.text));
    }
    advance();
  }
  ins.mods = m_->arena.copy(modBuf_);
  (void)opcodeText;
}

void Parser::parseOperands(Instruction &ins) {
  if (at(Tok::Semi)) return;
  if (operandBufs_.size() <= operandDepth_) operandBufs_.resize(operandDepth_ + 1);
  std::vector<Operand> &ops = operandBufs_[operandDepth_];
  ops.clear();
  ++operandDepth_;
  for (;;) {
    // `_` (sink) is a destination: first operand, or inside a vector or pair.
    if (at(Tok::Ident) && tok_.text == "_" && !operandBufs_[operandDepth_ - 1].empty() &&
        ins.op != Opcode::Call)
      syntaxError();
    Operand o = parseOperand(ins, true);
    operandBufs_[operandDepth_ - 1].push_back(o);
    if (!accept(Tok::Comma)) break;
  }
  --operandDepth_;
  ins.operands = m_->arena.copy(operandBufs_[operandDepth_]);
}

Operand Parser::parseOperand(Instruction &ins, bool allowList) {
  SourceLoc at = loc();
  Operand o;
  switch (tok_.kind) {
  case Tok::Bang: {
    advance();
    if (!this->at(Tok::Ident)) {
      // !1: a constant predicate
      ConstValue v = parseUnary();
      o.kind = OperandKind::ImmInt;
      o.bits = v.isFloat ? v.asDouble() == 0 : v.bits == 0;
      o.loc = {at.line, at.col};
      return o;
    }
    o = parseIdentOperand(ins);
    o.negated = true;
    o.loc = {at.line, at.col};
    return o;
  }
  case Tok::LBrace:
    o = parseVectorOperand(ins);
    break;
  case Tok::LBracket:
    o = parseAddress(ins);
    break;
  case Tok::LParen:
    if (ins.op == Opcode::Call && allowList) {
      o = parseParenList(ins);
      break;
    }
    [[fallthrough]];
  case Tok::Int: case Tok::Float: case Tok::FloatHex: case Tok::Minus: case Tok::Tilde:
  case Tok::Plus: {
    ConstValue v = parseConstExpr();
    o.kind = v.isFloat ? OperandKind::ImmFloat : OperandKind::ImmInt;
    o.isSingle = v.isSingle;
    o.bits = v.bits;
    break;
  }
  case Tok::Ident:
    o = parseIdentOperand(ins);
    break;
  default:
    syntaxError();
  }
  o.loc = {at.line, at.col};
  // p|q: a pair of destinations (setp, tex, elect, ...)
  if (o.kind == OperandKind::Reg || o.kind == OperandKind::Sink) {
    if (this->at(Tok::Pipe)) {
      advance();
      if (!this->at(Tok::Ident)) syntaxError();
      Operand second = parseIdentOperand(ins);
      Operand pair[2] = {o, second};
      Operand p;
      p.kind = OperandKind::Pair;
      p.loc = {at.line, at.col};
      p.elems = m_->arena.copy(std::span<const Operand>(pair, 2));
      return p;
    }
  }
  return o;
}

Operand Parser::parseIdentOperand(Instruction &ins) {
  Operand o;
  o.loc = lineCol();
  std::string_view text = tok_.text;
  if (text == "_") {
    o.kind = OperandKind::Sink;
    advance();
    return o;
  }
  Ident name = m_->names.intern(text, tok_.hash);
  advance();
  Decl *d = lookup(name);
  if (d) {
    if (d->kind == DeclKind::Register) {
      o.kind = OperandKind::Reg;
      o.reg = static_cast<RegDecl *>(d);
    } else {
      o.kind = OperandKind::Symbol;
      o.sym = d;
    }
  } else if (const RegDecl *r = lookupRegister(name, o.regIndex)) {
    o.kind = OperandKind::Reg;
    o.reg = r;
  } else if (auto sr = text[0] == '%' ? sregFromName(text) : std::nullopt) {
    o.kind = OperandKind::SReg;
    o.sreg = *sr;
  } else if (text[0] == '%') {
    deferred_.emplace_back(o.loc.in(fileId_), fmt::format("Unknown symbol '{}'", text));
    o.kind = OperandKind::Reg;  // unresolved register (reg == nullptr)
  } else {
    // Not declared (yet): a label defined later in the body, or an error at the end.
    o.kind = OperandKind::Symbol;
    if (fn_) o.sym = labelRef(name, o.loc.in(fileId_));
    else error(o.loc.in(fileId_), fmt::format("Unknown symbol '{}'", text));
  }
  // %v.x, %tid.y, %r1.b0: a component selector written right after the name.
  if (at(Tok::DotIdent) && !tok_.spaceBefore) {
    auto m = modFromName(tok_.text.substr(1));
    if (!m) fatal(loc(), fmt::format("Unknown vector selector: '{}'", tok_.text.substr(1)));
    o.component = *m;
    advance();
  }
  // sym+4 (mov, cvta of an address with offset)
  if (o.kind == OperandKind::Symbol && (at(Tok::Plus) || at(Tok::Minus)) && ins.op != Opcode::Call) {
    bool neg = at(Tok::Minus);
    advance();
    ConstValue off = parseUnary();
    if (off.isFloat) syntaxError();
    o.offset = neg ? -off.asInt() : off.asInt();
  }
  return o;
}

// [reg], [reg+imm], [sym+imm], [imm], or a bracketed list [tex, sampler, {coords}].
Operand Parser::parseAddress(Instruction &ins) {
  NestGuard guard(*this, 6);
  Operand o;
  o.loc = lineCol();
  advance();  // '['
  Operand first;
  bool haveFirst = false;
  if (at(Tok::Ident)) {
    first = parseIdentOperand(ins);
    haveFirst = true;
  } else if (at(Tok::LBrace)) {
    first = parseVectorOperand(ins);
    haveFirst = true;
  }
  if (haveFirst && at(Tok::Comma)) {
    std::vector<Operand> elems{first};
    while (accept(Tok::Comma)) elems.push_back(parseOperand(ins, false));
    expect(Tok::RBracket);
    o.kind = OperandKind::List;
    o.bracket = Bracket::Square;
    o.elems = m_->arena.copy(elems);
    return o;
  }
  o.kind = OperandKind::Address;
  if (haveFirst) {
    if (first.kind == OperandKind::Reg) {
      o.base = BaseKind::Reg;
      o.reg = first.reg;
      o.regIndex = first.regIndex;
      o.component = first.component;
    } else if (first.kind == OperandKind::Symbol) {
      o.base = BaseKind::Symbol;
      o.sym = first.sym;
      o.offset = first.offset;
    } else if (first.kind == OperandKind::SReg) {
      syntaxError();
    } else {
      syntaxError();
    }
    if (at(Tok::Plus) || at(Tok::Minus)) {
      bool neg = at(Tok::Minus);
      advance();
      SourceLoc offLoc = loc();
      ConstValue off = parseConstExpr();
      if (off.isFloat) error(offLoc, "Integer constant expression expected");
      o.offset += neg ? -off.asInt() : off.asInt();
    }
  } else {
    ConstValue a = parseConstExpr();
    if (a.isFloat) syntaxError();
    o.offset = a.asInt();
  }
  expect(Tok::RBracket);
  if (atDot(".unified")) {
    o.unified = true;
    advance();
  }
  return o;
}

Operand Parser::parseVectorOperand(Instruction &ins) {
  NestGuard guard(*this, 6);
  Operand o;
  o.loc = lineCol();
  o.kind = OperandKind::Vector;
  advance();  // '{'
  std::vector<Operand> elems;
  if (!at(Tok::RBrace)) {
    for (;;) {
      // Elements are registers, sinks or constants; no nested vectors or addresses.
      if (at(Tok::LBracket) || at(Tok::LBrace)) syntaxError();
      elems.push_back(parseOperand(ins, false));
      if (!accept(Tok::Comma)) break;
    }
  }
  expect(Tok::RBrace);
  o.elems = m_->arena.copy(elems);
  return o;
}

Operand Parser::parseParenList(Instruction &ins) {
  Operand o;
  o.loc = lineCol();
  o.kind = OperandKind::List;
  o.bracket = Bracket::Paren;
  advance();  // '('
  std::vector<Operand> elems;
  if (!at(Tok::RParen)) {
    for (;;) {
      elems.push_back(parseOperand(ins, false));
      if (!accept(Tok::Comma)) break;
    }
  }
  expect(Tok::RParen);
  o.elems = m_->arena.copy(elems);
  return o;
}

} // namespace optxas::ptx
