// Everything the command line (or a library user) can ask of the assembler, in one struct.
// The driver fills it from ptxas-style arguments; every later stage reads it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "optxas/support/Diagnostics.h"

namespace optxas::api {

// A knob setting `-knob NAME=VALUE`, or (when `file` is set) a knobs file read at that place in
// command-line order. The file is parsed by the knob registry, the one reader of the format.
struct Knob {
  std::string name;
  std::string value;
  std::string file;
};

enum class StatMode : uint8_t { None, PhaseWise };

// -maxrregcount / -func-maxrregcount values: a number or archmax/archmin.
struct RegLimit {
  enum Kind : uint8_t { None, Number, ArchMax, ArchMin } kind = None;
  uint32_t value = 0;
  bool given() const { return kind != None; }
};

// The target GPU from -arch/--gpu-name: "sm_90a" -> {Sm, 90, 'a'}.
struct Arch {
  enum Kind : uint8_t { Sm, Compute, Lto } kind = Sm;
  uint32_t number = 75;     // ptxas 13.0 default: sm_75
  char suffix = 0;          // 'a', 'f' or 0
  std::string name() const; // "sm_90a"
  bool isVirtual() const { return kind != Sm; }  // compute_/lto_: parse only, no code
};

struct Options {
  // --- inputs and outputs ---
  std::vector<std::string> inputs;       // file names; "-" is stdin (ptxas reads stdin without inputs? see docs)
  std::vector<std::string> inputStrings; // --input-as-string
  std::string outputFile = "elf.o";      // -o; ptxas's default
  bool outputFileGiven = false;

  // --- code generation ---
  Arch arch;
  bool archGiven = false;
  int optLevel = 3;                      // -O0..-O3 (ptxas accepts any N; >3 behaves as 3)
  bool optLevelGiven = false;            // -O with a level (-g then needs -O0)
  RegLimit maxrregcount;                 // -maxrregcount
  RegLimit funcMaxrregcount;             // -func-maxrregcount
  bool compileOnly = false;              // -c: relocatable object
  bool deviceDebug = false;              // -g
  bool lineInfo = false;                 // -lineinfo
  bool suppressDebugInfo = false;
  bool fmad = true;                      // --fmad
  bool allowExpensiveOptimizations = true; bool allowExpensiveGiven = false;
  bool positionIndependentCode = false; bool picGiven = false;
  std::vector<std::string> entries;      // -e
  std::vector<uint32_t> maxntid;         // --maxntid
  uint32_t minnctapersm = 0;
  bool overrideDirectiveValues = false;
  int registerUsageLevel = 5;
  std::string fastCompile = "0";         // -Ofc
  std::string defLoadCache, defStoreCache, forceLoadCache, forceStoreCache;
  bool disableOptimizerConstants = false;
  bool dontMergeBasicBlocks = false;
  bool returnAtEnd = false;
  bool spBoundsCheck = false;
  bool preserveRelocs = false;
  bool extensibleWholeProgram = false;
  bool compileAsToolsPatch = false;
  bool compilerAnnotations = false;
  bool makeErrorsVisibleAtExit = false;
  bool optimizeFloatAtomics = false;
  bool legacyBarWarpWide = false;
  bool deviceStackProtector = false;
  bool gTmemAccessCheck = false, gnoTmemAccessCheck = false;
  std::string sanitize;
  uint32_t splitCompile = 1;
  int machineBits = 64;

  // --- diagnostics ---
  bool verbose = false;                  // -v
  bool warnOnSpills = false;
  bool warnOnLocalMemoryUsage = false;
  bool warnOnDoubleUsage = false;
  bool warningAsError = false;           // -Werror
  bool disableWarnings = false;          // -w
  bool suppressStackSizeWarning = false;
  bool suppressDoubleDemoteWarning = false;
  bool suppressAsyncBulkMulticastAdvisory = false;
  bool suppressSparseMmaAdvisory = false;

  // --- engineering interface (not in ptxas --help) ---
  std::vector<Knob> knobs;               // -knob NAME=VALUE and knobs files, in order
  StatMode stat = StatMode::None;        // --stat=phase-wise

  // Options accepted for compatibility that nothing acts on yet, as written (for -v and docs).
  std::vector<std::string> notActedOn;
};

// ptxas's warnings about a -maxrregcount outside the register file's bounds (raised to the floor;
// too big: ignored, which the back end does), given before any input is read.
void checkRegisterLimitOption(const Options &opts, DiagEngine &diags);

} // namespace optxas::api
