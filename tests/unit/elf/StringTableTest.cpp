// The append-only string tables the writer builds (.shstrtab, .strtab).
#include "ObjectBuilder.h"

#include <gtest/gtest.h>

#include <string>

using namespace optxas::elf;

static std::string asText(const std::vector<uint8_t> &b) { return std::string(b.begin(), b.end()); }

TEST(StringTable, StartsWithEmptyStringAndShares) {
  StringTable t;
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.add(""), 0u);
  uint32_t a = t.add(".text.k");
  uint32_t b = t.add(".nv.info.k");
  EXPECT_EQ(a, 1u);
  EXPECT_EQ(b, 1u + 8u);
  EXPECT_EQ(t.add(".text.k"), a); // shared, not appended twice
  EXPECT_EQ(asText(t.bytes()), std::string("\0.text.k\0.nv.info.k\0", 20));
}

TEST(StringTable, RenameInPlacePadsWithZeros) {
  StringTable t;
  uint32_t a = t.add(".nv.constant.pic");
  t.add("next");
  t.renameInPlace(a, ".nv.constant4");
  EXPECT_EQ(asText(t.bytes()), std::string("\0.nv.constant4\0\0\0\0next\0", 23));
  EXPECT_EQ(t.add(".nv.constant4"), a);                 // the new name is known
  uint32_t end = t.size();
  EXPECT_EQ(t.add(".nv.constant.pic"), end); // the old name is gone: appended anew
  EXPECT_THROW(t.renameInPlace(a, ".nv.constant4.longer"), std::logic_error);
}

TEST(StringTable, EraseLeavesZeros) {
  StringTable t;
  uint32_t a = t.add("abc");
  t.erase(a);
  EXPECT_EQ(asText(t.bytes()), std::string("\0\0\0\0\0", 5));
}

TEST(ObjectBuilder, SectionNamesGoToBothTablesUnlessDeferred) {
  ObjectBuilder b;
  int s1 = b.addSection(".text.k", 1, 6, 128, SectionGroup::Text);
  int s2 = b.addSection(".nv.constant0.k", 1, 0x42, 4, SectionGroup::ParamBank, /*inStrtab=*/false);
  EXPECT_EQ(asText(b.shstrtab().bytes()), std::string("\0.text.k\0.nv.constant0.k\0", 25));
  EXPECT_EQ(asText(b.strtab().bytes()), std::string("\0.text.k\0", 9));
  b.addSectionSymbol(s2); // the section symbol interns the name in .strtab
  EXPECT_EQ(asText(b.strtab().bytes()), std::string("\0.text.k\0.nv.constant0.k\0", 25));
  EXPECT_EQ(b.section(s1).symbol, -1);
  EXPECT_EQ(b.symbolCount(), 2); // null symbol + the section symbol
}

TEST(ObjectBuilder, ErasedSymbolBecomesEmptyInternalEntry) {
  ObjectBuilder b;
  int y = b.addSymbol("placeholder_name_xyz", 0x11, 0, -1, 4, 8);
  b.eraseSymbol(y);
  EXPECT_EQ(b.symbol(y).stName, 0u);
  EXPECT_EQ(b.symbol(y).info, 0);
  EXPECT_EQ(b.symbol(y).other, 1); // STV_INTERNAL
  EXPECT_EQ(b.strtab().size(), 1u + 21u); // the name's bytes remain as zeros
}
