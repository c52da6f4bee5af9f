// REL and RELA entries as stored in .rel.* / .rela.* sections.
#include "optxas/elf/ElfFormat.h"
#include "optxas/elf/ElfImage.h"

#include <gtest/gtest.h>

using namespace optxas::elf;

TEST(RelocEncoding, RelaEntryLayout) {
  std::vector<ElfReloc> in = {{0x44, 8, 2, 0}, {0x4c, 8, 73, -16}};
  auto bytes = encodeRelocs(in, true);
  ASSERT_EQ(bytes.size(), 48u);
  // r_offset, then r_info = symbol << 32 | type, then the signed addend.
  EXPECT_EQ(bytes[0], 0x44);
  EXPECT_EQ(bytes[8], 2);
  EXPECT_EQ(bytes[12], 8);
  EXPECT_EQ(bytes[40], 0xf0);
  EXPECT_EQ(bytes[47], 0xff);
  ElfSection s;
  s.type = SHT_RELA;
  s.data = bytes;
  auto back = decodeRelocs(s);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].offset, 0x4cu);
  EXPECT_EQ(back[1].symbol, 8u);
  EXPECT_EQ(back[1].type, 73u);
  EXPECT_EQ(back[1].addend, -16);
}

TEST(RelocEncoding, RelHasNoAddend) {
  std::vector<ElfReloc> in = {{0x10, 3, 56, 0}};
  auto bytes = encodeRelocs(in, false);
  ASSERT_EQ(bytes.size(), 16u);
  ElfSection s;
  s.type = SHT_REL;
  s.data = bytes;
  auto back = decodeRelocs(s);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].symbol, 3u);
  EXPECT_EQ(back[0].type, 56u);
  EXPECT_EQ(back[0].addend, 0);
}

TEST(ElfImage, ParseRejectsBadInput) {
  ElfImage img;
  std::vector<uint8_t> notElf(64, 0);
  EXPECT_TRUE(parseElf(notElf, img).has_value());
  std::vector<uint8_t> tooShort = {0x7f, 'E', 'L', 'F', 2, 1};
  EXPECT_TRUE(parseElf(tooShort, img).has_value());
}
