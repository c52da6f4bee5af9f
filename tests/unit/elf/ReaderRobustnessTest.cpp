// The reader on damaged input: every mutation of a valid cubin must give an error or a model,
// never a crash or a hang. (Deterministic: a fixed seed.)
#include "optxas/elf/CubinBuilder.h"
#include "optxas/elf/CubinReader.h"
#include "optxas/elf/CubinWriter.h"

#include <gtest/gtest.h>

#include <random>

using namespace optxas::elf;

static std::vector<uint8_t> sample(ObjectKind kind, const char *target) {
  CubinBuilder b(*Target::parse(target), kind);
  auto &k = b.addKernel("k");
  k.setCode(std::vector<uint8_t>(0x100, 0x18)).setRegisterCount(8).addParam(8, 8).addParam(4, 4).addExitOffset(0x40);
  uint8_t init[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  b.addGlobal("g", 8, 8, init);
  b.addConstant("c", 4, 4, init);
  b.addAddressSlot(0, "g");
  return b.finish();
}

TEST(ReaderRobustness, MutatedCubinsNeverCrash) {
  std::mt19937 rng(12345);
  int errors = 0, read = 0;
  for (auto kind : {ObjectKind::Executable, ObjectKind::Relocatable})
    for (const char *target : {"sm_80", "sm_90"}) {
      const auto good = sample(kind, target);
      Cubin c;
      ASSERT_FALSE(readCubin(good, c)) << target;
      for (int i = 0; i < 1500; ++i) {
        auto bad = good;
        int flips = 1 + static_cast<int>(rng() % 4);
        for (int f = 0; f < flips; ++f) bad[rng() % bad.size()] = static_cast<uint8_t>(rng());
        if (rng() % 10 == 0) bad.resize(rng() % bad.size());
        Cubin m;
        if (readCubin(bad, m)) {
          ++errors;
        } else {
          ++read;
          std::vector<uint8_t> out; // what was read must also be writable or rejected cleanly
          (void)writeCubin(m, out);
        }
      }
    }
  EXPECT_GT(errors, 0);
  EXPECT_GT(read, 0); // some mutations hit bytes that carry no meaning the reader checks (code)
}

TEST(ReaderRobustness, EmptyAndTinyInputs) {
  Cubin c;
  EXPECT_TRUE(readCubin({}, c).has_value());
  std::vector<uint8_t> header(64, 0);
  header[0] = 0x7f, header[1] = 'E', header[2] = 'L', header[3] = 'F', header[4] = 2, header[5] = 1;
  EXPECT_TRUE(readCubin(header, c).has_value());
}

TEST(Writer, RejectsReferencesToUnknownSymbols) {
  CubinBuilder b(*Target::parse("sm_90"), ObjectKind::Relocatable);
  b.addKernel("k").setCode(std::vector<uint8_t>(0x80, 0)).addRelocation(0x10, RelocType::R_CUDA_ABS32_LO_32, "nowhere");
  EXPECT_THROW(b.finish(), std::runtime_error);
}
