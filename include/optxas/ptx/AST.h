// The PTX abstract syntax tree.
//
// One Module per input file. Everything is allocated in the module's Arena and is trivially
// destructible; lists are std::span views into the arena. Names are interned (Ident). Every
// node carries its SourceLoc (file, line, column).
//
// Consumers:
//   - the checker (ptx/Checker.h) validates a parsed module;
//   - lowering builds the Ori IR from Function bodies;
//   - the PTX reference interpreter executes Function bodies directly.
//
// Name resolution is done by the parser: a register operand points at its RegDecl, a symbol
// operand at its Variable/Function/Label. A Function's body is a flat list of statements in
// source order (nested '{ }' scopes are kept as ScopeBegin/ScopeEnd markers); branch targets
// are Labels, each of which knows the index of the statement it precedes.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "optxas/ptx/Arena.h"
#include "optxas/ptx/Types.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::ptx {

struct Function;
struct Variable;
struct RegDecl;
struct Label;
struct Instruction;

// ---------------------------------------------------------------------------------------------
// Declarations (anything a name can refer to)
// ---------------------------------------------------------------------------------------------

enum class DeclKind : uint8_t { Variable, Register, Function, Label };

struct Decl {
  DeclKind kind;
  Ident name;
  SourceLoc loc;
  explicit Decl(DeclKind k) : kind(k) {}
};

// `.reg .b32 %r<100>;` declares %r0..%r99 (count 100, parameterized); `.reg .f32 %f;` declares
// one register (count 1, not parameterized). `.reg .v4 .f32 %v;` is a vector register.
// Each register of a function has a dense id: decl->firstId + index.
struct RegDecl : Decl {
  RegDecl() : Decl(DeclKind::Register) {}
  Type type = Type::None;
  uint8_t vecWidth = 1;       // 1, 2, 4 (or 8) for vector registers
  bool parameterized = false; // declared with <N>
  uint32_t count = 1;
  uint32_t firstId = 0;       // dense per-function register id of element 0
  Function *owner = nullptr;  // null for module scope (ptxas rejects those; kept for recovery)
  uint32_t align = 0;
};

// Initializer tree of a variable: `= {1, 2, {3, 4}}`, `= generic(g)+8`, `= 0f3F800000`,
// `= {sym, sym+4, 0xFF(sym)}`.
enum class InitKind : uint8_t {
  Int,       // bits = exact value (two's complement, 64 bits)
  Float,     // bits = IEEE bits; isSingle says f32 (0f...) or f64 (0d.../decimal)
  Address,   // address of sym (+ offset)
  Generic,   // generic(sym) (+ offset): sym's generic address
  Mask,      // mask(sym + offset): (address of sym) & mask, shifted down, as in 0xFF00(sym)
  Aggregate, // { elems... }
};

struct Initializer {
  InitKind kind = InitKind::Int;
  bool isSingle = false;     // Float: 0f form
  bool genericInner = false; // Mask: the masked address is generic(sym)
  SourceLoc loc;
  uint64_t bits = 0;         // Int / Float value
  uint64_t mask = 0;         // Mask
  const Decl *sym = nullptr; // Address / Generic / Mask: a Variable or Function
  Ident symName;             // its name as written
  Ident minusName;           // DWARF sections: `end - start` label differences (symName - minusName)
  int64_t offset = 0;
  std::span<const Initializer> elems; // Aggregate
};

// Variable attributes from `.attribute(...)`.
struct VarAttributes {
  bool managed = false;
  bool unified = false;
  uint64_t unifiedId[2] = {0, 0};
};

// A variable in any state space: module-scope globals, function-scope .local/.shared/.const,
// kernel and function parameters (.param, or .reg for .func register parameters), and the
// .param variables of a call sequence.
struct Variable : Decl {
  Variable() : Decl(DeclKind::Variable) {}
  StateSpace space = StateSpace::None;
  Linkage linkage = Linkage::None;
  Type type = Type::None;
  uint8_t vecWidth = 1;
  uint32_t align = 0;                 // explicit .align N, 0 if none
  std::span<const uint64_t> dims;     // array dimensions; 0 = unsized ([]), sized by initializer
  const Initializer *init = nullptr;
  VarAttributes attrs;
  // Kernel pointer parameters: `.param .u64 .ptr .global .align 16 p`.
  bool isPtr = false;
  StateSpace ptrSpace = StateSpace::None;
  uint32_t ptrAlign = 0;
  Function *owner = nullptr;          // null at module scope
  bool isParam = false;               // a function/kernel parameter or return value
  bool isReturn = false;              // a function return parameter

  uint64_t elementCount() const;      // product of dims (unsized counted as 0) x vecWidth
  uint64_t sizeInBytes() const { return elementCount() * typeBytes(type); }
  uint32_t alignment() const;         // explicit alignment or the natural one
};

// ---------------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------------

enum class OperandKind : uint8_t {
  None,
  Reg,        // reg/regIndex; optional component (%v.x) and negation (!%p)
  Sink,       // `_`
  SReg,       // %tid.x: sreg + component
  ImmInt,     // bits: exact 64-bit value (constant expressions are folded)
  ImmFloat,   // bits: IEEE bits; isSingle for 0f (f32 bits), otherwise f64 bits (0d or decimal)
  Symbol,     // sym (a Variable, Function or Label) plus a byte offset (sym+4)
  Address,    // [base+offset] where base is a register (reg), a symbol (sym), or nothing ([imm])
  Vector,     // {a, b, _, d}: elems
  List,       // (a, b) in call, or [a, b, {c, d}] in tex/tensor operands (see bracket): elems
  Pair,       // p|q destinations (setp, tex, elect): elems[0], elems[1]
};

enum class BaseKind : uint8_t { None, Reg, Symbol };
enum class Bracket : uint8_t { Paren, Square };

// A line/column position inside the module's own file (the file is Module::fileId).
struct LineCol {
  uint32_t line = 0, col = 0;
  SourceLoc in(uint32_t fileId) const { return {fileId, line, col}; }
};

// A view of arena-owned elements (a std::span that costs 12 bytes instead of 16: operands are
// the most numerous nodes, so their size sets the parser's memory traffic).
template <typename T> class List {
public:
  List() = default;
  template <typename U>
  List(std::span<U> s) : data_(s.data()), size_(static_cast<uint32_t>(s.size())) {}
  T *begin() const { return data_; }
  T *end() const { return data_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T &operator[](size_t i) const { return data_[i]; }
  T &front() const { return data_[0]; }
  T &back() const { return data_[size_ - 1]; }
  operator std::span<T>() const { return {data_, size_}; }

private:
  T *data_ = nullptr;
  uint32_t size_ = 0;
} __attribute__((packed));

struct Operand {
  OperandKind kind = OperandKind::None;
  bool negated = false;          // '!' on a predicate
  BaseKind base = BaseKind::None;// Address
  Bracket bracket = Bracket::Paren; // List
  bool isSingle = false;         // ImmFloat written 0f
  bool unified = false;          // Address followed by .unified (ld)
  Mod component = Mod::NumMods;  // .x/.y/.z/.w/.r/.g/.b/.a or a video selector; NumMods = none
  SReg sreg = SReg::NumSRegs;
  uint32_t regIndex = 0;         // element of a parameterized declaration (%r5 of %r<10> -> 5)
  LineCol loc;
  const RegDecl *reg = nullptr;  // Reg, Address with BaseKind::Reg (null: unresolved name)
  const Decl *sym = nullptr;     // Symbol, Address with BaseKind::Symbol
  union {
    uint64_t bits = 0;           // ImmInt / ImmFloat
    int64_t offset;              // Symbol / Address byte offset
  };
  List<const Operand> elems;     // Vector / List / Pair

  int64_t imm() const { return static_cast<int64_t>(bits); }
  uint32_t regId() const;        // dense per-function register id (Reg / Address reg base)
  int componentIndex() const;    // 0..3 for x/y/z/w (r/g/b/a), -1 if none
  bool isReg() const { return kind == OperandKind::Reg; }
  bool isImm() const { return kind == OperandKind::ImmInt || kind == OperandKind::ImmFloat; }
  // The name as written: "%r5", "%tid", "sym" (registers of a <N> declaration are rebuilt).
  std::string name() const;
};
static_assert(sizeof(Operand) == 64, "keep operands one cache line");

// ---------------------------------------------------------------------------------------------
// Statements of a function body
// ---------------------------------------------------------------------------------------------

enum class StmtKind : uint8_t {
  Instruction,
  Label,        // a label definition
  VarDecl,      // a variable declared in the body (.local/.shared/.const/.param)
  RegDecl,      // a register declaration
  Loc,          // .loc debug location (applies to the following instructions)
  Pragma,       // .pragma "..." inside a body
  ScopeBegin,   // '{'
  ScopeEnd,     // '}'
};

// A `.loc file line col [, function_name label [+off], inlined_at file line col]`.
struct DebugLoc {
  uint32_t file = 0, line = 0, col = 0;
  Ident functionName;            // label of the inlined function's name string, if any
  int64_t functionNameOffset = 0;
  uint32_t inlinedFile = 0, inlinedLine = 0, inlinedCol = 0;
  bool hasInlinedAt = false;
};

struct Stmt {
  StmtKind kind;
  SourceLoc loc;
  explicit Stmt(StmtKind k) : kind(k) {}
};

struct VarDeclStmt : Stmt {
  VarDeclStmt() : Stmt(StmtKind::VarDecl) {}
  Variable *var = nullptr;
};
struct RegDeclStmt : Stmt {
  RegDeclStmt() : Stmt(StmtKind::RegDecl) {}
  RegDecl *reg = nullptr;
};
struct LocStmt : Stmt {
  LocStmt() : Stmt(StmtKind::Loc) {}
  DebugLoc dbg;
};
struct PragmaStmt : Stmt {
  PragmaStmt() : Stmt(StmtKind::Pragma) {}
  std::span<const std::string_view> strings;   // without quotes
};
struct ScopeStmt : Stmt {
  explicit ScopeStmt(StmtKind k) : Stmt(k) {}
};

// A call prototype: `.callprototype (.param .b32 _) _ (.param .b32 _, .param .b64 _);`
struct Prototype {
  std::span<Variable *const> results;
  std::span<Variable *const> params;
  bool noreturn = false;
};

// A label. Labels may also carry a .branchtargets / .calltargets / .callprototype directive.
enum class LabelKind : uint8_t { Plain, BranchTargets, CallTargets, CallPrototype };

struct Label : Decl {
  Label() : Decl(DeclKind::Label) {}
  LabelKind labelKind = LabelKind::Plain;
  Function *owner = nullptr;
  uint32_t stmtIndex = 0;      // position in owner->body
  uint32_t instrIndex = 0;     // index into owner->instructions of the next instruction
  bool defined = false;        // false while only forward-referenced
  std::span<Label *const> branchTargets;      // .branchtargets
  std::span<Function *const> callTargets;     // .calltargets
  const Prototype *prototype = nullptr;       // .callprototype
};

// The place in a body where a label is defined.
struct LabelStmt : Stmt {
  LabelStmt() : Stmt(StmtKind::Label) {}
  Label *label = nullptr;
};

// mma/wmma/wgmma/ldmatrix shape .mMnNkK (k = 0 for .mMnN).
struct Shape {
  uint16_t m = 0, n = 0, k = 0;
  bool valid() const { return m != 0; }
};

struct Guard {
  const RegDecl *reg = nullptr;  // null: unguarded
  uint32_t regIndex = 0;
  bool negated = false;
  bool present() const { return reg != nullptr; }
};

struct Instruction : Stmt {
  Instruction() : Stmt(StmtKind::Instruction) {}
  Opcode op = Opcode::NumOpcodes;
  Guard guard;
  Shape shape;
  uint8_t numTypes = 0;
  std::array<Type, 4> typeList{};     // the data-type suffixes, in order (cvt.f32.s32: f32, s32)
  List<const Mod> mods;               // every other modifier, in source order
  List<const Operand> operands;       // destinations first, as written
  uint32_t debugLoc = 0;              // index+1 into Function::debugLocs of the active .loc; 0 = none

  // --- typed accessors over the modifier list ---
  std::span<const Type> types() const { return {typeList.data(), numTypes}; }
  SourceLoc where() const { return loc; }
  Type type(unsigned i = 0) const { return i < numTypes ? typeList[i] : Type::None; }
  bool has(Mod m) const;
  StateSpace space() const;       // state space modifier (ld.global -> Global), None if generic
  unsigned vectorWidth() const;   // .v2/.v4/.v8 -> 2/4/8; 1 if none
  Mod cmpOp() const;              // setp/set comparison; NumMods if none
  Mod boolOp() const;             // setp/set .and/.or/.xor combining op; NumMods if none
  Mod rounding() const;           // .rn/.rz/.rm/.rp/.rna/.rs/.rni/...; NumMods if none
  Mod cacheOp() const;            // .ca/.cg/.cs/.lu/.cv/.wb/.wt; NumMods if none
  Mod scope() const;              // .cta/.cluster/.gpu/.sys; NumMods if none
  Mod semantics() const;          // .weak/.relaxed/.acquire/.release/.acq_rel/.sc/.volatile/.mmio
  Mod atomOp() const;             // atom/red/redux/multimem operation; NumMods if none
  Mod firstOf(std::initializer_list<Mod> set) const;
  std::string_view opcodeName() const { return optxas::ptx::opcodeName(op); }
};

// ---------------------------------------------------------------------------------------------
// Functions
// ---------------------------------------------------------------------------------------------

// Performance-tuning and cluster directives of an entry or function.
struct PerfDirectives {
  uint32_t maxnreg = 0;
  std::array<uint32_t, 3> maxntid{0, 0, 0};        // 0 = not given
  std::array<uint32_t, 3> reqntid{0, 0, 0};
  uint32_t minnctapersm = 0;
  uint32_t maxnctapersm = 0;
  std::array<uint32_t, 3> reqnctapercluster{0, 0, 0};
  bool explicitcluster = false;
  uint32_t maxclusterrank = 0;
  bool blocksareclusters = false;
  uint32_t minperctamemory = 0;
  std::span<const std::string_view> pragmas;       // .pragma strings in the header
  // Where each directive was written (for ptxas's "conflicting directives" messages).
  SourceLoc maxntidLoc, reqntidLoc, reqnctaperclusterLoc, maxclusterrankLoc;
};

struct Function : Decl {
  Function() : Decl(DeclKind::Function) {}
  bool isEntry = false;
  Linkage linkage = Linkage::None;
  bool isDefinition = false;            // has a body
  bool noreturn = false;
  int32_t abiPreserve = -1;             // .abi_preserve N
  int32_t abiPreserveControl = -1;      // .abi_preserve_control N
  std::span<Variable *const> results;   // return parameters (.func only)
  std::span<Variable *const> params;
  PerfDirectives perf;
  const Function *aliasOf = nullptr;    // set by `.alias this, aliasee;`

  // Body (definitions only). Filled by the parser.
  std::span<Stmt *const> body;
  std::span<Instruction *const> instructions;   // body's instructions in order
  std::span<Label *const> labels;
  std::span<RegDecl *const> regs;
  std::span<Variable *const> locals;            // variables declared in the body (any space)
  std::span<const DebugLoc> debugLocs;
  uint32_t numRegs = 0;                         // sum of register counts (dense id space)
  SourceLoc headerEnd;                          // the '{' or ';' after the header
  SourceLoc bodyEnd;                            // the closing '}' 
};

// ---------------------------------------------------------------------------------------------
// Module
// ---------------------------------------------------------------------------------------------

// One `.target` architecture: sm_90a -> {sm, 90, 'a'}; compute_XX and lto_XX keep their prefix.
struct TargetArch {
  enum Prefix : uint8_t { SM, Compute, Lto } prefix = SM;
  uint32_t number = 0;   // 90 for sm_90a
  char suffix = 0;       // 'a', 'f' or 0
};

struct TargetInfo {
  std::vector<TargetArch> archs;   // usually exactly one
  bool texmodeUnified = false, texmodeIndependent = false;
  bool debug = false;
  bool mapF64ToF32 = false;
  SourceLoc loc;
  // The SM number of the (first) target, e.g. 90; 0 if no .target.
  uint32_t sm() const { return archs.empty() ? 0 : archs[0].number; }
  char suffix() const { return archs.empty() ? 0 : archs[0].suffix; }
};

struct FileEntry {
  uint32_t index = 0;
  std::string_view name;
  uint64_t timestamp = 0, size = 0;
  bool hasTimestamp = false;
  SourceLoc loc;
};

// A DWARF section body: `.section .debug_info { .b32 375 .b8 2 ... .b64 $L__func_begin0 }`.
// Each item is a data line (.b8/.b16/.b32/.b64 with values) or a label definition.
struct SectionItem {
  enum Kind : uint8_t { Data, LabelDef } kind = Data;
  Type width = Type::B8;                   // Data
  std::span<const Initializer> values;     // Data: Int or Address (symbol/label/section name)
  Ident label;                             // LabelDef
  SourceLoc loc;
};

struct DwarfSection {
  Ident name;                              // ".debug_info" etc. (with the dot)
  std::span<const SectionItem> items;
  SourceLoc loc;
};

// Old-style `@@DWARF .byte ...` lines, kept verbatim.
struct DwarfLine {
  std::string_view text;
  SourceLoc loc;
};

struct Alias {
  Ident alias, aliasee;
  Function *aliasFn = nullptr;
  const Function *aliaseeFn = nullptr;
  SourceLoc loc;
};

// A top-level item, in source order.
struct TopLevel {
  enum Kind : uint8_t { Var, Func, Section, Alias, Pragma } kind;
  uint32_t index;   // into the matching Module vector
};

struct Module {
  Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  Arena arena;
  StringPool names{arena};

  std::string_view fileName;             // as given to the parser
  uint32_t fileId = 0;                   // DiagEngine file id
  uint32_t versionMajor = 0, versionMinor = 0;
  SourceLoc versionLoc;
  TargetInfo target;
  uint32_t addressSize = 64;
  bool hasAddressSize = false;
  std::vector<FileEntry> files;
  std::vector<DwarfSection> sections;
  std::vector<DwarfLine> dwarfLines;
  std::vector<Variable *> globals;       // module-scope variables, in order
  std::vector<Function *> functions;     // every declared/defined function, first declaration
  std::vector<Alias> aliases;
  std::vector<std::string_view> pragmas; // module-scope .pragma strings
  std::vector<TopLevel> order;
  std::vector<Label *> callPrototypes;   // module-scope .callprototype labels (rare)

  // Version as one number: 9.0 -> 90, 8.7 -> 87.
  uint32_t version() const { return versionMajor * 10 + versionMinor; }
  const Function *findFunction(std::string_view name) const;
  const Variable *findGlobal(std::string_view name) const;
};

} // namespace optxas::ptx
