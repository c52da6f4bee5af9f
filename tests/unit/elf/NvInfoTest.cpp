// .nv.info attribute records: wire format, names, parameter packing.
#include "optxas/elf/NvInfo.h"
#include "optxas/elf/Relocations.h"

#include <gtest/gtest.h>

using namespace optxas::elf;

TEST(NvInfo, EncodesEachFormat) {
  std::vector<NvInfoRecord> recs = {
      NvInfoRecord::flag(0x53),                               // EIFMT_NVAL
      NvInfoRecord::byte(0x09, 1),                            // EIFMT_BVAL
      NvInfoRecord::half(0x1b, 0xff),                         // EIFMT_HVAL
      NvInfoRecord::sized(0x2f, std::vector<uint32_t>{8, 12}), // EIFMT_SVAL
  };
  std::vector<uint8_t> want = {0x01, 0x53, 0x00, 0x00, 0x02, 0x09, 0x01, 0x00, 0x03, 0x1b, 0xff, 0x00,
                               0x04, 0x2f, 0x08, 0x00, 8, 0, 0, 0, 12, 0, 0, 0};
  EXPECT_EQ(encodeNvInfo(recs), want);
  std::vector<NvInfoRecord> back;
  ASSERT_FALSE(decodeNvInfo(want, back));
  EXPECT_EQ(back, recs);
  EXPECT_EQ(back[3].words(), (std::vector<uint32_t>{8, 12}));
}

TEST(NvInfo, RejectsTruncatedAndUnknownFormats) {
  std::vector<NvInfoRecord> out;
  std::vector<uint8_t> truncated = {0x04, 0x2f, 0x08, 0x00, 1, 2, 3};
  EXPECT_TRUE(decodeNvInfo(truncated, out).has_value());
  std::vector<uint8_t> badFormat = {0x07, 0x2f, 0x00, 0x00};
  EXPECT_TRUE(decodeNvInfo(badFormat, out).has_value());
}

TEST(NvInfo, KindNamesMatchCudaTools) {
  EXPECT_EQ(nvInfoKindName(0x2f), "EIATTR_REGCOUNT");
  EXPECT_EQ(nvInfoKindName(0x17), "EIATTR_KPARAM_INFO");
  EXPECT_EQ(nvInfoKindName(0x1c), "EIATTR_EXIT_INSTR_OFFSETS");
  EXPECT_EQ(nvInfoKindName(0x0a), "EIATTR_PARAM_CBANK");
  EXPECT_EQ(nvInfoKindName(0x09), "EIATTR_SAMPLER_INIT");  // cuobjdump's name (0x09 is also a .nv.compat kind)
  EXPECT_EQ(nvInfoKindName(0x5f), "EIATTR_UNKNOWN_5F");
  EXPECT_EQ(nvInfoKindName(0xee), "EIATTR_UNKNOWN_EE");
  EXPECT_EQ(nvInfoKindByName("EIATTR_MAXREG_COUNT"), uint8_t{0x1b});
  EXPECT_EQ(nvInfoKindByName("SW_WAR"), uint8_t{0x36});
  EXPECT_FALSE(nvInfoKindByName("EIATTR_NOT_A_THING"));
  EXPECT_EQ(compatKindName(0x09), "EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET");
}

TEST(Relocations, NamesAndNumbers) {
  EXPECT_EQ(relocTypeName(RelocType::R_CUDA_64), "R_CUDA_64");
  EXPECT_EQ(static_cast<uint32_t>(RelocType::R_CUDA_64), 2u);
  EXPECT_EQ(static_cast<uint32_t>(RelocType::R_CUDA_ABS32_LO_32), 56u);
  EXPECT_EQ(static_cast<uint32_t>(RelocType::R_CUDA_ABS55_16_34), 75u);
  EXPECT_EQ(relocTypeByName("R_CUDA_G64"), RelocType::R_CUDA_G64);
  EXPECT_EQ(relocTypeName(static_cast<RelocType>(200)), "R_CUDA_UNKNOWN_200");
}
