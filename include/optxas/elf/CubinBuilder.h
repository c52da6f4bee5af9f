// The back end's way to make a cubin: say what the code is (bytes, registers, parameters, exits,
// relocations, variables) and let the builder derive everything ptxas would add around it: the
// per-target default attributes, .nv.compat, notes, parameter-bank layout and size, reserved-
// shared-memory symbols, section and symbol layout. See docs/elf.md, "What the back end supplies".
//
//   CubinBuilder b(*Target::parse("sm_90"), ObjectKind::Executable);
//   auto &k = b.addKernel("_Z3addPKfS0_Pfi");
//   k.setCode(bytes).setRegisterCount(12);
//   k.addParam(8, 8); k.addParam(8, 8); k.addParam(8, 8); k.addParam(4, 4);
//   k.addExitOffset(0x70).addExitOffset(0x130);
//   std::vector<uint8_t> cubin = b.finish();
#pragma once

#include "optxas/elf/Cubin.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace optxas::elf {

// How much debug information the module carries; sets e_flags bits 24-31 like ptxas.
enum class DebugLevel : uint8_t { None, LineInfo, Full };

class FunctionBuilder {
public:
  FunctionBuilder &setCode(std::span<const uint8_t> code);
  FunctionBuilder &setRegisterCount(uint32_t n);
  FunctionBuilder &setFrameSize(uint32_t bytes);
  FunctionBuilder &setStackSize(uint32_t bytes); // MIN_STACK_SIZE (executables) / MAX_STACK_SIZE (-c)
  FunctionBuilder &setMaxRegCount(uint32_t n);   // kernels: .maxnreg / -maxrregcount (default 0xff)
  FunctionBuilder &setMaxThreads(uint32_t x, uint32_t y = 1, uint32_t z = 1); // .maxntid
  FunctionBuilder &setRequiredThreads(uint32_t x, uint32_t y = 1, uint32_t z = 1); // .reqntid
  FunctionBuilder &setExplicitCluster();                                            // .explicitcluster
  FunctionBuilder &setClusterDims(uint32_t x, uint32_t y = 1, uint32_t z = 1);     // .reqnctapercluster
  FunctionBuilder &setMaxClusterRank(uint32_t n);
  FunctionBuilder &setNumBarriers(uint32_t n);
  FunctionBuilder &setCrsStackSize(uint32_t bytes); // functions that make calls
  FunctionBuilder &addExitOffset(uint32_t offset);
  FunctionBuilder &addS2RCtaidOffset(uint32_t offset);
  // Appends a word to an instruction-offset attribute (SYSCALL_OFFSETS, COOP_GROUP_INSTR_OFFSETS,
  // INT_WARP_WIDE_INSTR_OFFSETS, ...), creating it when needed.
  FunctionBuilder &addOffset(NvInfoKind kind, uint32_t value);
  // An external symbol the code calls or loads (EIATTR_EXTERNS).
  FunctionBuilder &addExtern(std::string symbol);
  FunctionBuilder &setWeak(bool weak = true);          // template kernels, CUDA helper functions
  // Executables: relocations this function had that the assembler resolved itself.
  FunctionBuilder &setResolvedRelocations(ResolvedRelocations r);
  // Kernel parameters in declaration order; the offset follows the previous one, aligned.
  FunctionBuilder &addParam(uint32_t size, uint32_t align);
  // Or with an explicit layout (offset from the start of the parameter block).
  FunctionBuilder &addParamAt(uint32_t offset, uint32_t size, uint8_t logAlign = 0);
  // Any other attribute (replaces an existing one of the same kind, except repeatable kinds).
  FunctionBuilder &setAttribute(Attribute a);
  FunctionBuilder &addRelocation(uint64_t offset, RelocType type, std::string symbol, int64_t addend = 0,
                                 bool withAddend = true);
  FunctionBuilder &addSubroutine(std::string name, uint64_t offset, uint64_t size, uint32_t frameSize = 0);
  FunctionBuilder &setSharedMemory(uint64_t size, uint32_t align, bool hasStaticVariables);
  FunctionBuilder &addCall(std::string callee); // a .nv.callgraph edge

  Function &model() { return c_->functions[index_]; }

private:
  friend class CubinBuilder;
  FunctionBuilder(Cubin &c, size_t index) : c_(&c), index_(index) {}
  Cubin *c_;
  size_t index_;
  uint32_t nextParamOffset_ = 0;
};

class CubinBuilder {
public:
  CubinBuilder(Target target, ObjectKind kind);

  // Functions in the order ptxas processes them (docs/elf.md: kernels of a whole-program
  // compile in reverse PTX order, device functions first in -c objects).
  FunctionBuilder &addKernel(const std::string &name);
  FunctionBuilder &addDeviceFunction(const std::string &name, bool visible);
  FunctionBuilder &function(const std::string &name);

  // Module variables in declaration order. Offsets are assigned in that order, aligned, unless
  // given (offset >= 0). `init` empty = uninitialised (.nv.global); constants always have bytes.
  void addGlobal(const std::string &name, uint64_t size, uint32_t align, std::span<const uint8_t> init = {},
                 bool visible = false, int64_t offset = -1);
  void addConstant(const std::string &name, uint64_t size, uint32_t align, std::span<const uint8_t> init = {},
                   bool visible = false, int64_t offset = -1);
  void addExternal(const std::string &name, ExternalSymbol::Kind kind, uint64_t size = 0);
  // A static .shared variable of `function` (its symbol appears in relocatable objects).
  void addSharedVariable(const std::string &function, const std::string &name, uint64_t offset, uint64_t size);
  // A slot of the bank-4 address table: `symbol`'s address at `offset`.
  void addAddressSlot(uint64_t offset, const std::string &symbol);
  void addRelocationToGlobalInit(uint64_t offset, RelocType type, const std::string &symbol, int64_t addend = 0);

  void setDebugLevel(DebugLevel level);
  // EICOMPAT_ATTR_ISA_CLASS: ptxas writes 2 when the code uses texture or surface instructions,
  // 1 otherwise (the default).
  void setUsesTexturesOrSurfaces(bool uses) { isaClass_ = uses ? 2 : 1; }
  void setPtxTarget(unsigned sm);                     // .note.nv.cuinfo virtual SM (default: target)
  void setToolIdentity(std::string name, std::string version, std::string branch, std::string commandLine);
  void addDebugSection(DebugSection section);         // .debug_frame, .debug_line, ...

  // Derives what the back end did not supply and writes the file. Throws std::runtime_error
  // when the model is inconsistent.
  std::vector<uint8_t> finish();
  // The derived model (after finish(), or to inspect before).
  Cubin &model() { return c_; }
  void derive(); // idempotent; finish() calls it

private:
  Cubin c_;
  std::vector<std::unique_ptr<FunctionBuilder>> builders_;
  uint64_t nextGlobal_ = 0, nextInit_ = 0, nextConst_ = 0;
  bool ptxTargetSet_ = false, derived_ = false;
  uint8_t isaClass_ = 1;
};

// Per-target defaults, also used by the builder (facts from ptxas 13.0 output).
std::vector<NvInfoRecord> defaultCompat(const Target &t, uint8_t isaClass = 1);
std::vector<Attribute> defaultFunctionAttributes(const Target &t, bool kernel);
// The .nv.rel.action contents ptxas writes into sm_8x executables.
std::vector<uint8_t> legacyRelocationActions();

} // namespace optxas::elf
