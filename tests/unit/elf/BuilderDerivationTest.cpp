// The builder's derivations against ptxas: take each ptxas cubin of the test inputs, remove from
// its model everything the builder derives (.nv.compat, default attributes, reserved-shared-memory
// and unified-table symbols, .nv.rel.action, the PTX target note), let the builder derive it again
// and require ptxas's bytes. ptxas is the oracle; it must be on PATH.
#include "optxas/elf/CubinBuilder.h"
#include "optxas/elf/CubinDiff.h"
#include "optxas/elf/CubinReader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace optxas::elf;
namespace fs = std::filesystem;

namespace {
bool ptxas(const std::string &args) {
  FILE *p = popen(("ptxas " + args + " 2>&1").c_str(), "r");
  if (!p) return false;
  char buf[256];
  while (fgets(buf, sizeof buf, p)) {
  }
  return pclose(p) == 0;
}

std::vector<uint8_t> load(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<uint8_t> viaBuilder(const Cubin &ref) {
  CubinBuilder b(ref.target, ref.kind);
  b.setPtxTarget(ref.cudaNote.virtualSm);
  for (const auto &r : ref.compat)
    if (r.kind == static_cast<uint8_t>(CompatKind::ISA_CLASS)) b.setUsesTexturesOrSurfaces(r.value == 2);
  Cubin facts = ref;
  facts.compat.clear();
  facts.reservedSymbols.clear();
  facts.reservedSharedSize.reset();
  facts.unifiedTableSymbols = false;
  facts.relocationActions.reset();
  for (auto &f : facts.functions) {
    for (const auto &d : defaultFunctionAttributes(ref.target, f.isKernel()))
      std::erase_if(f.attributes, [&](const Attribute &a) { return a == d; });
  }
  b.model() = facts;
  return b.finish();
}
} // namespace

TEST(CubinBuilderOracle, DerivesWhatPtxasAddsForEveryInput) {
  std::string inputs = std::string(OPTXAS_SOURCE_DIR) + "/tests/elf/inputs";
  std::string out = std::string(OPTXAS_BINARY_DIR) + "/unit_elf_derive.cubin";
  int checked = 0;
  for (const auto &e : fs::directory_iterator(inputs)) {
    std::string name = e.path().filename().string();
    if (e.path().extension() != ".ptx" || name == "hopper.ptx" || name == "shared.g.ptx") continue;
    for (const char *arch : {"sm_80", "sm_89", "sm_90", "sm_90a"}) {
      std::ifstream ptx(e.path());
      std::string text((std::istreambuf_iterator<char>(ptx)), {});
      if (text.find(".target sm_90") != std::string::npos && std::string(arch) < "sm_90") continue;
      for (const char *mode : {"", "-c"}) {
        if (name == "extern_fn.ptx" && !*mode) continue; // needs symbols from elsewhere
        std::string opts = name.find(".lineinfo") != std::string::npos ? "-lineinfo"
                           : name.find(".g.") != std::string::npos   ? "-g"
                                                                     : "";
        ASSERT_TRUE(ptxas(std::string("-arch=") + arch + " " + opts + " " + mode + " " + e.path().string() + " -o " + out))
            << "ptxas (the oracle) failed or is missing: " << name << " " << arch;
        auto ref = load(out);
        Cubin c;
        ASSERT_FALSE(readCubin(ref, c)) << name << " " << arch << " " << mode;
        auto mine = viaBuilder(c);
        std::string error, why;
        if (mine != ref) {
          if (auto d = diffCubinFiles(ref, mine, {}, error))
            for (const auto &x : *d) why += x.str() + "\n";
          for (size_t i = 0; i < std::min(ref.size(), mine.size()); ++i)
            if (ref[i] != mine[i]) {
              why += "first differing byte at " + std::to_string(i);
              break;
            }
        }
        EXPECT_TRUE(mine == ref) << name << " " << arch << " " << mode << "\n" << why;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}
