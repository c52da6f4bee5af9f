// Program-wide state of lowering: the ori::Module being built, the module symbols of PTX
// variables and functions, and the calling-convention layout of every .func (callers need the
// callee's parameter registers before the callee is lowered).
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "optxas/lower/Lower.h"
#include "optxas/ori/Module.h"
#include "optxas/ptx/AST.h"

namespace optxas::lower {

// How a .func receives its parameters and returns its results (docs/abi.md).
struct CallLayout {
  struct Slot {
    const ptx::Variable *var = nullptr;
    uint32_t firstReg = 0;     // first physical register (R4 = 4)
    uint32_t words = 0;        // 32-bit words
    bool onStack = false;      // passed in the caller's frame at [R1 + stackOffset]
    uint32_t stackOffset = 0;
  };
  std::vector<Slot> params, results;
  uint32_t stackBytes = 0;           // size of the stack-argument area
  bool resultsInRegisters = true;    // false: a result the convention cannot return yet
};

// What lowering learnt about a function's convergence barriers (Reconvergence.cpp), for the
// program-wide pass that brackets calls and numbers the barriers (CallReconvergence.cpp).
struct ReconvergenceFacts {
  bool returnsDiverged = false;   // its threads may leave it diverged: callers bracket the call
  unsigned barriers = 0;          // B0..B(barriers-1) used by its own regions
  // On a call cycle: its regions hold barriers across recursive calls, so it saves the barriers
  // it uses on entry and restores them before returning (BMOV, CallReconvergence.cpp).
  bool savesBarriers = false;
  // Each CALL with the number of the function's regions around it.
  std::vector<std::pair<ori::Instr *, unsigned>> calls;
};

class ModuleLowering {
public:
  ModuleLowering(const LowerOptions &opts, DiagEngine &diags, ori::Module &m)
      : opts_(opts), diags_(diags), m_(m) {}

  const LowerOptions &options() const { return opts_; }
  DiagEngine &diags() { return diags_; }
  ori::Module &module() { return m_; }

  // Creates the symbols of module-scope variables and the functions of one PTX module.
  bool declareModule(const ptx::Module &pm);
  // Lowers every function definition of one PTX module.
  bool lowerFunctions(const ptx::Module &pm);

  // Symbol index of a variable/function, creating the symbol of a function-scope .shared/.const
  // variable on first use; -1 if it has none.
  int symbolOf(const ptx::Decl *d);
  // Symbol index of a 4-byte value the driver supplies by relocation (".nv.unified.texrefDescSize"),
  // created on first use (an extern symbol of kind Extern).
  int driverSymbol(const std::string &name) {
    for (uint32_t k = 0; k < m_.symbols().size(); ++k)
      if (m_.symbol(k).kind == ori::SymbolKind::Extern && m_.symbol(k).name == name) return static_cast<int>(k);
    ori::Symbol s;
    s.name = name;
    s.kind = ori::SymbolKind::Extern;
    s.size = 4;
    s.align = 4;
    s.isExtern = true;
    return static_cast<int>(m_.addSymbol(std::move(s)));
  }
  // The calling convention of a .func (computed on first use), or of a call prototype.
  const CallLayout &callLayout(const ptx::Function *f);
  // The largest kernel parameter block of the module: ptxas places every kernel's
  // texture/surface reference slots after it (TextureOps.cpp).
  uint32_t maxKernelParamBytes() const { return maxKernelParamBytes_; }
  static CallLayout layoutOf(std::span<ptx::Variable *const> params, std::span<ptx::Variable *const> results);

  // The program's call graph as far as reconvergence needs it (CallReconvergence.cpp): functions
  // whose address is taken (any indirect call may reach them) and functions on a call cycle.
  void analyzeCalls(std::span<const ptx::Module *const> modules);
  bool addressTaken(const ptx::Function *f) const { return addressTaken_.count(f) != 0; }
  bool recursive(const ptx::Function *f) const { return recursive_.count(f) != 0; }
  ReconvergenceFacts &reconvergence(const ori::Function *f) { return reconvergence_[f]; }
  // Brackets the calls of functions that return diverged and moves each function's barriers
  // above those its callers hold across the call, once every function is lowered.
  void reconvergeCalls();

private:
  int addVariableSymbol(const ptx::Variable *v);
  bool fillInitializer(const ptx::Variable *v, int symIndex);

  const LowerOptions &opts_;
  DiagEngine &diags_;
  ori::Module &m_;
  std::unordered_map<const ptx::Decl *, int> symbols_;
  std::unordered_map<std::string_view, int> symbolsByName_;
  std::unordered_map<const ptx::Function *, CallLayout> layouts_;
  uint32_t maxKernelParamBytes_ = 0;
  std::unordered_set<const ptx::Function *> addressTaken_, recursive_;
  std::unordered_map<const ori::Function *, ReconvergenceFacts> reconvergence_;
};

} // namespace optxas::lower
