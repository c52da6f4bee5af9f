// The option table (data). Descriptions are optxas's own; spellings and value kinds follow
// ptxas 13.0 exactly.
#include "OptionTable.h"

namespace optxas::driver {
namespace {

using K = OptKind;
using I = OptId;

constexpr OptionSpec kOptions[] = {
  {I::OfastCompile, "Ofast-compile", "Ofc", K::Value, "<0|min|mid|max>",
   "Trade run-time performance for compile speed: 'max' skips most optimizations, 'mid' the "
   "expensive ones, 'min' a few; '0' (default) turns fast-compile off."},
  {I::AllowExpensiveOptimizations, "allow-expensive-optimizations", "allow-expensive-optimizations",
   K::Bool, "<true|false>",
   "Allow (or forbid) optimizations that cost much compile time or memory. Default: on at -O2 "
   "and above."},
  {I::CompileAsToolsPatch, "compile-as-tools-patch", "astoolspatch", K::Flag, "",
   "Compile patch code for CUDA tools (register limit set to the ABI minimum)."},
  {I::CompileOnly, "compile-only", "c", K::Flag, "", "Produce a relocatable object.", false, true},
  {I::CompilerAnnotations, "compiler-annotations", "annotate", K::Flag, "",
   "Annotate the output with compiler-internal information."},
  {I::DefLoadCache, "def-load-cache", "dlcm", K::Value, "<cache>",
   "Default cache operator for global/generic loads."},
  {I::DefStoreCache, "def-store-cache", "dscm", K::Value, "<cache>",
   "Default cache operator for global/generic stores."},
  {I::DeviceDebug, "device-debug", "g", K::Flag, "", "Generate debug information for device code.",
   false, true},
  {I::DeviceFunctionMaxrregcount, "device-function-maxrregcount", "func-maxrregcount", K::Value,
   "<archmax/archmin/N>",
   "With --compile-only: the register limit for device functions (overrides --maxrregcount for "
   "them; entry functions are not affected)."},
  {I::DeviceStackProtector, "device-stack-protector", "device-stack-protector", K::Bool,
   "<true|false>", "Use stack canaries in functions judged at risk. Default: false."},
  {I::DisableOptimizerConstants, "disable-optimizer-constants", "disable-optimizer-consts", K::Flag,
   "", "Do not use the optimizer's constant bank."},
  {I::DisableWarnings, "disable-warnings", "w", K::Flag, "", "Print no warnings.", false, true},
  {I::DontMergeBasicblocks, "dont-merge-basicblocks", "no-bb-merge", K::Flag, "",
   "Keep consecutive basic blocks apart (easier debugging, slightly slower code)."},
  {I::Entry, "entry", "e", K::List, "<entry function>,...",
   "Compile only these entry functions.", false, true},
  {I::ExtensibleWholeProgram, "extensible-whole-program", "ewp", K::Flag, "",
   "Extensible whole-program mode."},
  {I::Fmad, "fmad", "fmad", K::Bool, "<true|false>",
   "Contract floating-point multiplies and adds into fused multiply-adds. Default: true."},
  {I::ForceLoadCache, "force-load-cache", "flcm", K::Value, "<cache>",
   "Force this cache operator on global/generic loads."},
  {I::ForceStoreCache, "force-store-cache", "fscm", K::Value, "<cache>",
   "Force this cache operator on global/generic stores."},
  {I::GTmemAccessCheck, "g-tensor-memory-access-check", "g-tmem-access-check", K::Flag, "",
   "Check tensor-memory accesses of tcgen05 operations (on by default with -g)."},
  {I::GenerateLineInfo, "generate-line-info", "lineinfo", K::Flag, "",
   "Generate line-number information for device code.", false, true},
  {I::GnoTmemAccessCheck, "gno-tensor-memory-access-check", "gno-tmem-access-check", K::Flag, "",
   "Do not check tensor-memory accesses (wins over -g-tmem-access-check)."},
  {I::GpuName, "gpu-name", "arch", K::Value, "<gpu name>",
   "The GPU to generate code for (sm_XX[a|f]); a virtual architecture (compute_XX, lto_XX) "
   "parses and checks only. Default: 'sm_75'.", false, true},
  {I::Help, "help", "h", K::Flag, "", "Print this help.", false, true},
  {I::InputAsString, "input-as-string", "ias", K::List, "<ptx string>,...",
   "Take PTX modules from these strings instead of files.", false, true},
  {I::LegacyBarWarpWide, "legacy-bar-warp-wide-behavior", "legacy-bar-warp-wide-behavior", K::Flag,
   "", "Deprecated; ignored for sm_70 and later."},
  {I::ListVersion, "list-version", "version-ls", K::Flag, "",
   "Print the supported PTX ISA versions.", false, true},
  {I::Machine, "machine", "m", K::Value, "<bits>", "Host architecture bits; only 64 is allowed.",
   false, true},
  {I::MakeErrorsVisibleAtExit, "make-errors-visible-at-exit", "make-errors-visible-at-exit",
   K::Flag, "", "Make memory faults and errors visible at exit points."},
  {I::Maxntid, "maxntid", "maxntid", K::List, "<Comma separated list of numbers>,...",
   "Maximum CTA size for entries without .maxntid (ignored with --maxrregcount)."},
  {I::Maxrregcount, "maxrregcount", "maxrregcount", K::Value, "<archmax/archmin/N>",
   "Maximum number of registers a function may use. Default: no limit."},
  {I::Minnctapersm, "minnctapersm", "minnctapersm", K::Value, "<N>",
   "Minimum number of CTAs per multiprocessor for entries without .minnctapersm."},
  {I::OptLevel, "opt-level", "O", K::Value, "<N>", "Optimization level. Default: 3.", false, true},
  {I::OptimizeFloatAtomics, "optimize-float-atomics", "opt-fp-atomics", K::Flag, "",
   "Allow optimizations of floating-point atomics that may change results."},
  {I::OptionsFile, "options-file", "optf", K::List, "<file>,...",
   "Read more command-line options from these files.", false, true},
  {I::OutputFile, "output-file", "o", K::Value, "<file>", "Output file. Default: 'elf.o'.",
   false, true},
  {I::OverrideDirectiveValues, "override-directive-values", "override-directive-values", K::Flag,
   "", "Let --minnctapersm, --maxntid and --maxrregcount override the PTX directives."},
  {I::PositionIndependentCode, "position-independent-code", "pic", K::Bool, "<true|false>",
   "Generate position-independent code. Default: false (on for whole-program builds)."},
  {I::PreserveRelocs, "preserve-relocs", "preserve-relocs", K::Flag, "",
   "Keep relocations for variables in the linked executable."},
  {I::RegisterUsageLevel, "register-usage-level", "regUsageLevel", K::Value, "<0..10>",
   "How freely optimizations may spend registers (0..10). Default: 5."},
  {I::ReturnAtEnd, "return-at-end", "ret-end", K::Flag, "",
   "Keep the final return instruction (for breakpoints)."},
  {I::Sanitize, "sanitize", "sanitize", K::Value, "<string>",
   "Instrument the code for a sanitizer tool: 'memcheck' or 'threadsteer'."},
  {I::SpBoundsCheck, "sp-bounds-check", "sp-bounds-check", K::Flag, "",
   "Check the stack pointer against its bounds (implied by -g and -O0)."},
  {I::SplitCompile, "split-compile", "split-compile", K::Value, "<N>",
   "Use up to N threads for optimization (0: one per CPU; 1: ignored)."},
  {I::SuppressAsyncBulkMulticastAdvisoryWarning, "suppress-async-bulk-multicast-advisory-warning",
   "suppress-async-bulk-multicast-advisory-warning", K::Flag, "",
   "No advisory warning for .multicast::cluster."},
  {I::SuppressDebugInfo, "suppress-debug-info", "suppress-debug-info", K::Flag, "",
   "Write no debug sections (only meaningful with -g or -lineinfo)."},
  {I::SuppressDoubleDemoteWarning, "suppress-double-demote-warning",
   "suppress-double-demote-warning", K::Flag, "",
   "No warning when double precision is demoted on a GPU without it."},
  {I::SuppressSparseMmaAdvisoryInfo, "suppress-sparse-mma-advisory-info",
   "suppress-sparse-mma-advisory-info", K::Flag, "", "No advisory note for mma.sp."},
  {I::SuppressStackSizeWarning, "suppress-stack-size-warning", "suppress-stack-size-warning",
   K::Flag, "", "No warning when the stack size cannot be determined."},
  {I::Verbose, "verbose", "v", K::Flag, "", "Print code-generation statistics.", false, true},
  {I::Version, "version", "V", K::Flag, "", "Print the version.", false, true},
  {I::WarnOnDoublePrecisionUse, "warn-on-double-precision-use", "warn-double-usage", K::Flag, "",
   "Warn when an instruction uses doubles."},
  {I::WarnOnLocalMemoryUsage, "warn-on-local-memory-usage", "warn-lmem-usage", K::Flag, "",
   "Warn when local memory is used."},
  {I::WarnOnSpills, "warn-on-spills", "warn-spills", K::Flag, "",
   "Warn when registers are spilled to local memory."},
  {I::WarningAsError, "warning-as-error", "Werror", K::Flag, "", "Treat warnings as errors.",
   false, true},
  // ---- optxas engineering interface ----
  {I::Knob, "knob", "knob", K::Value, "<NAME=VALUE>",
   "Set an internal knob (repeatable; later settings win), e.g. -knob DUMPIR=AllocateRegisters.",
   true, true},
  {I::KnobsFile, "knobs-file", "knobs-file", K::Value, "<file>",
   "Read knob settings from a file: one NAME=VALUE per line, '#' starts a comment.", true, true},
  {I::Stat, "stat", "stat", K::Value, "<phase-wise>",
   "Print statistics; 'phase-wise' prints time and memory per phase.", true, true},
};

} // namespace

std::span<const OptionSpec> optionTable() { return kOptions; }

const OptionSpec *findLong(std::string_view name) {
  for (const OptionSpec &o : kOptions)
    if (o.longName == name) return &o;
  return nullptr;
}

const OptionSpec *findShort(std::string_view name) {
  for (const OptionSpec &o : kOptions)
    if (o.shortName == name) return &o;
  return nullptr;
}

} // namespace optxas::driver
