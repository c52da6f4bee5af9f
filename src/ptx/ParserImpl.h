// Private state of the PTX parser (see Parser.h). The parser is split over three files:
// Parser.cpp (module-level directives, declarations, functions), ParseBody.cpp (statements,
// instructions, operands) and ParseExpr.cpp (constant expressions, initializers).
#pragma once

#include <string>
#include <vector>

#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Lexer.h"
#include "optxas/ptx/Parser.h"

namespace optxas::ptx {

// Thrown on a fatal (syntax) error: ptxas stops parsing at the first one.
struct ParseAbort {};

// A folded constant expression.
struct ConstValue {
  bool isFloat = false;
  bool isSingle = false;   // a lone 0f literal: keep its f32 bits
  bool isUnsigned = false;
  uint64_t bits = 0;       // integer value, or f64 bits (f32 bits when isSingle)
  double asDouble() const;
  int64_t asInt() const;
};

class Parser {
public:
  Parser(std::string_view text, uint32_t fileId, DiagEngine &diags, const ParseOptions &opts);
  std::unique_ptr<Module> run();

  // ---- tokens ----
  const Token &tok() const { return tok_; }
  const Token &peek();
  void advance();
  bool at(Tok k) const { return tok_.kind == k; }
  bool atDot(std::string_view s) const { return tok_.kind == Tok::DotIdent && tok_.text == s; }
  bool accept(Tok k) { if (tok_.kind == k) { advance(); return true; } return false; }
  void expect(Tok k) { if (!accept(k)) syntaxError(); }
  [[noreturn]] void syntaxError();
  [[noreturn]] void fatal(SourceLoc loc, std::string msg);
  void error(SourceLoc loc, std::string msg);
  SourceLoc loc() const { return {fileId_, tok_.line, tok_.col}; }
  SourceLoc locOf(const Token &t) const { return {fileId_, t.line, t.col}; }
  LineCol lineCol() const { return {tok_.line, tok_.col}; }
  uint64_t expectUInt();                    // a non-negative integer constant expression
  std::string_view expectString();          // a string literal, without quotes

  // Nesting budget. ptxas's generated parser has a 10000-entry stack and fails with "memory
  // exhausted" on deeper input; we fail the same way, which also bounds our own recursion.
  struct NestGuard {
    Parser &p;
    unsigned cost;
    NestGuard(Parser &parser, unsigned c) : p(parser), cost(c) {
      p.nesting_ += cost;
      if (p.nesting_ > kNestLimit) p.nestingExhausted();
    }
    ~NestGuard() { p.nesting_ -= cost; }
  };
  static constexpr unsigned kNestLimit = 9978;
  [[noreturn]] void nestingExhausted();

  // ---- module level (Parser.cpp) ----
  void parseHeader();
  void parseTopLevel();
  void parseTarget();
  void parseFile();
  void parseSection();
  void parseAlias();
  void parsePragmaList(std::vector<std::string_view> &out);
  void parseLinkageItem();
  Function *parseFunction(Linkage linkage, bool isEntry, SourceLoc startLoc);
  void parseParamList(std::vector<Variable *> &out, Function *fn, bool isReturn, bool isEntry);
  Variable *parseParam(Function *fn, bool isReturn, bool isEntry);
  void parsePerfDirectives(Function *fn);
  // A variable declaration after its state-space keyword; declares each name in `out`.
  void parseVarDecl(StateSpace space, Linkage linkage, Function *owner, SourceLoc startLoc,
                    std::vector<Variable *> *out);
  void parseRegDecl(Function *owner, std::vector<RegDecl *> *out);
  void checkRegisterClash(const RegDecl &r);
  bool inCurrentRegScope(const RegDecl *p) const;
  bool parseTypeAndAttrs(Variable &v);
  std::optional<StateSpace> spaceFromDirective(std::string_view dir) const;

  // ---- bodies (ParseBody.cpp) ----
  void parseBody(Function *fn);
  void parseStatement();
  void parseLabelDirective(Label *label);
  Prototype *parsePrototype();
  void parseLoc();
  void parseInstruction(SourceLoc startLoc, Guard guard);
  void parseModifiers(Instruction &ins, std::string_view opcodeText);
  void parseOperands(Instruction &ins);
  Operand parseOperand(Instruction &ins, bool allowList);
  Operand parseIdentOperand(Instruction &ins);
  Operand parseAddress(Instruction &ins);
  Operand parseVectorOperand(Instruction &ins);
  Operand parseParenList(Instruction &ins);
  void resolveLabels(Function *fn);

  // ---- expressions (ParseExpr.cpp) ----
  ConstValue parseConstExpr();
  ConstValue parseTernary();
  ConstValue parseBinary(int minPrec);
  ConstValue parseUnary();
  ConstValue parsePrimary();
  const Initializer *parseInitializer(const Variable &v);
  Initializer parseInitElem(const Variable &v, int depth);

  // ---- names ----
  void pushScope();
  void popScope();
  // Declares name in the innermost scope; reports ptxas's duplicate-definition error.
  bool declare(Ident name, Decl *d, SourceLoc at, std::string_view what);
  Decl *lookup(Ident name) const;
  // Resolves %r5 against a parameterized %r<N> declaration; null if none.
  const RegDecl *lookupRegister(Ident name, uint32_t &index);
  Label *labelRef(Ident name, SourceLoc at);
  Ident intern(std::string_view s) { return m_->names.intern(s); }

  // ---- state ----
  Lexer lex_;
  Token tok_, peek_;
  bool havePeek_ = false;
  uint32_t fileId_;
  DiagEngine &diags_;
  const ParseOptions &opts_;
  Checker *checker_;
  std::unique_ptr<Module> m_;
  unsigned errors_ = 0;
  unsigned nesting_ = 0;
  std::vector<std::pair<SourceLoc, std::string>> deferred_;  // reported after the instruction

  // Name bindings: indexed by Ident id; scopes restore previous bindings on exit.
  std::vector<Decl *> binding_;
  struct Undo { uint32_t id; Decl *prev; };
  std::vector<Undo> undo_;
  std::vector<size_t> scopeMarks_;
  // Parameterized register declarations by prefix Ident id ("%r" of %r<100>).
  std::vector<RegDecl *> regPrefix_;
  std::vector<Undo> regUndo_;
  std::vector<size_t> regScopeMarks_;
  struct RegCache { const RegDecl *decl; uint32_t index; uint32_t gen; };
  std::vector<RegCache> regCache_;
  uint32_t regGen_ = 1;

  // Current function body being built.
  Function *fn_ = nullptr;
  std::vector<Stmt *> body_;
  std::vector<Instruction *> instrs_;
  std::vector<RegDecl *> regs_;
  std::vector<const RegDecl *> simpleRegs_;   // non-parameterized registers of the function
  std::vector<Variable *> locals_;
  std::vector<DebugLoc> debugLocs_;
  std::vector<Label *> labelByIdent_;   // per function, indexed by Ident id (reset per function)
  std::vector<Label *> labels_;
  struct PendingRef { Label *label; SourceLoc at; };
  std::vector<PendingRef> pendingLabelRefs_;
  uint32_t numRegs_ = 0;
  uint32_t currentDebugLoc_ = 0;

  // Scratch buffers reused across instructions (no per-instruction heap traffic).
  std::vector<Mod> modBuf_;
  std::vector<std::vector<Operand>> operandBufs_;
  unsigned operandDepth_ = 0;
};

} // namespace optxas::ptx
