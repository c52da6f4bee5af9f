// nvdisasm-syntax text -> Inst, driven by the same form table as the printer: each form of the
// mnemonic is tried in turn, matching its modifier spellings against the suffix and its operand
// elems against the comma-separated operands (hidden operand groups may be omitted).
#include "sass/FormTable.h"
#include "sass/TextFormat.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace optxas::sass {

using namespace tbl;

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Splits at commas outside brackets.
std::vector<std::string_view> splitOperands(std::string_view s) {
  std::vector<std::string_view> out;
  s = trim(s);
  if (s.empty())
    return out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '[')
      ++depth;
    else if (s[i] == ']')
      --depth;
    else if (s[i] == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(s.substr(start)));
  return out;
}

std::optional<int64_t> parseInt(std::string_view s) {
  s = trim(s);
  bool neg = false;
  if (startsWith(s, "-")) {
    neg = true;
    s.remove_prefix(1);
  } else if (startsWith(s, "+")) {
    s.remove_prefix(1);
  }
  if (s.empty())
    return std::nullopt;
  int base = 10;
  if (startsWith(s, "0x") || startsWith(s, "0X")) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty())
    return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return std::nullopt;
    v = v * base + d;
  }
  return neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

// Register "R12"/"RZ" (prefix R), "UR3"/"URZ", "P2"/"PT", "UP1"/"UPT", "B3".
std::optional<uint8_t> parseRegName(std::string_view s, std::string_view prefix,
                                    std::string_view zero, uint8_t zeroVal, unsigned max) {
  if (s == zero)
    return zeroVal;
  if (!startsWith(s, prefix) || s.size() == prefix.size())
    return std::nullopt;
  s.remove_prefix(prefix.size());
  unsigned v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
    v = v * 10 + (c - '0');
    if (v > max)
      return std::nullopt;
  }
  return static_cast<uint8_t>(v);
}

std::optional<double> parseReal(std::string_view s, bool &quiet) {
  s = trim(s);
  quiet = true;
  bool neg = startsWith(s, "-");
  std::string_view body = (neg || startsWith(s, "+")) ? s.substr(1) : s;
  if (body == "INF")
    return neg ? -INFINITY : INFINITY;
  if (body == "QNAN" || body == "SNAN") {
    quiet = body == "QNAN";
    return neg ? -std::nan("") : std::nan("");
  }
  std::string tmp(s);
  char *end = nullptr;
  double d = std::strtod(tmp.c_str(), &end);
  if (end == tmp.c_str() || *end)
    return std::nullopt;
  return d;
}

std::optional<uint32_t> parseF32(std::string_view s) {
  bool quiet;
  auto d = parseReal(s, quiet);
  if (!d)
    return std::nullopt;
  if (std::isnan(*d))
    return (std::signbit(*d) ? 0x80000000u : 0u) | (quiet ? 0x7fc00000u : 0x7fa00000u);
  float f = static_cast<float>(*d);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

std::optional<uint64_t> parseF64(std::string_view s) {
  bool quiet;
  auto d = parseReal(s, quiet);
  if (!d)
    return std::nullopt;
  if (std::isnan(*d))
    return (std::signbit(*d) ? 0x8000000000000000ull : 0ull) |
           (quiet ? 0x7ff8000000000000ull : 0x7ff4000000000000ull);
  uint64_t b;
  std::memcpy(&b, &*d, 8);
  return b;
}

std::optional<uint16_t> parseF16(std::string_view s) {
  bool quiet;
  auto d = parseReal(s, quiet);
  if (!d)
    return std::nullopt;
  if (std::isnan(*d))
    return static_cast<uint16_t>((std::signbit(*d) ? 0x8000 : 0) | (quiet ? 0x7e00 : 0x7d00));
  // Exact conversion only: the printer shows every half exactly.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if (((h >> 10) & 0x1f) == 31 && (h & 0x3ff))
      continue;
    double v = fmt::halfToDouble(static_cast<uint16_t>(h));
    if (v == *d && std::signbit(v) == std::signbit(*d))
      return static_cast<uint16_t>(h);
  }
  return std::nullopt;
}

struct Decor {
  bool neg = false, inv = false, abs = false, reuse = false;
  std::string_view core, suffix;
};

// Splits "-|R3|.reuse.H1_H1" into decorations, core "R3" and suffix ".H1_H1".
std::optional<Decor> splitDecor(std::string_view s, bool coreMayHaveDots) {
  Decor d;
  if (startsWith(s, "-")) {
    d.neg = true;
    s.remove_prefix(1);
  }
  if (startsWith(s, "~")) {
    d.inv = true;
    s.remove_prefix(1);
  }
  std::string_view rest;
  if (startsWith(s, "|")) {
    size_t e = s.find('|', 1);
    if (e == std::string_view::npos)
      return std::nullopt;
    d.abs = true;
    d.core = s.substr(1, e - 1);
    rest = s.substr(e + 1);
  } else if (coreMayHaveDots) {
    size_t e = s.find(".reuse");
    d.core = s.substr(0, e);
    rest = e == std::string_view::npos ? std::string_view() : s.substr(e);
  } else {
    size_t e = s.find('.');
    d.core = s.substr(0, e);
    rest = e == std::string_view::npos ? std::string_view() : s.substr(e);
  }
  if (startsWith(rest, ".reuse")) {
    d.reuse = true;
    rest.remove_prefix(6);
  }
  d.suffix = rest;
  return d;
}

bool parseMem(std::string_view s, const Elem &e, Operand &o) {
  o = Operand();
  o.kind = OperandKind::Mem;
  if (startsWith(s, "desc[")) {
    size_t c = s.find(']');
    auto r = parseRegName(s.substr(5, c - 5), "UR", "URZ", URZ, 63);
    if (!r)
      return false;
    o.desc = *r;
    s.remove_prefix(c + 1);
  }
  if (!startsWith(s, "[") || s.back() != ']')
    return false;
  s = s.substr(1, s.size() - 2);
  bool haveBase = false;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t plus = s.find('+', pos);
    std::string_view part = s.substr(pos, plus == std::string_view::npos ? s.npos : plus - pos);
    pos = plus == std::string_view::npos ? s.size() + 1 : plus + 1;
    if (part.empty())
      return false;
    if (startsWith(part, "UR")) {
      auto r = parseRegName(part, "UR", "URZ", URZ, 63);
      if (!r)
        return false;
      o.ureg = *r;
    } else if (part[0] == 'R') {
      size_t dot = part.find('.');
      auto r = parseRegName(part.substr(0, dot), "R", "RZ", RZ, 254);
      if (!r)
        return false;
      o.base = *r;
      haveBase = true;
      std::string_view sfx = dot == std::string_view::npos ? "" : part.substr(dot);
      if (startsWith(sfx, ".64")) {
        o.base64 = true;
        sfx.remove_prefix(3);
      } else if (startsWith(sfx, ".U32")) {
        sfx.remove_prefix(4);
      }
      if (sfx == ".X4")
        o.scale = 4;
      else if (sfx == ".X8")
        o.scale = 8;
      else if (sfx == ".X16")
        o.scale = 16;
      else if (!sfx.empty())
        return false;
    } else {
      auto v = parseInt(part);
      if (!v)
        return false;
      o.imm = *v;
      if (e.mem.offset.valid() && e.mem.offset.width < 64) {
        // Absolute addresses print unsigned: fold back into the field's signed range.
        int64_t m = int64_t(1) << e.mem.offset.width;
        o.imm &= m - 1;
        if (e.mem.offsetSigned && o.imm >= m / 2)
          o.imm -= m;
      }
    }
  }
  if (!haveBase && e.mem.base.valid())
    o.base = RZ;
  // An unprinted descriptor (Ampere): the text cannot say which URn; URZ stands for it. A
  // 32-bit base or absolute address without "+URn" is the (equally unprinted) +URZ form.
  if (e.mem.hideDesc && o.desc == kNoReg &&
      o.ureg == kNoReg && o.base64)
    o.desc = URZ;
  if (e.mem.hideUrz && o.desc == kNoReg && o.ureg == kNoReg &&
      (e.mem.urUse == MemLayout::UrUse::DescIfBit || e.mem.urUse == MemLayout::UrUse::Add))
    o.ureg = URZ;
  if (e.mem.base64Bit < 0 && e.mem.base.valid()) {
    if (haveBase && o.base64 && !e.mem.base64Const)
      return false;   // "[Rn.64]" is another form's address
    o.base64 = e.mem.base64Const;
  }
  return true;
}

bool parseCBank(std::string_view s, const Elem &e, Operand &o) {
  o.kind = OperandKind::CBank;
  if (startsWith(s, "cx[")) {
    size_t c = s.find(']');
    auto r = parseRegName(s.substr(3, c - 3), "UR", "URZ", URZ, 63);
    if (!r)
      return false;
    o.reg = kNoReg;
    o.ureg = *r;
    s.remove_prefix(c + 1);
  } else if (startsWith(s, "c[")) {
    size_t c = s.find(']');
    auto b = parseInt(s.substr(2, c - 2));
    if (!b)
      return false;
    o.reg = static_cast<uint8_t>(*b);
    s.remove_prefix(c + 1);
  } else {
    return false;
  }
  if (startsWith(s, " "))
    s.remove_prefix(1);
  if (!startsWith(s, "[") || s.back() != ']')
    return false;
  s = s.substr(1, s.size() - 2);
  if (startsWith(s, "UR")) {
    size_t plus = s.find('+');
    auto r = parseRegName(s.substr(0, plus), "UR", "URZ", URZ, 62);
    if (!r)
      return false;
    o.ureg = *r;
    s = plus == std::string_view::npos ? std::string_view() : s.substr(plus + 1);
  } else if (!s.empty() && s[0] == 'R') {
    size_t plus = s.find('+');
    auto r = parseRegName(s.substr(0, plus), "R", "RZ", RZ, 254);
    if (!r)
      return false;
    o.base = *r;
    s = plus == std::string_view::npos ? std::string_view() : s.substr(plus + 1);
  }
  if (!s.empty()) {
    auto v = parseInt(s);
    if (!v)
      return false;
    o.imm = *v;
  }
  if (o.base == kNoBase && e.cb.index.valid())
    o.base = RZ; // (the printer omits an RZ index next to an offset)
  if (o.reg != kNoReg && o.ureg == kNoReg && e.cb.urIndex.valid())
    o.ureg = URZ;
  if (e.cb.zeroPrintsUrz && !e.cb.urIndex.valid() && o.ureg == URZ && o.imm == 0)
    o.ureg = kNoReg;   // c[bank][URZ]: offset 0
  return true;
}

// Parses one operand token (or two, for an f16x2 immediate) against an operand elem.
bool parseOperand(const std::vector<std::string_view> &toks, size_t &ti, const Elem &e,
                  const isa::Modifiers &mods, uint64_t pc, Target target, Operand &o) {
  if (ti >= toks.size())
    return false;
  std::string_view s = toks[ti++];
  o = Operand();
  auto applyDecor = [&](const Decor &d) -> bool {
    o.negate = d.neg;
    o.invert = d.inv;
    o.absolute = d.abs;
    o.reuse = d.reuse;
    if (d.suffix.empty())
      return true;
    for (const ModValue &v : e.selMap)
      if (v.text == d.suffix) {
        o.sel = static_cast<SubSel>(v.value);
        return true;
      }
    return false;
  };
  switch (e.type) {
  case OpdType::Gpr:
  case OpdType::UGpr: {
    if (!e.wrap.empty()) {   // gdesc[URn]
      std::string_view end = e.wrapEnd.empty() ? std::string_view("]") : e.wrapEnd;
      if (!startsWith(s, e.wrap) || s.size() <= e.wrap.size() + end.size() ||
          s.substr(s.size() - end.size()) != end)
        return false;
      s = s.substr(e.wrap.size(), s.size() - e.wrap.size() - end.size());
    }
    auto d = splitDecor(s, false);
    if (!d)
      return false;
    bool u = e.type == OpdType::UGpr;
    auto r = u ? parseRegName(d->core, "UR", "URZ", URZ, 62) : parseRegName(d->core, "R", "RZ", RZ, 254);
    if (!r)
      return false;
    o.kind = u ? OperandKind::UReg : OperandKind::Reg;
    o.reg = *r;
    o.width = elemWidth(e, mods);
    return applyDecor(*d);
  }
  case OpdType::Pred:
  case OpdType::UPred: {
    bool u = e.type == OpdType::UPred;
    if (startsWith(s, "!")) {
      o.negate = true;
      s.remove_prefix(1);
    }
    auto r = u ? parseRegName(s, "UP", "UPT", PT, 6) : parseRegName(s, "P", "PT", PT, 6);
    if (!r)
      return false;
    o.kind = u ? OperandKind::UPred : OperandKind::Pred;
    o.reg = *r;
    return true;
  }
  case OpdType::SReg: {
    uint8_t idx;
    o.kind = OperandKind::SReg;
    if (specialRegFromName(s, idx, target)) {
      o.reg = idx;
      return true;
    }
    auto r = parseRegName(s, "SR", "", 0xff, 255);
    if (!r)
      return false;
    o.reg = *r;
    return true;
  }
  case OpdType::BarReg: {
    auto r = parseRegName(s, "B", "", 0xff, 15);
    if (!r)
      return false;
    o.kind = OperandKind::BarReg;
    o.reg = *r;
    return true;
  }
  case OpdType::Imm: {
    o.kind = OperandKind::Imm;
    if (e.negBit >= 0 || e.absBit >= 0) {
      auto d = splitDecor(s, true);
      if (!d)
        return false;
      auto v = parseInt(d->core);
      if (!v || !applyDecor(*d))
        return false;
      o.imm = *v;
      return true;
    }
    auto v = parseInt(s);
    if (!v)
      return false;
    o.imm = *v;
    if (e.fmt == ImmFmt::IntSrc && o.imm < 0)
      o.imm &= 0xffffffffll; // (stored as the raw 32-bit field)
    return true;
  }
  case OpdType::FImm: {
    o.kind = OperandKind::FImm;
    if (e.fmt == ImmFmt::F16x2) {
      if (ti >= toks.size())
        return false;
      std::string_view s2 = toks[ti++];
      std::optional<uint16_t> hi, lo;
      if (mods.floatType == isa::FloatType::BF16x2) {
        auto h = parseF32(s), l = parseF32(s2);
        if (h && !(*h & 0xffff))
          hi = static_cast<uint16_t>(*h >> 16);
        if (l && !(*l & 0xffff))
          lo = static_cast<uint16_t>(*l >> 16);
      } else {
        hi = parseF16(s);
        lo = parseF16(s2);
      }
      if (!lo || !hi)
        return false;
      o.imm = static_cast<int64_t>(*lo | (uint32_t(*hi) << 16));
      return true;
    }
    if (e.fmt == ImmFmt::H1) {
      std::optional<uint16_t> h;
      if (mods.floatType == isa::FloatType::BF16 || mods.srcFloatType == isa::FloatType::BF16) {
        auto f = parseF32(s);
        if (f && !(*f & 0xffff))
          h = static_cast<uint16_t>(*f >> 16);
      } else {
        h = parseF16(s);
      }
      if (!h)
        return false;
      o.imm = *h;
      return true;
    }
    if (e.fmt == ImmFmt::F64Hi) {
      auto b = parseF64(s);
      if (!b || (*b & 0xffffffffull))
        return false;
      o.imm = static_cast<int64_t>(*b >> 32);
      return true;
    }
    if (e.fmt == ImmFmt::F32) {
      auto b = parseF32(s);
      if (!b)
        return false;
      o.imm = *b;
      return true;
    }
    auto v = parseInt(s);
    if (!v)
      return false;
    o.imm = *v;
    return true;
  }
  case OpdType::CBank: {
    auto d = splitDecor(s, true);
    if (!d || !parseCBank(d->core, e, o))
      return false;
    return applyDecor(*d);
  }
  case OpdType::Mem:
    return parseMem(s, e, o);
  case OpdType::Target: {
    auto v = parseInt(s);
    if (!v)
      return false;
    o.kind = OperandKind::Target;
    o.imm = e.fmt == ImmFmt::SHex ? *v : *v - static_cast<int64_t>(pc + 16);
    return true;
  }
  }
  return false;
}

// Matches the modifier elems of a form against a suffix like ".WIDE.U32"; collects every way.
void matchMods(const Form &f, size_t ei, std::string_view sfx, isa::Modifiers m,
               std::vector<isa::Modifiers> &out) {
  while (ei < f.elems.size() && f.elems[ei].kind != ElemKind::Mod)
    ++ei;
  if (ei == f.elems.size()) {
    if (sfx.empty())
      out.push_back(m);
    return;
  }
  const Elem &e = f.elems[ei];
  for (const ModValue &v : e.values) {
    if (!v.text.empty() &&
        !(startsWith(sfx, v.text) && (sfx.size() == v.text.size() || sfx[v.text.size()] == '.')))
      continue;
    isa::Modifiers m2 = m;
    if (e.slot != isa::ModSlot::NoSlot)
      isa::setSlot(m2, e.slot, v.value);
    if (e.slot2 != isa::ModSlot::NoSlot)
      isa::setSlot(m2, e.slot2, v.value2);
    size_t before = out.size();
    matchMods(f, ei + 1, sfx.substr(v.text.size()), m2, out);
    if (out.size() > before && !e.field.valid())
      return;
    if (!e.field.valid())
      break; // constants have one spelling
  }
}

bool parseWithForm(const Form &f, const isa::Modifiers &mods,
                   const std::vector<std::string_view> &toks, uint64_t pc, Target target,
                   Inst &in) {
  for (const std::vector<bool> &pres : f.presence) {
    in.mods = mods;
    in.ops.clear();
    size_t ti = 0, oi = 0;
    bool ok = true;
    for (const Elem &e : f.elems) {
      if (e.kind == ElemKind::Mod)
        continue;
      if (e.kind == ElemKind::OpdText) {
        if (ti >= toks.size() || toks[ti++] != e.values[0].text) {
          ok = false;
          break;
        }
        continue;
      }
      if (e.kind == ElemKind::ModOpd && !e.values.empty() && ti < toks.size() &&
          !parseInt(toks[ti])) {
        // A named value printed as an operand (TEX's "2D").
        const ModValue *named = nullptr;
        for (const ModValue &mv : e.values)
          if (!mv.text.empty() && toks[ti] == mv.text)
            named = &mv;
        if (!named) {
          ok = false;
          break;
        }
        isa::setSlot(in.mods, e.slot, named->value);
        ++ti;
        continue;
      }
      if (e.kind == ElemKind::ModOpd) {
        std::optional<int64_t> v = ti < toks.size() ? parseInt(toks[ti++]) : std::nullopt;
        if (!v) {
          ok = false;
          break;
        }
        if (e.values.empty()) {
          isa::setSlot(in.mods, e.slot, static_cast<uint8_t>(*v));
        } else {
          bool found = false;
          for (const ModValue &mv : e.values)
            if (mv.raw == static_cast<uint64_t>(*v)) {
              isa::setSlot(in.mods, e.slot, mv.value);
              found = true;
              break;
            }
          if (!found) {
            ok = false;
            break;
          }
        }
        continue;
      }
      if (!pres[oi++]) {
        Operand d = e.dflt;
        if (d.kind == OperandKind::Reg || d.kind == OperandKind::UReg)
          d.width = elemWidth(e, in.mods);
        in.ops.push_back(d);
        continue;
      }
      Operand o;
      if (!parseOperand(toks, ti, e, in.mods, pc, target, o)) {
        ok = false;
        break;
      }
      in.ops.push_back(o);
    }
    if (ok && ti == toks.size()) {
      // Widths that follow a modifier printed after the operand (TEX's Ra and its "2D").
      size_t k = 0;
      for (const Elem &e : f.elems) {
        if (e.kind != ElemKind::Opd)
          continue;
        Operand &o = in.ops[k++];
        if (e.widthSlot != isa::ModSlot::NoSlot &&
            (o.kind == OperandKind::Reg || o.kind == OperandKind::UReg))
          o.width = elemWidth(e, in.mods);
      }
      std::vector<Operand> full;
      if (matchForm(f, in, full, nullptr))
        return true;
    }
  }
  return false;
}

} // namespace

ParseResult parse(std::string_view text, Target target, uint64_t pc) {
  ParseResult r;
  const FormTable *t = tableFor(target);
  if (!t) {
    r.error = "no encoding table for this target";
    return r;
  }
  std::string_view s = trim(text);
  if (!s.empty() && s.back() == ';')
    s.remove_suffix(1);
  s = trim(s);
  Inst in;
  // Ends with ';' directly: stall 0, yield, no waits (see the printer).
  std::string_view full = trim(text);
  if (full.size() >= 2 && full.back() == ';' && full[full.size() - 2] != ' ') {
    in.ctrl.stall = 0;
    in.ctrl.yield = true;
    in.ctrl.wait = 0; // (scoreboards stay unused: 7)
  }
  if (startsWith(s, "@")) {
    s.remove_prefix(1);
    if (startsWith(s, "!")) {
      in.guard.negate = true;
      s.remove_prefix(1);
    }
    size_t sp = s.find(' ');
    std::string_view g = s.substr(0, sp);
    auto p = parseRegName(g, "P", "PT", PT, 6);
    if (!p) {
      p = parseRegName(g, "UP", "UPT", PT, 6);
      in.guard.uniform = true;
    }
    if (!p || sp == std::string_view::npos) {
      r.error = "bad guard predicate '" + std::string(g) + "'";
      return r;
    }
    in.guard.pred = *p;
    s = trim(s.substr(sp));
  }
  size_t sp = s.find(' ');
  std::string_view mnem = s.substr(0, sp);
  std::string_view rest = sp == std::string_view::npos ? std::string_view() : s.substr(sp);
  size_t dot = mnem.find('.');
  std::string_view base = mnem.substr(0, dot);
  std::string_view sfx = dot == std::string_view::npos ? std::string_view() : mnem.substr(dot);
  // A mnemonic the table renames (LDCU on sm_100) names the opcode of its forms; one that is
  // also an opcode's own name (Ampere's ATOMS.ARRIVE, a SYNCS flavour) tries both.
  std::vector<isa::Opcode> ops;
  for (const Form &f : t->forms())
    if (!f.mnemonic.empty() && f.mnemonic == base) {
      ops.push_back(f.op);
      break;
    }
  if (isa::Opcode named; isa::opcodeFromName(base, named) && (ops.empty() || ops[0] != named)) ops.push_back(named);
  if (ops.empty()) {
    r.error = "unknown mnemonic '" + std::string(base) + "'";
    return r;
  }
  std::vector<std::string_view> toks;
  for (std::string_view t : splitOperands(rest)) {
    // Some operands follow their predecessor after a space ("RET.REL.NODEC R20 0x0").
    size_t sp2;
    while ((sp2 = t.find(' ')) != std::string_view::npos && t.find('[') > sp2) {
      toks.push_back(trim(t.substr(0, sp2)));
      t = trim(t.substr(sp2));
    }
    toks.push_back(t);
  }
  for (isa::Opcode op : ops) {
    in.op = op;
    for (const Form *f : t->formsOf(in.op)) {
      if (in.guard.uniform != f->uniformGuard && !(in.guard.pred == PT && !in.guard.negate))
        continue;
      if (FormTable::mnemonicOf(*f) != base)
        continue;
      std::vector<std::string_view> sfxs{sfx};
      for (std::string_view a : f->aliasTokens)
        if (startsWith(sfx, a) && (sfx.size() == a.size() || sfx[a.size()] == '.'))
          sfxs.push_back(sfx.substr(a.size()));
      for (std::string_view sx : sfxs) {
        std::vector<isa::Modifiers> cands;
        matchMods(*f, 0, sx, isa::Modifiers(), cands);
        for (const isa::Modifiers &m : cands) {
          Inst cand = in;
          if (parseWithForm(*f, m, toks, pc, target, cand)) {
            cand.guard.uniform = f->uniformGuard;
            // The alias spelling must be the one the printer would choose.
            std::string_view want = f->alias ? f->alias(cand) : std::string_view();
            std::string_view got = sfx.substr(0, sfx.size() - sx.size());
            if (want != got)
              continue;
            r.inst = cand;
            return r;
          }
        }
      }
    }
  }
  r.error = "no form of " + std::string(base) + " matches '" + std::string(trim(text)) + "'";
  return r;
}

} // namespace optxas::sass
