// The PTX lexer: turns a source buffer into tokens on demand. Hand-written for speed (the
// front end targets >100 MB/s): no allocation per token; token text is a view into the buffer.
#pragma once

#include <cstdint>
#include <string_view>

namespace optxas::ptx {

enum class Tok : uint8_t {
  Eof,
  Ident,      // foo, %r1, $L__BB0_1, __cudart_x, _ (also opcode words)
  DotIdent,   // .reg, .global, .u32, .shared::cluster, .m16n8k16, .1d (text includes the dot)
  Int,        // 123, 0x1F, 017, 0b101, with optional U suffix (value in Token::intValue)
  Float,      // 1.5, 1e10, .5 (decimal; value in Token::floatBits as f64 bits)
  FloatHex,   // 0f3F800000 (f32 bits) or 0d3FF0000000000000 (f64 bits)
  String,     // "..." (text includes the quotes)
  // punctuation
  Comma, Semi, Colon, LBrace, RBrace, LParen, RParen, LBracket, RBracket, LAngle, RAngle,
  Plus, Minus, Star, Slash, Percent, Amp, Pipe, Caret, Tilde, Bang, Question, Equal, At,
  Shl, Shr, EqEq, NotEq, LessEq, GreaterEq, AndAnd, OrOr,
  DwarfLine,  // an entire @@DWARF line (text is the rest of the line)
  Error,      // an invalid character or malformed literal (text is the offending text)
};

struct Token {
  Tok kind = Tok::Eof;
  bool spaceBefore = false;   // whitespace or a comment separated it from the previous token
  bool isSingle = false;      // FloatHex: 0f form
  bool overflow = false;      // Int: value did not fit in 64 bits
  bool unsignedSuffix = false;// Int: 'U' suffix
  uint32_t line = 0, col = 0;
  std::string_view text;
  uint64_t intValue = 0;      // Int
  uint64_t floatBits = 0;     // Float / FloatHex
  uint32_t hash = 0;          // Ident: identHash(text); DotIdent: identHash(text without the dot)
};

class Lexer {
public:
  explicit Lexer(std::string_view src) : src_(src), p_(src.data()), end_(src.data() + src.size()) {}
  Token next();
  uint32_t line() const { return line_; }
  // True when the lexer met an unterminated block comment (reported at end of file).
  bool unterminatedComment() const { return unterminatedComment_; }
  uint32_t unterminatedCommentLine() const { return commentLine_; }

private:
  bool skipSpace();
  Token lexNumber(Token t);
  std::string_view src_;
  const char *p_, *end_;
  const char *lineStart_ = nullptr;
  uint32_t line_ = 1;
  bool unterminatedComment_ = false;
  uint32_t commentLine_ = 0;
  bool lineStartInit_ = false;
};

std::string_view tokName(Tok t);

} // namespace optxas::ptx
