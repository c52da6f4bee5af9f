// Kernel test specs: how to launch one kernel with generated inputs, and how to compare outputs.
// One text file per test (tests/exec/NAME.spec beside NAME.ptx); the format is documented in
// docs/simulation.md. The same spec drives the PTX interpreter, the SASS simulator and the GPU
// runner, so everything here is independent of the executor:
//
//   KernelSpec spec = parseSpec(text)            what to run
//   auto args = materialize(spec, seed)          input bytes (deterministic per seed)
//   auto launch = prepareLaunch(spec, args, paramLayout, memory)   buffers + parameter block
//   ... executor runs launch.config ...
//   auto outs = readOutputs(spec, launch, memory)
//   compareOutput(spec.params[i], expected, actual)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "optxas/sim/Launch.h"
#include "optxas/sim/Memory.h"

namespace optxas::sim {

enum class ElemType : uint8_t { U8, S8, U16, S16, U32, S32, U64, S64, F16, BF16, F32, F64 };
std::string_view elemTypeName(ElemType t);
std::optional<ElemType> elemTypeFromName(std::string_view s);
unsigned elemBytes(ElemType t);
bool elemIsFloat(ElemType t);

// How a buffer is filled before the launch.
struct InitSpec {
  enum Kind : uint8_t { Zeros, Iota, Const, Random, Values } kind = Zeros;
  double a = 0, b = 0;              // iota start/step, const value, random [lo, hi)
  int64_t ia = 0, ib = 0;           // the same for integer element types (random: [lo, hi])
  std::vector<double> values;       // Values (floats)
  std::vector<int64_t> ivalues;     // Values (integers)
};

// How an output buffer is compared with the reference.
struct CompareSpec {
  enum Kind : uint8_t {
    Exact,      // bitwise; for float types any NaN matches any NaN
    Ulp,        // floats: at most `ulp` units in the last place apart
    Tol,        // floats: |a-b| <= abs + rel * max(|a|,|b|)
    Unordered,  // equal as multisets (outputs whose order depends on scheduling)
  } kind = Exact;
  uint64_t ulp = 0;
  double abs = 0, rel = 0;
};

struct ParamSpec {
  std::string name;
  bool isBuffer = false;
  ElemType type = ElemType::U32;
  uint64_t count = 0;               // buffer elements; raw-bytes parameters: their size
                                    // (type U8, isBuffer false); 0 for plain scalars
  InitSpec init;                    // buffer contents, or the scalar's value (Const/Random)
  bool output = false;
  CompareSpec compare;
};

struct KernelSpec {
  std::string kernel;               // empty: the module's only kernel
  Dim3 grid, block;
  uint32_t dynamicSharedBytes = 0;
  uint64_t maxInstructions = 0;     // 0: the executor's default
  std::vector<ParamSpec> params;
};

// Parses a spec; on error returns nullopt and sets `error` to "line N: message".
std::optional<KernelSpec> parseSpec(std::string_view text, std::string &error);

// The bytes of each parameter for one run: buffer contents, or the scalar's value.
struct ParamValue {
  bool isBuffer = false;
  std::vector<uint8_t> bytes;
};
std::vector<ParamValue> materialize(const KernelSpec &spec, uint64_t seed);

struct PreparedLaunch {
  LaunchConfig config;
  std::vector<uint64_t> bufferBase;   // per parameter; 0 for scalars
};
// Allocates and fills the buffers in `memory` and builds the parameter block from `layout`
// (the kernel's parameter slots, in order). Fails when the spec does not fit the kernel.
std::optional<PreparedLaunch> prepareLaunch(const KernelSpec &spec,
                                            const std::vector<ParamValue> &values,
                                            std::span<const ParamSlot> layout,
                                            GlobalMemory &memory, std::string &error);
// The bytes of each output buffer after the launch (empty vectors for other parameters).
std::vector<std::vector<uint8_t>> readOutputs(const KernelSpec &spec, const PreparedLaunch &launch,
                                              const GlobalMemory &memory);

// Everything above in one call: generates the inputs for `seed`, sets up the buffers in
// `memory`, launches spec.kernel (or the executor's only kernel) and reads the outputs back.
struct SpecRun {
  std::string error;                            // set when the spec does not fit the kernel
  std::string kernel;                           // the kernel that ran
  std::vector<ParamValue> inputs;
  std::vector<std::vector<uint8_t>> outputs;    // per parameter (output buffers only)
  LaunchResult result;
};
SpecRun runSpec(Executor &exec, GlobalMemory &memory, const KernelSpec &spec, uint64_t seed,
                LaunchLimits limits = {});

struct Mismatch {
  uint64_t index = 0;
  std::string expected, actual;
};
struct CompareReport {
  uint64_t mismatches = 0;
  std::vector<Mismatch> first;   // the first few
  bool ok() const { return mismatches == 0; }
};
CompareReport compareOutput(const ParamSpec &param, std::span<const uint8_t> expected,
                            std::span<const uint8_t> actual, size_t maxReported = 8);

// One element as text ("1.5", "-3", "nan", "0x7fc00000" style is not used: values are decimal).
std::string formatElement(ElemType t, const uint8_t *p);
// Writes the outputs as text: one "# name: type[count]" header per output, then values.
std::string formatOutputs(const KernelSpec &spec, const std::vector<std::vector<uint8_t>> &outs);

} // namespace optxas::sim
