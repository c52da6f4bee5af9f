// The table of command-line options: ptxas 13.0's option set (long and short spellings, what
// kind of value each takes) plus optxas's engineering options. Behaviour learned from ptxas:
//   --long[=value] only with two dashes; -short[=value] only with one;
//   a value is attached with '=' or is the next argument;
//   -O and -m also take an attached number (-O3, -m64); -O's value is optional;
//   list options (-e a,b) split at commas and accumulate;
//   a repeated single-value option with a different value warns and keeps the last value.
#pragma once

#include <span>
#include <string_view>

namespace optxas::driver {

enum class OptKind : unsigned char {
  Flag,      // no value
  Value,     // one value
  Bool,      // true|false
  List,      // comma-separated values, accumulating
};

enum class OptId : unsigned char {
  OfastCompile, AllowExpensiveOptimizations, CompileAsToolsPatch, CompileOnly,
  CompilerAnnotations, DefLoadCache, DefStoreCache, DeviceDebug, DeviceFunctionMaxrregcount,
  DeviceStackProtector, DisableOptimizerConstants, DisableWarnings, DontMergeBasicblocks, Entry,
  ExtensibleWholeProgram, Fmad, ForceLoadCache, ForceStoreCache, GTmemAccessCheck,
  GenerateLineInfo, GnoTmemAccessCheck, GpuName, Help, InputAsString, LegacyBarWarpWide,
  ListVersion, Machine, MakeErrorsVisibleAtExit, Maxntid, Maxrregcount, Minnctapersm, OptLevel,
  OptimizeFloatAtomics, OptionsFile, OutputFile, OverrideDirectiveValues,
  PositionIndependentCode, PreserveRelocs, RegisterUsageLevel, ReturnAtEnd, Sanitize,
  SpBoundsCheck, SplitCompile, SuppressAsyncBulkMulticastAdvisoryWarning, SuppressDebugInfo,
  SuppressDoubleDemoteWarning, SuppressSparseMmaAdvisoryInfo, SuppressStackSizeWarning,
  Verbose, Version, WarnOnDoublePrecisionUse, WarnOnLocalMemoryUsage, WarnOnSpills,
  WarningAsError,
  // optxas engineering interface (not in ptxas --help)
  Knob, KnobsFile, Stat,
};

struct OptionSpec {
  OptId id;
  std::string_view longName;   // used as --longName
  std::string_view shortName;  // used as -shortName
  OptKind kind;
  std::string_view valueHint;  // "<gpu name>" for the help text
  std::string_view help;       // one-paragraph description (optxas's own words)
  bool engineering = false;    // hidden from the ptxas-compatible part of --help
  bool actedOn = false;        // false: accepted for compatibility, no effect yet (docs/options.md)
};

std::span<const OptionSpec> optionTable();
const OptionSpec *findLong(std::string_view name);
const OptionSpec *findShort(std::string_view name);

} // namespace optxas::driver
