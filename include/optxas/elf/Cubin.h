// The in-memory model of a CUDA cubin, in terms of meaning: the target, the functions with their
// code and resource attributes, module variables, constant banks, relocations and debug data.
// Byte layout (section order, symbol and string tables, offsets, program headers, .nv.info
// ordering) is derived by CubinWriter; CubinReader recovers this model from any ptxas cubin.
#pragma once

#include "optxas/elf/NvInfo.h"
#include "optxas/elf/Relocations.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace optxas::elf {

// A GPU target: sm_90, sm_90a ("architecture-specific"), sm_100f ("family").
struct Target {
  enum class Variant : uint8_t { Base, Arch, Family };
  unsigned sm = 90;
  Variant variant = Variant::Base;

  std::string name() const; // "sm_90a"
  static std::optional<Target> parse(std::string_view name);
  // Constant-bank offset of the first kernel parameter: 0x160 on sm_8x, 0x210 on sm_90, 0x380
  // from sm_100 on.
  uint32_t paramBase() const { return sm >= 100 ? 0x380 : sm >= 90 ? 0x210 : 0x160; }
  bool operator==(const Target &) const = default;
};

enum class ObjectKind : uint8_t { Executable, Relocatable }; // ET_EXEC, or ET_REL for -c

// .note.nv.tkinfo: which tool made the cubin. The writer reproduces whatever strings it holds.
struct ToolkitNote {
  uint32_t noteVersion = 2;
  std::string objectFile; // the output file name; ptxas records it with -g only
  std::string toolName, toolVersion, toolBranch, commandLine;
  bool operator==(const ToolkitNote &) const = default;
};

// .note.nv.cuinfo.
struct CudaNote {
  uint16_t noteVersion = 2;
  uint16_t virtualSm = 90;        // the PTX .target the code was compiled from
  uint32_t toolkitVersion = 130;  // 13.0 as major*10+minor
  bool operator==(const CudaNote &) const = default;
};

// A relocation, as meaning: "at offset in this container, put <type> of symbol + addend".
struct Relocation {
  uint64_t offset = 0;
  RelocType type = RelocType::R_CUDA_NONE;
  std::string symbol; // a function, variable, section ("@.text.f" style names are not used:
                      // section symbols are named by their section name)
  int64_t addend = 0;
  bool explicitAddend = true; // RELA (true) or REL (false) entry
  bool operator==(const Relocation &) const = default;
};

// Executables: ptxas applies some relocations itself (local calls, shared-memory offsets,
// function addresses in initialisers). Which relocation sections it had created for them, and
// whether the (then empty) .rela section survived, is not visible in the data itself.
struct ResolvedRelocations {
  enum class Created : uint8_t { None, Rel, Rela, RelThenRela, RelaThenRel };
  Created created = Created::None;
  bool keptEmptyRela = false;
  bool any() const { return created != Created::None; }
  bool operator==(const ResolvedRelocations &) const = default;
};

// One attribute of a function's .nv.info.<fn> section. Attributes whose words are symbol
// indices in the file (EXTERNS) carry symbol names instead; everything else keeps its words.
struct Attribute {
  NvInfoKind kind{};
  NvInfoFormat format = NvInfoFormat::None;
  uint16_t value = 0;               // Byte / Half formats
  std::vector<uint32_t> words;      // Sized format, non-symbol payload
  std::vector<std::string> symbols; // Sized format, symbol payload (EXTERNS)
  bool operator==(const Attribute &) const = default;
};

// EIATTR_KPARAM_INFO: one kernel parameter.
struct KernelParam {
  uint32_t index = 0;   // word 0 (always 0 from ptxas)
  uint16_t ordinal = 0; // position in the parameter list
  uint16_t offset = 0;  // byte offset from the start of the parameter block
  uint16_t size = 0;    // bytes
  uint8_t logAlign = 0; // pointee log2 alignment (0 unless known)
  uint8_t space = 0;
  uint8_t cbank = 0x1f;
  bool inSharedMemory = false; // "Parameter Space: SMEM" (legacy); ptxas writes CBANK
  bool operator==(const KernelParam &) const = default;
};

// A local function symbol inside another function's .text (whole-program mode clones each
// called device function into its caller's section as "$caller$callee").
struct Subroutine {
  std::string name;
  uint64_t offset = 0, size = 0;
  bool weak = false;       // internal helpers ($__internal_N_$...) are WEAK
  bool global = false;     // clones of .visible functions in relocatable-device-code PTX
  uint32_t frameSize = 0;  // its EIATTR_FRAME_SIZE
  bool operator==(const Subroutine &) const = default;
};

// A module variable (.global, .const, .shared). Its section follows from space/owner.
// OptimizerConstant: a block of the owner's bank 2 (".nv.constant2.<fn>") that the code addresses
// through a symbol "<fn>.const_opt.<start>.<end>" (relocatable objects only).
enum class VarSpace : uint8_t { Global, GlobalInit, Constant, Shared, OptimizerConstant };
struct Variable {
  std::string name;
  VarSpace space = VarSpace::Global;
  std::string owner;   // Shared/OptimizerConstant: the function whose section holds it
  uint64_t offset = 0; // within its section
  uint64_t size = 0;
  bool global = false; // GLOBAL binding (visible to the linker) vs LOCAL
  uint8_t visibility = 0;
  bool managed = false; // .attribute(.managed): st_other bit 2 (cuobjdump "MANAGED")
  bool operator==(const Variable &) const = default;
};

// A symbol the module references but does not define (vprintf, extern functions/variables).
struct ExternalSymbol {
  std::string name;
  enum class Kind : uint8_t { Function, Variable, SharedVariable } kind = Kind::Function;
  bool weak = false;
  uint64_t size = 0;
  bool operator==(const ExternalSymbol &) const = default;
};

enum class FunctionKind : uint8_t { Kernel, Device };

struct Function {
  std::string name;
  FunctionKind kind = FunctionKind::Kernel;
  bool global = true;     // GLOBAL binding (LOCAL for static device functions)
  bool weak = false;      // WEAK binding (CUDA's built-in helper functions)
  uint8_t visibility = 0; // STV_* in st_other bits 0-1
  std::vector<uint8_t> code;
  std::vector<Relocation> relocations; // on .text.<name>, in the order they were created
  ResolvedRelocations resolved;
  std::vector<Subroutine> subroutines;

  // Resource usage (module .nv.info).
  uint32_t registerCount = 0;
  uint32_t frameSize = 0;
  std::optional<uint32_t> minStackSize; // EXEC outputs
  std::optional<uint32_t> maxStackSize; // relocatable outputs
  bool genErrbarAtExit = false;         // -g
  // The code queries textures or surfaces (TXQ, or descriptor sizes by relocation): ptxas then
  // writes MAX_STACK_SIZE 0 and MIN_STACK_SIZE before FRAME_SIZE in the module .nv.info.
  bool queriesTextures = false;

  // Kernel parameters; CBANK_PARAM_SIZE and PARAM_CBANK are derived from them.
  std::vector<KernelParam> params;
  uint32_t paramBlockSize = 0; // CBANK_PARAM_SIZE (bytes of parameters in bank 0)
  // Words past the parameters in .nv.constant0.<fn> that the driver fills with the header
  // indices of texture/sampler/surface references used by name, and their relocations
  // (R_CUDA_{TEX,SAMP,SURF}_HEADER_INDEX, in ptxas's order). With any, ptxas creates the bank
  // with the function rather than after all functions.
  uint32_t textureRefSlotBytes = 0;
  std::vector<Relocation> constant0Relocations;
  // Every other .nv.info.<fn> attribute, in no particular order (the writer orders them).
  std::vector<Attribute> attributes;

  // Shared memory (.nv.shared.<fn>): total size and alignment of the section, if it exists.
  std::optional<uint64_t> sharedSize;
  uint32_t sharedAlign = 0;
  bool staticShared = false; // it declares .shared variables (executables keep no symbols for them)
  // ptxas creates its shared-memory placeholder symbol (erased on sm_90, .nv.reservedSmem.cap from
  // sm_100 on) with the first function that has static shared variables, or with an earlier one
  // that uses only dynamic (extern) shared memory: this flag marks such a function.
  bool sharedPlaceholder = false;
  // Per-function constant bank 2 (.nv.constant2.<fn>: jump tables and optimizer constants).
  std::optional<std::vector<uint8_t>> constant2;
  std::vector<Relocation> constant2Relocations;

  const Attribute *find(NvInfoKind k) const;
  Attribute *find(NvInfoKind k);
  bool isKernel() const { return kind == FunctionKind::Kernel; }
};

// A module-level constant bank (.nv.constant3 user __constant__ data, .nv.constant4 addresses).
struct ConstantBank {
  unsigned bank = 3;
  std::vector<uint8_t> data;
  uint32_t align = 4;
  std::vector<Relocation> relocations;
  bool operator==(const ConstantBank &) const = default;
};

// A section we carry as bytes (DWARF sections, .nv_debug_* sections).
struct DebugSection {
  std::string name;
  std::vector<uint8_t> data;
  std::vector<Relocation> relocations;
  bool operator==(const DebugSection &) const = default;
};

// .nv.callgraph: four groups of pairs, written after the markers -1..-4 in this order.
struct CallGraph {
  struct Pair {
    std::string first, second;
    bool operator==(const Pair &) const = default;
  };
  std::vector<Pair> calls;           // -1: (caller, callee) direct call edges
  std::vector<Pair> addressTaken;    // -2: (function, prototype) functions whose address is taken
  std::vector<Pair> indirectCalls;   // -3: (caller, prototype) functions making indirect calls
  std::vector<Pair> indirectTargets; // -4: (caller, function) possible indirect call targets
  bool operator==(const CallGraph &) const = default;
};

// .nv.prototype (relocatable objects): the call prototype of each external/called function.
struct Prototype {
  std::string symbol;
  std::string prototype; // e.g. "#ii"
  bool operator==(const Prototype &) const = default;
};

// sm_100 and later: ptxas adds a second, "Mercury" description of the code for the driver's
// finaliser (.nv.capmerc.text.<fn>, .nv.merc.*, with its own symbol table). The model carries
// these sections as they are; producing them is outside this layer (docs/elf.md).
struct MercurySection {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0, align = 1, entsize = 0;
  std::string link; // section named by sh_link ("" for 0)
  std::string info; // section named by sh_info when SHF_INFO_LINK is set
  uint32_t infoRaw = 0;
  uint64_t size = 0; // for sections without file data
  std::vector<uint8_t> data;
  std::string aliasOf; // shares its bytes (and file offset) with this main section
  bool operator==(const MercurySection &) const = default;
};

struct ReservedSymbol {
  std::string name;
  uint8_t info = 0, other = 0;       // st_info, st_other as ptxas writes them
  bool inReservedSection = false;    // defined in .nv.shared.reserved.0 (else undefined)
  uint64_t value = 0, size = 0;
  bool operator==(const ReservedSymbol &) const = default;
};

// A module-scope .texref/.samplerref/.surfref: an undefined GLOBAL symbol of type
// STT_CUDA_TEXTURE (10), STT_CUDA_SAMPLER (11) or STT_CUDA_SURFACE (12).
struct TextureReference {
  enum class Kind : uint8_t { Texture = 10, Sampler = 11, Surface = 12 };
  std::string name;
  Kind kind = Kind::Texture;
  uint32_t samplerInit = 0xffffffffu; // samplers: EIATTR_SAMPLER_INIT's value
  bool operator==(const TextureReference &) const = default;
};

struct Cubin {
  Target target;
  ObjectKind kind = ObjectKind::Executable;
  uint8_t headerFlagsHigh = 0x06; // e_flags bits 24-31 (debug-info level; see docs/elf.md)
  ToolkitNote toolkit;
  CudaNote cudaNote;
  std::vector<NvInfoRecord> compat; // .nv.compat records, in file order

  std::vector<Function> functions; // in ptxas's processing order
  std::vector<Variable> variables;
  std::vector<ExternalSymbol> externals;
  std::vector<TextureReference> textureRefs; // symbols after the global ones, in this order
  bool texmodeIndependent = false;           // module EIATTR_TEXMODE_INDEPENDENT
  bool istypepUsed = false;                  // module EIATTR_ISTYPEP_USED (first record)
  std::vector<ConstantBank> constantBanks;
  // ptxas's reserved-shared-memory protocol: weak symbols such as ".nv.reservedSmem.offset0"
  // (undefined), "__nv_reservedSMEM_offset_0_alias" and, on some targets, ".nv.reservedSmem.cap"
  // and "__nv_reservedSMEM_gb10b_war_var", some of them in the .nv.shared.reserved.0 section.
  std::vector<ReservedSymbol> reservedSymbols; // in the order ptxas declares them
  std::optional<uint64_t> reservedSharedSize;  // .nv.shared.reserved.0, when present
  uint32_t reservedSharedAlign = 1;
  bool reservedSectionSymbol = false;          // sm_110: that section has a section symbol
  // Relocatable objects declare the eight weak unified-table symbols (__UFT, __UDT_OFFSET, ...).
  bool unifiedTableSymbols = false;
  std::optional<uint64_t> globalSize;           // .nv.global (NOBITS)
  uint32_t globalAlign = 0;
  std::optional<std::vector<uint8_t>> globalInit; // .nv.global.init
  uint32_t globalInitAlign = 0;
  std::vector<Relocation> globalInitRelocations;
  ResolvedRelocations globalInitResolved;
  CallGraph callGraph;
  bool callGraphSection = true;  // ptxas writes no .nv.callgraph for a module that uses txq
  std::vector<Prototype> prototypes;
  // .nv.rel.action (sm_8x executables): how the driver applies relocation types newer than it.
  std::optional<std::vector<uint8_t>> relocationActions;
  std::vector<DebugSection> debugSections; // .debug_frame first when present
  std::vector<MercurySection> mercury;     // sm_100+, in file order
  // sm_100+ with renamed constant banks: ptxas leaves extra zero bytes between .strtab and
  // .symtab whose count we cannot derive yet (docs/elf.md). The reader records them here; 0
  // means "alignment only", which is what the writer does for cubins it builds.
  uint32_t strtabPadding = 0;

  Function *findFunction(std::string_view name);
  const Function *findFunction(std::string_view name) const;
};

} // namespace optxas::elf
