// Test support: assembles SASS text (nvdisasm syntax, one instruction per line) into an sm_90
// (or `arch`) cubin with the project's own codec and cubin builder, and runs it on the SASS simulator.
//
// Each line may start with control bits in braces: {S4 W0 R1 M03 Y} = stall 4, write scoreboard
// 0, read scoreboard 1, wait mask 0x03, yield. Without them: stall 1, no scoreboards, no wait.
// Branch targets are absolute byte addresses (instruction i is at 16*i), or labels: a line
// "name:" marks the next instruction and "%name" in an instruction stands for its address.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optxas/sim/SassSimulator.h"

namespace optxas::sim::test {

struct SassKernel {
  std::vector<std::string> lines;
  std::vector<uint32_t> paramSizes = {8};   // 8-byte pointers by default
  uint32_t registers = 32;
  uint64_t sharedBytes = 0;                 // static shared memory (beyond the reserved 1 KiB)
  uint32_t minStackSize = 0;                // MIN_STACK_SIZE (0: not written; 0xffffffff: unknown)
  std::string arch = "sm_90";               // or sm_80/86/89 (no reserved shared window below)
};

// The cubin, or an empty vector with `error` set.
std::vector<uint8_t> assemble(const SassKernel &k, std::string &error);

struct SassRun {
  std::string error;                 // assembly / load / launch setup problem
  LaunchResult result;
  std::vector<uint32_t> out;         // the output buffer (parameter 0) after the launch
  std::vector<Hazard> hazards;
  uint64_t hazardCount = 0;
};

// Runs kernel "k" with parameter 0 = a buffer of `outWords` 32-bit words (initialized from
// `init`, rest zero) and the following parameters = `scalars` (4 bytes each).
SassRun runSass(const SassKernel &k, unsigned outWords, Dim3 block = {1, 1, 1},
                bool timing = false, std::vector<uint32_t> init = {},
                std::vector<uint32_t> scalars = {}, Dim3 grid = {1, 1, 1});

} // namespace optxas::sim::test
