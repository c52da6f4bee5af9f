// The lexer: token kinds, exact literal values, ptxas's longest-match splitting of malformed
// numbers, comments and line tracking.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "optxas/ptx/Arena.h"
#include "optxas/ptx/Lexer.h"

using namespace optxas::ptx;

namespace {
std::vector<Token> lexAll(std::string_view s) {
  Lexer lx(s);
  std::vector<Token> out;
  for (;;) {
    Token t = lx.next();
    if (t.kind == Tok::Eof) break;
    out.push_back(t);
  }
  return out;
}
} // namespace

TEST(Lexer, IntegerForms) {
  auto t = lexAll("123 0x1F 017 0b101 42U 0");
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].intValue, 123u);
  EXPECT_EQ(t[1].intValue, 0x1Fu);
  EXPECT_EQ(t[2].intValue, 017u);
  EXPECT_EQ(t[3].intValue, 5u);
  EXPECT_EQ(t[4].intValue, 42u);
  EXPECT_TRUE(t[4].unsignedSuffix);
  EXPECT_EQ(t[5].intValue, 0u);
  for (auto &x : t) EXPECT_EQ(x.kind, Tok::Int);
}

TEST(Lexer, IntegerOverflowIsFlagged) {
  auto t = lexAll("99999999999999999999999 18446744073709551615");
  EXPECT_TRUE(t[0].overflow);
  EXPECT_FALSE(t[1].overflow);
  EXPECT_EQ(t[1].intValue, UINT64_MAX);
}

TEST(Lexer, FloatBitPatternsAreExact) {
  auto t = lexAll("0f3F800000 0d3FF0000000000000 0F7FC00000");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].kind, Tok::FloatHex);
  EXPECT_TRUE(t[0].isSingle);
  EXPECT_EQ(t[0].floatBits, 0x3F800000u);
  EXPECT_FALSE(t[1].isSingle);
  EXPECT_EQ(t[1].floatBits, 0x3FF0000000000000ull);
  EXPECT_EQ(t[2].floatBits, 0x7FC00000u);
}

TEST(Lexer, DecimalFloats) {
  auto t = lexAll("1.5 .25 2e3 1.0e-2");
  ASSERT_EQ(t.size(), 4u);
  double expect[] = {1.5, 0.25, 2000.0, 0.01};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(t[i].kind, Tok::Float);
    double d;
    std::memcpy(&d, &t[i].floatBits, 8);
    EXPECT_DOUBLE_EQ(d, expect[i]);
  }
}

// ptxas's scanner takes the longest valid prefix: "0x" is 0 then x, "09" is 0 then 9.
TEST(Lexer, MalformedNumbersSplitLikePtxas) {
  auto a = lexAll("0x");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].text, "0");
  EXPECT_EQ(a[1].text, "x");
  auto b = lexAll("09");
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].text, "0");
  EXPECT_EQ(b[1].text, "9");
  auto c = lexAll("0f3F80");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1].text, "f3F80");
}

TEST(Lexer, DirectivesAndModifiers) {
  auto t = lexAll("ld.global.v4.f32 .shared::cluster .mbarrier::complete_tx::bytes .1d .32x32b .m16n8k16");
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t[0].kind, Tok::Ident);
  EXPECT_EQ(t[0].text, "ld");
  EXPECT_EQ(t[1].text, ".global");
  EXPECT_EQ(t[4].text, ".shared::cluster");
  EXPECT_EQ(t[5].text, ".mbarrier::complete_tx::bytes");
  EXPECT_EQ(t[6].text, ".1d");
  EXPECT_EQ(t[7].text, ".32x32b");
  EXPECT_EQ(t[8].text, ".m16n8k16");
  for (size_t i = 1; i < t.size(); ++i) EXPECT_EQ(t[i].kind, Tok::DotIdent);
  // The hash of a directive covers its spelling without the dot.
  EXPECT_EQ(t[4].hash, identHash("shared::cluster"));
  EXPECT_EQ(t[0].hash, identHash("ld"));
}

TEST(Lexer, IdentifiersAndPunctuation) {
  auto t = lexAll("%r12 $L__BB0_1: __cudart_x _ @!%p1 {%r1, %r2} [%rd1+-4] p|q << >= &&");
  std::vector<Tok> kinds;
  for (auto &x : t) kinds.push_back(x.kind);
  std::vector<Tok> want = {Tok::Ident, Tok::Ident, Tok::Colon, Tok::Ident, Tok::Ident, Tok::At, Tok::Bang,
                           Tok::Ident, Tok::LBrace, Tok::Ident, Tok::Comma, Tok::Ident, Tok::RBrace,
                           Tok::LBracket, Tok::Ident, Tok::Plus, Tok::Minus, Tok::Int, Tok::RBracket,
                           Tok::Ident, Tok::Pipe, Tok::Ident, Tok::Shl, Tok::GreaterEq, Tok::AndAnd};
  EXPECT_EQ(kinds, want);
}

TEST(Lexer, CommentsAndLines) {
  Lexer lx("a // comment\n/* multi\nline */ b\n\n  c");
  Token a = lx.next(), b = lx.next(), c = lx.next();
  EXPECT_EQ(a.line, 1u);
  EXPECT_EQ(b.line, 3u);
  EXPECT_TRUE(b.spaceBefore);
  EXPECT_EQ(c.line, 5u);
  EXPECT_EQ(c.col, 3u);
  EXPECT_EQ(lx.next().kind, Tok::Eof);
  EXPECT_FALSE(lx.unterminatedComment());
}

TEST(Lexer, UnterminatedCommentIsReported) {
  Lexer lx("a\n/* never closed\nb");
  lx.next();
  EXPECT_EQ(lx.next().kind, Tok::Eof);
  EXPECT_TRUE(lx.unterminatedComment());
  EXPECT_EQ(lx.unterminatedCommentLine(), 2u);
}

TEST(Lexer, DwarfLinesAreKeptWhole) {
  auto t = lexAll("@@DWARF .byte 0x1, 0x2\nx");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].kind, Tok::DwarfLine);
  EXPECT_EQ(t[0].text, " .byte 0x1, 0x2");
}

TEST(Lexer, InvalidCharacterIsAnErrorToken) {
  auto t = lexAll("# \"unterminated");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].kind, Tok::Error);
  EXPECT_EQ(t[1].kind, Tok::Error);
}
