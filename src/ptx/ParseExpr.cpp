// PTX parser, constant expressions (C operators over 64-bit integers and doubles) and
// variable initializers.
#include "ParserImpl.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace optxas::ptx {

double ConstValue::asDouble() const {
  if (!isFloat) return isUnsigned ? static_cast<double>(bits) : static_cast<double>(static_cast<int64_t>(bits));
  if (isSingle) {
    float f;
    uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

int64_t ConstValue::asInt() const {
  if (!isFloat) return static_cast<int64_t>(bits);
  double d = asDouble();
  if (!(d >= -9.2e18 && d <= 9.2e18)) return 0;
  return static_cast<int64_t>(d);
}

static ConstValue makeInt(uint64_t v, bool isUnsigned = false) {
  ConstValue c;
  c.bits = v;
  c.isUnsigned = isUnsigned;
  return c;
}

static ConstValue makeDouble(double d) {
  ConstValue c;
  c.isFloat = true;
  std::memcpy(&c.bits, &d, 8);
  return c;
}

ConstValue Parser::parseConstExpr() { return parseTernary(); }

ConstValue Parser::parseTernary() {
  ConstValue c = parseBinary(0);
  if (!at(Tok::Question)) return c;
  advance();
  ConstValue a = parseTernary();
  expect(Tok::Colon);
  ConstValue b = parseTernary();
  bool cond = c.isFloat ? c.asDouble() != 0 : c.bits != 0;
  return cond ? a : b;
}

static int precedence(Tok t) {
  switch (t) {
  case Tok::OrOr: return 1;
  case Tok::AndAnd: return 2;
  case Tok::Pipe: return 3;
  case Tok::Caret: return 4;
  case Tok::Amp: return 5;
  case Tok::EqEq: case Tok::NotEq: return 6;
  case Tok::LAngle: case Tok::RAngle: case Tok::LessEq: case Tok::GreaterEq: return 7;
  case Tok::Shl: case Tok::Shr: return 8;
  case Tok::Plus: case Tok::Minus: return 9;
  case Tok::Star: case Tok::Slash: case Tok::Percent: return 10;
  default: return -1;
  }
}

ConstValue Parser::parseBinary(int minPrec) {
  ConstValue lhs = parseUnary();
  for (;;) {
    Tok op = tok_.kind;
    int prec = precedence(op);
    if (prec < 0 || prec <= minPrec - 1 || prec < minPrec) return lhs;
    SourceLoc opLoc = loc();
    advance();
    ConstValue rhs = parseBinary(prec + 1);
    bool fl = lhs.isFloat || rhs.isFloat;
    bool uns = lhs.isUnsigned || rhs.isUnsigned;
    if (fl) {
      double a = lhs.asDouble(), b = rhs.asDouble();
      switch (op) {
      case Tok::Plus: lhs = makeDouble(a + b); break;
      case Tok::Minus: lhs = makeDouble(a - b); break;
      case Tok::Star: lhs = makeDouble(a * b); break;
      case Tok::Slash: lhs = makeDouble(a / b); break;
      case Tok::LAngle: lhs = makeInt(a < b); break;
      case Tok::RAngle: lhs = makeInt(a > b); break;
      case Tok::LessEq: lhs = makeInt(a <= b); break;
      case Tok::GreaterEq: lhs = makeInt(a >= b); break;
      case Tok::EqEq: lhs = makeInt(a == b); break;
      case Tok::NotEq: lhs = makeInt(a != b); break;
      case Tok::AndAnd: lhs = makeInt(a != 0 && b != 0); break;
      case Tok::OrOr: lhs = makeInt(a != 0 || b != 0); break;
      default: fatal(opLoc, "Parsing error near '" + std::string(tokName(op)) + "': syntax error");
      }
      continue;
    }
    uint64_t a = lhs.bits, b = rhs.bits;
    int64_t sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
    uint64_t r = 0;
    switch (op) {
    case Tok::Plus: r = a + b; break;
    case Tok::Minus: r = a - b; break;
    case Tok::Star: r = a * b; break;
    case Tok::Slash:
    case Tok::Percent:
      if (b == 0) {
        error(opLoc, "Division by zero");
        r = 0;
      } else if (uns) {
        r = op == Tok::Slash ? a / b : a % b;
      } else if (sa == INT64_MIN && sb == -1) {
        r = op == Tok::Slash ? a : 0;
      } else {
        r = static_cast<uint64_t>(op == Tok::Slash ? sa / sb : sa % sb);
      }
      break;
    case Tok::Shl: r = b >= 64 ? 0 : a << b; break;
    case Tok::Shr:
      if (uns) r = b >= 64 ? 0 : a >> b;
      else r = static_cast<uint64_t>(b >= 64 ? (sa < 0 ? -1 : 0) : sa >> b);
      break;
    case Tok::Amp: r = a & b; break;
    case Tok::Pipe: r = a | b; break;
    case Tok::Caret: r = a ^ b; break;
    case Tok::LAngle: r = uns ? a < b : sa < sb; break;
    case Tok::RAngle: r = uns ? a > b : sa > sb; break;
    case Tok::LessEq: r = uns ? a <= b : sa <= sb; break;
    case Tok::GreaterEq: r = uns ? a >= b : sa >= sb; break;
    case Tok::EqEq: r = a == b; break;
    case Tok::NotEq: r = a != b; break;
    case Tok::AndAnd: r = a && b; break;
    case Tok::OrOr: r = a || b; break;
    default: break;
    }
    bool isCompare = op == Tok::LAngle || op == Tok::RAngle || op == Tok::LessEq ||
                     op == Tok::GreaterEq || op == Tok::EqEq || op == Tok::NotEq ||
                     op == Tok::AndAnd || op == Tok::OrOr;
    lhs = makeInt(r, uns && !isCompare);
  }
}

ConstValue Parser::parseUnary() {
  // Unary operators cost two parser-stack entries in ptxas, parentheses one (see NestGuard).
  NestGuard guard(*this, tok_.kind == Tok::LParen ? 1 : 2);
  switch (tok_.kind) {
  case Tok::Minus: {
    advance();
    ConstValue v = parseUnary();
    if (v.isFloat) {
      if (v.isSingle) v.bits ^= 0x80000000u;
      else v.bits ^= 0x8000000000000000ull;
      return v;
    }
    v.bits = 0 - v.bits;
    return v;
  }
  case Tok::Plus:
    advance();
    return parseUnary();
  case Tok::Tilde: {
    advance();
    ConstValue v = parseUnary();
    if (v.isFloat) syntaxError();
    v.bits = ~v.bits;
    return v;
  }
  case Tok::Bang: {
    advance();
    ConstValue v = parseUnary();
    return makeInt(v.isFloat ? v.asDouble() == 0 : v.bits == 0);
  }
  default:
    return parsePrimary();
  }
}

ConstValue Parser::parsePrimary() {
  switch (tok_.kind) {
  case Tok::Int: {
    if (tok_.overflow) error(loc(), "Constant overflow");
    ConstValue v = makeInt(tok_.intValue, tok_.unsignedSuffix);
    advance();
    return v;
  }
  case Tok::Float: {
    ConstValue v;
    v.isFloat = true;
    v.bits = tok_.floatBits;
    advance();
    return v;
  }
  case Tok::FloatHex: {
    ConstValue v;
    v.isFloat = true;
    v.isSingle = tok_.isSingle;
    v.bits = tok_.floatBits;
    advance();
    return v;
  }
  case Tok::LParen: {
    advance();
    ConstValue v = parseConstExpr();
    expect(Tok::RParen);
    return v;
  }
  default:
    syntaxError();
  }
}

// ------------------------------------------------------------------------------------------
// Initializers
// ------------------------------------------------------------------------------------------

// One scalar element or a nested aggregate.
Initializer Parser::parseInitElem(const Variable &v, int depth) {
  NestGuard guard(*this, 6);
  Initializer in;
  in.loc = loc();
  if (at(Tok::LBrace)) {
    advance();
    std::vector<Initializer> elems;
    if (!at(Tok::RBrace)) {
      for (;;) {
        elems.push_back(parseInitElem(v, depth + 1));
        if (!accept(Tok::Comma)) break;
      }
    }
    expect(Tok::RBrace);
    in.kind = InitKind::Aggregate;
    in.elems = m_->arena.copy(elems);
    return in;
  }
  auto symbolRef = [&](Initializer &out) {
    out.symName = intern(tok_.text);
    SourceLoc symLoc = loc();
    Decl *d = lookup(out.symName);
    if (!d || (d->kind != DeclKind::Variable && d->kind != DeclKind::Function))
      fatal(symLoc, fmt::format("Invalid initial value symbol '{}'", tok_.text));
    out.sym = d;
    advance();
    if (at(Tok::Plus) || at(Tok::Minus)) {
      bool neg = at(Tok::Minus);
      advance();
      ConstValue off = parseUnary();
      if (off.isFloat) syntaxError();
      out.offset = neg ? -off.asInt() : off.asInt();
    }
  };
  if (at(Tok::Ident) && tok_.text == "generic" && peek().kind == Tok::LParen) {
    advance();
    advance();
    if (!at(Tok::Ident)) syntaxError();
    in.kind = InitKind::Generic;
    symbolRef(in);
    expect(Tok::RParen);
    if (at(Tok::Plus) || at(Tok::Minus)) {
      bool neg = at(Tok::Minus);
      advance();
      ConstValue off = parseUnary();
      in.offset += neg ? -off.asInt() : off.asInt();
    }
    return in;
  }
  if (at(Tok::Ident)) {
    in.kind = InitKind::Address;
    symbolRef(in);
    return in;
  }
  // 0xFF00(sym) / 0xFF(generic(sym)+4): a byte mask over an address.
  if (at(Tok::Int) && peek().kind == Tok::LParen) {
    in.kind = InitKind::Mask;
    in.mask = tok_.intValue;
    advance();
    advance();
    if (at(Tok::Ident) && tok_.text == "generic" && peek().kind == Tok::LParen) {
      advance();
      advance();
      if (!at(Tok::Ident)) syntaxError();
      in.genericInner = true;
      symbolRef(in);
      expect(Tok::RParen);
    } else {
      if (!at(Tok::Ident)) syntaxError();
      symbolRef(in);
    }
    if (at(Tok::Plus) || at(Tok::Minus)) {
      bool neg = at(Tok::Minus);
      advance();
      ConstValue off = parseUnary();
      in.offset += neg ? -off.asInt() : off.asInt();
    }
    expect(Tok::RParen);
    return in;
  }
  ConstValue c = parseConstExpr();
  if (c.isFloat) {
    in.kind = InitKind::Float;
    in.isSingle = c.isSingle;
    in.bits = c.bits;
  } else {
    in.kind = InitKind::Int;
    in.bits = c.bits;
  }
  return in;
}

// `= value` / `= {...}`; also sampler/texture initializers `{ filter_mode = nearest, ... }`.
const Initializer *Parser::parseInitializer(const Variable &v) {
  SourceLoc at = loc();
  if ((v.type == Type::SamplerRef || v.type == Type::TexRef || v.type == Type::SurfRef) &&
      this->at(Tok::LBrace)) {
    advance();
    // A sampler's fields packed as the driver's sampler-init word (ptxas's EIATTR_SAMPLER_INIT):
    // addr_mode_0..2 in bytes 0..2 (wrap 0, mirror 1, clamp_ogl 2, clamp_to_edge 3,
    // clamp_to_border 4), filter_mode in byte 3 (nearest 0, linear 1), 0xff when not given.
    // `mask` is set when a field is not one of these (the back end reports it as unsupported).
    uint64_t word = 0xffffffffu, other = 0;
    while (!this->at(Tok::RBrace)) {
      if (!this->at(Tok::Ident)) syntaxError();
      std::string_view key = tok_.text;
      advance();
      expect(Tok::Equal);
      std::string_view val = tok_.text;
      if (this->at(Tok::Ident) || this->at(Tok::Int)) advance();
      else syntaxError();
      static constexpr std::string_view kModes[] = {"wrap", "mirror", "clamp_ogl", "clamp_to_edge", "clamp_to_border"};
      int byte = key == "addr_mode_0" ? 0 : key == "addr_mode_1" ? 1 : key == "addr_mode_2" ? 2 : key == "filter_mode" ? 3 : -1;
      int code = -1;
      if (byte == 3) code = val == "nearest" ? 0 : val == "linear" ? 1 : -1;
      else if (byte >= 0)
        for (int i = 0; i < 5; ++i)
          if (val == kModes[i]) code = i;
      if (code < 0) other = 1;
      else word = (word & ~(uint64_t{0xff} << (8 * byte))) | (uint64_t(code) << (8 * byte));
      if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RBrace);
    auto *in = m_->arena.make<Initializer>();
    in->kind = InitKind::Aggregate;
    in->loc = at;
    if (v.type == Type::SamplerRef) {
      in->kind = InitKind::Int;
      in->bits = word;
      in->mask = other;
    }
    return in;
  }
  auto *in = m_->arena.make<Initializer>(parseInitElem(v, 0));
  return in;
}

} // namespace optxas::ptx
