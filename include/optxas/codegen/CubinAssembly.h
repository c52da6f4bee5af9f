// The compiled module -> the elf::Cubin model -> ELF bytes: code sections, per-function and
// module .nv.info attributes, kernel parameters, shared memory, .debug_frame, notes, in the
// order and with the values ptxas 13.0 produces (differences: docs/codegen.md, "Cubin").
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "optxas/elf/Cubin.h"
#include "optxas/ori/Module.h"
#include "optxas/support/Diagnostics.h"
#include "optxas/target/MachineModel.h"

namespace optxas::codegen {

// A DWARF section the PTX carries (`.section .debug_info { ... }`, debug builds): its bytes, with
// the places that hold code addresses of PTX labels (DwarfSections.cpp resolves them).
struct DwarfLabelRef {
  uint64_t offset = 0;       // in `bytes`
  unsigned width = 8;        // bytes
  std::string function;      // the function the label is in
  uint32_t line = 0;         // PTX line of the first instruction after the label; 0: the end
  // `label - other` (a length): resolved to a number, no relocation.
  bool difference = false;
  uint32_t otherLine = 0;
  // Not a label: the address of a variable or an offset into another DWARF section
  // (`.b32 .debug_loc+66`), which -c objects relocate (executables keep the bytes as they are).
  std::string symbol;
  int64_t addend = 0;
};
struct DwarfSectionInput {
  std::string name;
  std::vector<uint8_t> bytes;
  std::vector<DwarfLabelRef> refs;
};

// The PTX's line information (.file, .loc) for the line tables (LineTables.cpp). Instructions
// carry their PTX line (ori::Instr::loc); the .loc in effect at each PTX line gives the source.
struct LineFile {
  std::string path;                     // as .file gives it
  uint64_t timestamp = 0, size = 0;
};
struct LineLoc {
  uint32_t file = 0, line = 0;
  // `inlined_at`: the .loc this one is inlined into (index into FunctionLines::locs; -1: the
  // inlined-at position atFile:atLine is not itself an inlined .loc).
  bool inlined = false;
  int32_t parent = -1;
  uint32_t atFile = 0, atLine = 0;
  uint64_t functionName = 0;            // offset of the `function_name` string in .debug_str
};
struct FunctionLines {
  uint32_t bodyLine = 0;                // PTX line of the body's '{' (code without a PTX line)
  std::vector<LineLoc> locs;            // the function's .loc directives in order
  std::map<uint32_t, uint32_t> locOfLine;   // PTX line of an instruction -> index into locs
};
struct LineInfoInput {
  std::map<uint32_t, LineFile> files;   // by .file number
  std::map<std::string, FunctionLines> functions;
  std::string ptxTextName;              // -c: .nv_debug_line_sass names .nv_debug_ptx_txt.<hash>
  bool requested = false;               // -lineinfo, -g: the tables even without .loc
  bool hasLocs() const {
    for (const auto &[name, f] : functions)
      if (!f.locs.empty()) return true;
    return false;
  }
  bool any() const { return requested || hasLocs(); }
  bool inlining() const {   // any .loc with inlined_at
    for (const auto &[name, f] : functions)
      for (const LineLoc &l : f.locs)
        if (l.inlined) return true;
    return false;
  }
};

// What the cubin records about the PTX declarations that the Ori IR does not carry.
struct PtxDeclarations {
  // Function name -> call prototype as ptxas spells it in .nv.prototype ("#" + result codes or
  // "v", then parameter codes: i b32, f f32, l b64, d f64, h b16, b b8, b<N> N-byte aggregate).
  std::map<std::string, std::string> prototypes;
  std::set<std::string> managed;   // .attribute(.managed) variables (st_other "MANAGED")
  // Facts ptxas records for instructions of the PTX whether or not the code keeps them (dead or
  // unreachable ones too), which the Ori IR loses when it deletes them: the functions with a wmma
  // instruction (EIATTR_WMMA_USED) and with an mma.sp (SPARSE_MMA_MASK), and whether any
  // function has a txq or suq (executables: the texture-query layout of every function), and the
  // functions that move the stack pointer (alloca, stackrestore: with that layout a kernel's
  // stack size is unknown).
  std::set<std::string> wmma, sparseMma, movesStack;
  bool textureQueries = false;
  std::vector<DwarfSectionInput> dwarf;   // debug builds: the PTX's DWARF sections, .nv_debug_ptx_txt
  LineInfoInput lines;                    // PTX with .loc (-lineinfo, -g): the line tables
};

struct CubinOptions {
  unsigned sm = 90;
  char archSuffix = 0;           // 'a' for sm_90a
  unsigned virtualSm = 90;       // the PTX .target
  bool relocatable = false;      // -c
  bool debug = false;            // -g or `.target ..., debug`: every function in its own section
  uint32_t maxrregcount = 0;     // -maxrregcount as given (0 = none): with the function's directives, EIATTR_MAXREG_COUNT
  std::string commandLine;       // recorded in .note.nv.tkinfo
  PtxDeclarations declarations;
};

// What the back end knows about each compiled function beyond its IR.
struct FunctionFacts {
  unsigned registers = 0;        // "Used N registers"
  uint32_t frameBytes = 0;       // stack frame
  uint32_t spillStoreBytes = 0, spillLoadBytes = 0;
  unsigned barriers = 0;         // named barriers used (BAR with an immediate id + 1)
  uint32_t sharedAlign = 16;     // .nv.shared.<fn> alignment (codegen/SymbolLayout.h)
  bool namesShared = false;      // names a shared variable (sm_8x: dynamic alone gets a section)
  std::vector<uint32_t> exitOffsets;
  std::vector<uint32_t> spillOffsets;  // instructions ptxas annotates as SpillRefill
  std::vector<uint32_t> unusedLoadBytes;  // EIATTR_UNUSED_LOAD_BYTE_OFFSET: [offset, byte mask]...
  unsigned sassInstructions = 0; // the function's own instructions (no epilogue padding)
};

// Computes the facts from an allocated, encoded function.
FunctionFacts collectFacts(const ori::Function &f, const target::MachineModel &m);
// The wide loads of an allocated, encoded function whose result is partly dead, as ptxas lists
// them in EIATTR_UNUSED_LOAD_BYTE_OFFSET: [offset, used-byte mask] each (UnusedLoadBytes.cpp).
// Computes the control flow if f has none.
std::vector<uint32_t> unusedLoadBytes(ori::Function &f, const target::MachineModel &m);

// Calls between functions (CallLinking.cpp). The functions function k calls directly (by index
// in Module::functions()); an error for a call of a function the module does not define.
bool directCallees(const ori::Module &m, const std::vector<FunctionFacts> &facts, size_t k,
                   std::vector<size_t> &out, DiagEngine &diags);
// Every function k reaches through calls, in definition order; `recursive` if a cycle is reached.
bool reachableCallees(const ori::Module &m, const std::vector<FunctionFacts> &facts, size_t k,
                      std::vector<size_t> &out, bool &recursive, DiagEngine &diags);
// The deepest chain of frames below function k (k's own frame included); acyclic graphs only.
uint32_t cumulativeStack(const ori::Module &m, const std::vector<FunctionFacts> &facts, size_t k,
                         DiagEngine &diags);
// Executables: appends the device functions kernel k reaches to its code as local subroutines
// "$kernel$callee", resolves the calls, and accounts their registers and stack in `ef`. Calls of
// functions outside the module get return-address relocations and the EXTERNS/SYSCALL_OFFSETS
// attributes; `externs` names those functions.
// Functions whose address the module takes (initializers, MOV of a function symbol), in
// definition order: placed in every kernel, and possible targets of every indirect call.
// `functionOffsets` gets each placed device function's offset in the kernel's section: its
// address in this whole program (SymbolLayout.cpp allows function addresses with one kernel).
bool linkKernelCalls(const ori::Module &m, const std::vector<FunctionFacts> &facts, size_t k,
                     elf::Function &ef, std::vector<std::string> &externs,
                     std::map<std::string, uint64_t> &functionOffsets, DiagEngine &diags);
std::vector<size_t> addressTakenFunctions(const ori::Module &m);

// Relocatable output and debug builds (Relocatable.cpp): the relocations of function k's code in `ef` (addresses
// of .global variables, CALL.ABS and their return addresses), its EXTERNS, and the call-graph
// edges, prototypes and external symbols its calls add to `c`.
bool relocateCode(const ori::Module &m, size_t k, const CubinOptions &opts, elf::Function &ef, elf::Cubin &c,
                  DiagEngine &diags);
// Adds an undefined symbol to the model once.
void addExternalSymbol(elf::Cubin &c, const std::string &name, elf::ExternalSymbol::Kind kind);
// EIATTR_EXTERNS naming `externs` on function `ef`, when there are any.
void addExternsAttribute(elf::Function &ef, const std::vector<std::string> &externs);

// Builds the model. Functions must carry their code in Function::sassCode.
bool buildCubin(const ori::Module &m, const std::vector<FunctionFacts> &facts, const CubinOptions &opts,
                elf::Cubin &out, DiagEngine &diags);

// buildCubin + elf::writeCubin.
bool assembleCubin(const ori::Module &m, const std::vector<FunctionFacts> &facts, const CubinOptions &opts,
                   std::vector<uint8_t> &bytes, DiagEngine &diags);

// Debug builds: the PTX's DWARF sections with each label resolved to its code offset, as ptxas
// writes them: an R_CUDA_64 relocation against the function (addend: the offset, also in the bytes).
// With line information, also the line tables (.debug_line, .nv_debug_line_sass), in ptxas's order.
std::vector<elf::DebugSection> dwarfSections(const ori::Module &m, const PtxDeclarations &decls,
                                             const std::vector<elf::Function> &functions, bool relocatable);

// The line tables ptxas writes for PTX with .loc (LineTables.cpp): .debug_line (SASS address ->
// CUDA source line) and .nv_debug_line_sass (SASS address -> PTX line), one sequence per function
// section, each starting with an R_CUDA_64 relocation against the function.
std::vector<elf::DebugSection> lineTables(const ori::Module &m, const LineInfoInput &in,
                                          const std::vector<elf::Function> &functions);

// Debug builds: the register maps (RegisterMaps.cpp), .nv_debug_info_reg_sass (where each piece of
// each PTX register lives, by code range) and .nv_debug_info_reg_type (its PTX type), from
// ori::Function::registerMap, one record per function section in `functions` order.
std::vector<elf::DebugSection> registerMaps(const ori::Module &m, const std::vector<elf::Function> &functions);

// The .debug_frame ptxas emits for every function section: one CIE, an FDE per function (its own
// code; the frame is set up at cfaOffsets[k]), and a CIE and FDE per subroutine placed in it.
// implicitAddends (sm_8x: REL entries): the relocations' addends are only in the data.
elf::DebugSection debugFrame(const std::vector<elf::Function> &functions,
                             const std::vector<uint32_t> &cfaOffsets, bool implicitAddends);

} // namespace optxas::codegen
