// The PTX lexer. Character classes come from a 256-entry table; numbers are converted while
// scanning so that the parser never re-reads token text.
#include "optxas/ptx/Lexer.h"

#include <array>
#include <charconv>

#include "optxas/ptx/Arena.h"
#include <cstring>

namespace optxas::ptx {
namespace {

enum : uint8_t { kAlpha = 1, kDigit = 2, kIdentRest = 4, kHex = 8, kSpace = 16, kIdentStart = 32 };

constexpr auto kClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] |= kAlpha | kIdentRest | kIdentStart;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] |= kAlpha | kIdentRest | kIdentStart;
  for (int c = '0'; c <= '9'; ++c) t[c] |= kDigit | kIdentRest | kHex;
  for (int c = 'a'; c <= 'f'; ++c) t[c] |= kHex;
  for (int c = 'A'; c <= 'F'; ++c) t[c] |= kHex;
  t['_'] |= kIdentRest | kIdentStart;
  t['$'] |= kIdentRest | kIdentStart;
  t['%'] |= kIdentStart;
  t[' '] |= kSpace; t['\t'] |= kSpace; t['\r'] |= kSpace; t['\n'] |= kSpace;
  t['\v'] |= kSpace; t['\f'] |= kSpace;
  return t;
}();

inline bool is(char c, uint8_t cls) { return kClass[static_cast<unsigned char>(c)] & cls; }
inline int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

} // namespace

std::string_view tokName(Tok t) {
  switch (t) {
  case Tok::Eof: return "end of file";
  case Tok::Ident: return "identifier";
  case Tok::DotIdent: return "directive";
  case Tok::Int: return "integer";
  case Tok::Float: case Tok::FloatHex: return "float";
  case Tok::String: return "string";
  case Tok::Comma: return ",";
  case Tok::Semi: return ";";
  case Tok::Colon: return ":";
  case Tok::LBrace: return "{";
  case Tok::RBrace: return "}";
  case Tok::LParen: return "(";
  case Tok::RParen: return ")";
  case Tok::LBracket: return "[";
  case Tok::RBracket: return "]";
  case Tok::LAngle: return "<";
  case Tok::RAngle: return ">";
  case Tok::Plus: return "+";
  case Tok::Minus: return "-";
  case Tok::Star: return "*";
  case Tok::Slash: return "/";
  case Tok::Percent: return "%";
  case Tok::Amp: return "&";
  case Tok::Pipe: return "|";
  case Tok::Caret: return "^";
  case Tok::Tilde: return "~";
  case Tok::Bang: return "!";
  case Tok::Question: return "?";
  case Tok::Equal: return "=";
  case Tok::At: return "@";
  case Tok::Shl: return "<<";
  case Tok::Shr: return ">>";
  case Tok::EqEq: return "==";
  case Tok::NotEq: return "!=";
  case Tok::LessEq: return "<=";
  case Tok::GreaterEq: return ">=";
  case Tok::AndAnd: return "&&";
  case Tok::OrOr: return "||";
  case Tok::DwarfLine: return "@@DWARF";
  case Tok::Error: return "invalid token";
  }
  return "?";
}

// Skips whitespace and comments; returns true if anything was skipped.
bool Lexer::skipSpace() {
  const char *start = p_;
  for (;;) {
    while (p_ < end_ && is(*p_, kSpace)) {
      if (*p_ == '\n') { ++line_; lineStart_ = p_ + 1; }
      ++p_;
    }
    if (p_ + 1 < end_ && p_[0] == '/' && p_[1] == '/') {
      const void *nl = std::memchr(p_, '\n', end_ - p_);
      p_ = nl ? static_cast<const char *>(nl) : end_;
      continue;
    }
    if (p_ + 1 < end_ && p_[0] == '/' && p_[1] == '*') {
      uint32_t startLine = line_;
      p_ += 2;
      for (;;) {
        if (p_ + 1 >= end_) {
          p_ = end_;
          unterminatedComment_ = true;
          commentLine_ = startLine;
          break;
        }
        if (p_[0] == '*' && p_[1] == '/') { p_ += 2; break; }
        if (*p_ == '\n') { ++line_; lineStart_ = p_ + 1; }
        ++p_;
      }
      continue;
    }
    break;
  }
  return p_ != start;
}

Token Lexer::next() {
  if (!lineStartInit_) { lineStart_ = src_.data(); lineStartInit_ = true; }
  Token t;
  t.spaceBefore = skipSpace();
  t.line = line_;
  t.col = static_cast<uint32_t>(p_ - lineStart_) + 1;
  if (p_ >= end_) { t.kind = Tok::Eof; return t; }
  const char *s = p_;
  char c = *p_;

  auto finish = [&](Tok k) { t.kind = k; t.text = std::string_view(s, p_ - s); return t; };

  if (is(c, kIdentStart)) {
    uint32_t h = hashStep(kHashSeed, static_cast<unsigned char>(c));
    ++p_;
    while (p_ < end_ && is(*p_, kIdentRest)) h = hashStep(h, static_cast<unsigned char>(*p_++));
    t.hash = h;
    if (p_ - s == 1 && c == '%') return finish(Tok::Error);
    return finish(Tok::Ident);
  }
  if (is(c, kDigit)) return lexNumber(t);
  switch (c) {
  case '.': {
    ++p_;
    if (p_ < end_ && is(*p_, kDigit)) {
      // ".5" is a float; ".1d", ".32x32b" are modifiers (digits followed by a letter that
      // does not start an exponent).
      const char *q = p_;
      while (q < end_ && is(*q, kDigit)) ++q;
      bool exponent = q < end_ && (*q == 'e' || *q == 'E') && q + 1 < end_ &&
                      (is(q[1], kDigit) || ((q[1] == '+' || q[1] == '-') && q + 2 < end_ && is(q[2], kDigit)));
      if (q < end_ && is(*q, kIdentRest) && !exponent) {
        uint32_t h = kHashSeed;
        while (p_ < end_ && is(*p_, kIdentRest)) h = hashStep(h, static_cast<unsigned char>(*p_++));
        t.hash = h;
        return finish(Tok::DotIdent);
      }
      p_ = s;
      return lexNumber(t);
    }
    if (p_ < end_ && is(*p_, kIdentStart) && *p_ != '%') {
      uint32_t h = kHashSeed;
      while (p_ < end_ && is(*p_, kIdentRest)) h = hashStep(h, static_cast<unsigned char>(*p_++));
      // Sub-qualifiers: .shared::cluster, .mbarrier::complete_tx::bytes
      while (p_ + 2 < end_ && p_[0] == ':' && p_[1] == ':' && is(p_[2], kIdentRest)) {
        h = hashStep(hashStep(h, ':'), ':');
        p_ += 2;
        while (p_ < end_ && is(*p_, kIdentRest)) h = hashStep(h, static_cast<unsigned char>(*p_++));
      }
      t.hash = h;
      return finish(Tok::DotIdent);
    }
    return finish(Tok::Error);
  }
  case '"': {
    ++p_;
    while (p_ < end_ && *p_ != '"' && *p_ != '\n') {
      if (*p_ == '\\' && p_ + 1 < end_ && p_[1] != '\n') ++p_;
      ++p_;
    }
    if (p_ >= end_ || *p_ != '"') return finish(Tok::Error);
    ++p_;
    return finish(Tok::String);
  }
  case '@':
    if (end_ - p_ >= 7 && std::memcmp(p_, "@@DWARF", 7) == 0) {
      p_ += 7;
      const char *b = p_;
      while (p_ < end_ && *p_ != '\n') ++p_;
      t.kind = Tok::DwarfLine;
      t.text = std::string_view(b, p_ - b);
      return t;
    }
    ++p_;
    return finish(Tok::At);
  case ',': ++p_; return finish(Tok::Comma);
  case ';': ++p_; return finish(Tok::Semi);
  case ':': ++p_; return finish(Tok::Colon);
  case '{': ++p_; return finish(Tok::LBrace);
  case '}': ++p_; return finish(Tok::RBrace);
  case '(': ++p_; return finish(Tok::LParen);
  case ')': ++p_; return finish(Tok::RParen);
  case '[': ++p_; return finish(Tok::LBracket);
  case ']': ++p_; return finish(Tok::RBracket);
  case '+': ++p_; return finish(Tok::Plus);
  case '-': ++p_; return finish(Tok::Minus);
  case '*': ++p_; return finish(Tok::Star);
  case '/': ++p_; return finish(Tok::Slash);
  case '^': ++p_; return finish(Tok::Caret);
  case '~': ++p_; return finish(Tok::Tilde);
  case '?': ++p_; return finish(Tok::Question);
  case '<':
    ++p_;
    if (p_ < end_ && *p_ == '<') { ++p_; return finish(Tok::Shl); }
    if (p_ < end_ && *p_ == '=') { ++p_; return finish(Tok::LessEq); }
    return finish(Tok::LAngle);
  case '>':
    ++p_;
    if (p_ < end_ && *p_ == '>') { ++p_; return finish(Tok::Shr); }
    if (p_ < end_ && *p_ == '=') { ++p_; return finish(Tok::GreaterEq); }
    return finish(Tok::RAngle);
  case '=':
    ++p_;
    if (p_ < end_ && *p_ == '=') { ++p_; return finish(Tok::EqEq); }
    return finish(Tok::Equal);
  case '!':
    ++p_;
    if (p_ < end_ && *p_ == '=') { ++p_; return finish(Tok::NotEq); }
    return finish(Tok::Bang);
  case '&':
    ++p_;
    if (p_ < end_ && *p_ == '&') { ++p_; return finish(Tok::AndAnd); }
    return finish(Tok::Amp);
  case '|':
    ++p_;
    if (p_ < end_ && *p_ == '|') { ++p_; return finish(Tok::OrOr); }
    return finish(Tok::Pipe);
  default:
    ++p_;
    // Swallow the rest of a UTF-8 sequence so that the error shows the whole character.
    while (p_ < end_ && (static_cast<unsigned char>(*p_) & 0xC0) == 0x80) ++p_;
    return finish(Tok::Error);
  }
}

// Numbers are matched like a longest-match scanner (as ptxas's): a malformed literal ends where
// the valid part ends, and the rest becomes the next token ("0x" is 0 then x; "09" is 0 then 9).
Token Lexer::lexNumber(Token t) {
  const char *s = p_;
  auto finish = [&](Tok k) { t.kind = k; t.text = std::string_view(s, p_ - s); return t; };
  auto finishInt = [&](uint64_t v, bool overflow) {
    if (p_ < end_ && (*p_ == 'U' || *p_ == 'u')) { ++p_; t.unsignedSuffix = true; }
    t.intValue = v;
    t.overflow = overflow;
    return finish(Tok::Int);
  };
  // Hex float bit patterns: 0f + exactly 8 hex digits, 0d + exactly 16.
  if (p_ + 1 < end_ && p_[0] == '0' && (p_[1] == 'f' || p_[1] == 'F' || p_[1] == 'd' || p_[1] == 'D')) {
    bool single = p_[1] == 'f' || p_[1] == 'F';
    int want = single ? 8 : 16;
    const char *q = p_ + 2;
    uint64_t v = 0;
    int n = 0;
    while (q < end_ && n < want && is(*q, kHex)) { v = (v << 4) | static_cast<uint64_t>(hexValue(*q)); ++q; ++n; }
    if (n == want) {
      p_ = q;
      t.isSingle = single;
      t.floatBits = v;
      return finish(Tok::FloatHex);
    }
    ++p_;  // just "0"
    return finishInt(0, false);
  }
  if (p_ + 1 < end_ && p_[0] == '0' && (p_[1] == 'x' || p_[1] == 'X' || p_[1] == 'b' || p_[1] == 'B')) {
    bool hex = p_[1] == 'x' || p_[1] == 'X';
    const char *digits = p_ + 2, *q = digits;
    uint64_t v = 0;
    bool overflow = false;
    while (q < end_ && (hex ? is(*q, kHex) : (*q == '0' || *q == '1'))) {
      unsigned shift = hex ? 4 : 1;
      if (v >> (64 - shift)) overflow = true;
      v = (v << shift) | static_cast<uint64_t>(hexValue(*q));
      ++q;
    }
    if (q == digits) {  // "0x" without digits: the literal is just "0"
      ++p_;
      return finishInt(0, false);
    }
    p_ = q;
    return finishInt(v, overflow);
  }
  // Decimal or octal integer, or decimal float.
  const char *q = p_;
  while (q < end_ && is(*q, kDigit)) ++q;
  bool isFloat = false;
  const char *e = q;
  if (e < end_ && *e == '.') {
    isFloat = true;
    ++e;
    while (e < end_ && is(*e, kDigit)) ++e;
  }
  if (e < end_ && (*e == 'e' || *e == 'E')) {
    const char *x = e + 1;
    if (x < end_ && (*x == '+' || *x == '-')) ++x;
    if (x < end_ && is(*x, kDigit)) {
      isFloat = true;
      while (x < end_ && is(*x, kDigit)) ++x;
      e = x;
    }
  }
  if (isFloat) {
    p_ = e;
    double d = 0;
    auto r = std::from_chars(s, p_, d);
    if (r.ec == std::errc::result_out_of_range) {
      // Overflow to infinity like strtod; underflow to zero.
      bool big = false;
      for (const char *k = s; k < p_; ++k)
        if (*k == 'e' || *k == 'E') big = k[1] != '-';
      d = big ? __builtin_inf() : 0.0;
    }
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    t.floatBits = bits;
    return finish(Tok::Float);
  }
  uint64_t v = 0;
  bool overflow = false;
  if (*s == '0') {  // octal: 0[0-7]*
    const char *k = s + 1;
    while (k < q && *k <= '7') {
      if (v >> 61) overflow = true;
      v = (v << 3) | static_cast<uint64_t>(*k - '0');
      ++k;
    }
    p_ = k;
    return finishInt(v, overflow);
  }
  for (const char *k = s; k < q; ++k) {
    uint64_t dgt = static_cast<uint64_t>(*k - '0');
    if (v > (UINT64_MAX - dgt) / 10) overflow = true;
    v = v * 10 + dgt;
  }
  p_ = q;
  return finishInt(v, overflow);
}

} // namespace optxas::ptx
