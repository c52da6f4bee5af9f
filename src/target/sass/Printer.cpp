// Inst -> nvdisasm text. The spelling rules below were each checked against nvdisasm 13.x output
// (see docs/sass-encoding.md, "Printing rules").
#include "sass/FormTable.h"
#include "sass/TextFormat.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace optxas::sass {

using namespace tbl;

namespace fmt {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string shex(int64_t v) {
  if (v < 0)
    return "-" + hex(static_cast<uint64_t>(0) - static_cast<uint64_t>(v));
  return hex(static_cast<uint64_t>(v));
}

// nvdisasm prints finite values with "%.20g" below 1e9 and "%.20e" from there on; the special
// values are spelled +INF/-INF/+QNAN/-QNAN/+SNAN/-SNAN/-0.0 with a trailing space.
std::string real(double v, bool quiet) {
  if (std::isnan(v))
    return std::string(std::signbit(v) ? "-" : "+") + (quiet ? "QNAN " : "SNAN ");
  if (std::isinf(v))
    return v < 0 ? "-INF " : "+INF ";
  if (v == 0)
    return std::signbit(v) ? "-0.0 " : "0";
  char buf[64];
  std::snprintf(buf, sizeof buf, std::fabs(v) < 1e9 ? "%.20g" : "%.20e", v);
  return buf;
}

std::string f32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return real(f, (bits & 0x00400000u) != 0);
}

std::string f64(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return real(d, (bits & 0x0008000000000000ull) != 0);
}

double halfToDouble(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double s = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0)
    return s * std::ldexp(m, -24);
  if (e == 31)
    return m ? std::nan("") : s * INFINITY;
  return s * std::ldexp(m + 1024, e - 25);
}

std::string f16(uint16_t h) {
  if (((h >> 10) & 0x1f) == 31 && (h & 0x3ff))
    return std::string(h & 0x8000 ? "-" : "+") + ((h & 0x200) ? "QNAN " : "SNAN ");
  return real(halfToDouble(h), true);
}

} // namespace fmt

namespace {

std::string regName(const char *prefix, uint8_t n, uint8_t zero, const char *zeroName) {
  if (n == zero)
    return zeroName;
  return prefix + std::to_string(n);
}

std::string selText(const Elem &e, const Operand &o) {
  for (const ModValue &v : e.selMap)
    if (v.value == static_cast<uint8_t>(o.sel))
      return std::string(v.text);
  return "";
}

// "-|R1|.reuse.H0_H0" and friends.
std::string decorate(const Elem &e, const Operand &o, std::string name, bool showReuse) {
  std::string s;
  if (o.negate)
    s += "-";
  if (o.invert)
    s += "~";
  s += o.absolute ? "|" + name + "|" : name;
  if (o.reuse && showReuse)
    s += ".reuse";
  s += selText(e, o);
  return s;
}

std::string memText(const Operand &o, const Elem &e) {
  std::string s;
  if (o.desc != kNoReg && !e.mem.hideDesc)
    s += "desc[" + regName("UR", o.desc, URZ, "URZ") + "]";
  s += "[";
  bool hasUr = o.ureg != kNoReg && !(e.mem.hideUrz && o.ureg == URZ);
  bool any = false;
  if (o.base != kNoBase && !(o.base == RZ && (hasUr || o.imm != 0) && !o.base64)) {
    s += regName("R", o.base, RZ, "RZ");
    if (o.base64)
      s += ".64";
    if (o.scale && o.base != RZ) // (nvdisasm drops the scale of RZ)
      s += ".X" + std::to_string(o.scale);
    any = true;
  }
  if (hasUr) {
    s += (any ? "+" : "") + regName("UR", o.ureg, URZ, "URZ");
    any = true;
  }
  if (o.imm != 0 || !any) {
    if (any) {
      s += "+";
      s += e.mem.offsetSigned ? fmt::shex(o.imm) : fmt::hex(static_cast<uint64_t>(o.imm));
    } else {
      // An absolute address (no register) prints unsigned, except in LDGSTS.
      uint64_t v = static_cast<uint64_t>(o.imm);
      if (e.mem.offset.width < 64)
        v &= (1ull << e.mem.offset.width) - 1;
      s += e.mem.absoluteSigned ? fmt::shex(o.imm) : fmt::hex(v);
    }
  }
  return s + "]";
}

std::string cbankText(const Operand &o, const Elem &e) {
  std::string s = o.reg == kNoReg ? "cx[" + regName("UR", o.ureg, URZ, "URZ") + "]"
                                  : "c[" + fmt::hex(o.reg) + "]";
  s += e.cb.spaced ? " [" : "[";
  bool idx = o.base != kNoBase && !(o.base == RZ && o.imm != 0);
  if (idx)
    s += regName("R", o.base, RZ, "RZ");
  if (o.reg != kNoReg && o.ureg != kNoReg) { // (a URZ index is always printed)
    s += regName("UR", o.ureg, URZ, "URZ");
    idx = true;
  }
  if (o.imm == 0 && !idx && e.cb.zeroPrintsUrz)
    return s + "URZ]";
  if (o.imm != 0 || !idx) {
    if (idx)
      s += "+";
    s += o.reg == kNoReg ? fmt::hex(static_cast<uint64_t>(o.imm)) : fmt::shex(o.imm);
  }
  return s + "]";
}

std::string immText(const Elem &e, const Operand &o, const Inst &in) {
  uint64_t raw = static_cast<uint64_t>(o.imm);
  switch (e.fmt) {
  case ImmFmt::Hex: {
    unsigned w = e.field.width + e.fieldHi.width + e.immShift;
    if (w < 64 && e.immSigned == false && e.immAdd == 0)
      raw &= (1ull << w) - 1;
    return fmt::hex(raw);
  }
  case ImmFmt::SHex: return fmt::shex(o.imm);
  case ImmFmt::F32: return fmt::f32(static_cast<uint32_t>(raw));
  case ImmFmt::F64Hi: return fmt::f64(raw << 32);
  case ImmFmt::F16x2: {
    // Two halves, high first; bf16 halves when the instruction works on .BF16_V2.
    bool bf = in.mods.floatType == isa::FloatType::BF16x2;
    auto half = [&](uint16_t h) { return bf ? fmt::f32(uint32_t(h) << 16) : fmt::f16(h); };
    return half(static_cast<uint16_t>(raw >> 16)) + ", " + half(static_cast<uint16_t>(raw));
  }
  case ImmFmt::H1:
    return in.mods.floatType == isa::FloatType::BF16 || in.mods.srcFloatType == isa::FloatType::BF16
               ? fmt::f32(uint32_t(raw & 0xffff) << 16)
               : fmt::f16(static_cast<uint16_t>(raw));
  case ImmFmt::IntSrc: {
    auto t = in.mods.srcIntType;
    bool sgn = t == isa::IntType::S8 || t == isa::IntType::S16 || t == isa::IntType::S32 ||
               t == isa::IntType::S64;
    return sgn ? fmt::shex(static_cast<int32_t>(raw)) : fmt::hex(raw & 0xffffffffu);
  }
  case ImmFmt::Dec: return std::to_string(o.imm);
  }
  return "";
}

} // namespace

std::string operandText(const Elem &e, const Operand &o, const Inst &in, uint64_t pc,
                        const FormTable &t) {
  bool showReuse = !in.ctrl.yield;
  switch (e.type) {
  case OpdType::Gpr:
    if (!e.wrap.empty())   // SULD/SUST's coordinate register "[R4]"
      return std::string(e.wrap) + regName("R", o.reg, RZ, "RZ") + "]";
    return decorate(e, o, regName("R", o.reg, RZ, "RZ"), showReuse);
  case OpdType::UGpr:
    if (!e.wrap.empty())
      return std::string(e.wrap) + regName("UR", o.reg, URZ, "URZ") +
             std::string(e.wrapEnd.empty() ? "]" : e.wrapEnd);
    return decorate(e, o, regName("UR", o.reg, URZ, "URZ"), showReuse);
  case OpdType::Pred:
    return std::string(o.negate ? "!" : "") + regName("P", o.reg, PT, "PT");
  case OpdType::UPred:
    return std::string(o.negate ? "!" : "") + regName("UP", o.reg, PT, "UPT");
  case OpdType::SReg: {
    std::string_view n = specialRegName(o.reg, t.target());
    return n.empty() ? "SR" + std::to_string(o.reg) : std::string(n);
  }
  case OpdType::BarReg: return "B" + std::to_string(o.reg);
  case OpdType::Imm:
  case OpdType::FImm: return decorate(e, o, immText(e, o, in), showReuse);
  case OpdType::CBank: return decorate(e, o, cbankText(o, e), showReuse);
  case OpdType::Mem: return memText(o, e);
  case OpdType::Target:
    return e.fmt == ImmFmt::SHex ? fmt::shex(o.imm) : fmt::shex(static_cast<int64_t>(pc + 16) + o.imm);
  }
  return "?";
}

// nvdisasm omits the space before ';' when the stall count and the wait mask are zero and the
// yield hint is set; for variable-latency instructions the scoreboards must be unused too.
bool tightSemicolon(const Inst &in, const Form &f) {
  const Control &c = in.ctrl;
  if (c.stall != 0 || !c.yield || c.wait != 0)
    return false;
  return !f.scoreboardSpacing || (c.wbar == 7 && c.rbar == 7);
}

std::string guardText(const Guard &g) {
  if (g.pred == PT && !g.negate)
    return "";
  return std::string("@") + (g.negate ? "!" : "") +
         (g.uniform ? regName("UP", g.pred, PT, "UPT") : regName("P", g.pred, PT, "PT")) + " ";
}

TextResult print(const Inst &in, Target target, uint64_t pc) {
  TextResult r;
  const FormTable *t = tableFor(target);
  if (!t) {
    r.error = "no encoding table for this target";
    return r;
  }
  std::vector<Operand> full;
  const Form *f = selectForm(*t, in, full, &r.error);
  if (!f)
    return r;
  r.error.clear();
  Inst canon = in;
  canon.ops = full;
  std::string s = guardText(in.guard) + std::string(FormTable::mnemonicOf(*f));
  if (f->alias)
    s += f->alias(canon);
  for (const Elem &e : f->elems)
    if (e.kind == ElemKind::Mod)
      if (const ModValue *v = modValueFor(e, in.mods))
        s += v->text;
  // Trailing default operands of optional runs are not printed.
  std::vector<bool> shown = printedOperands(*f, full);
  std::string ops;
  size_t k = 0;
  for (const Elem &e : f->elems) {
    std::string o;
    if (e.kind == ElemKind::Opd) {
      size_t i = k++;
      if (!shown[i])
        continue;
      o = operandText(e, full[i], canon, pc, *t);
    } else if (e.kind == ElemKind::OpdText) {
      o = std::string(e.values[0].text);
    } else if (e.kind == ElemKind::ModOpd) {
      const ModValue *v = e.values.empty() ? nullptr : modValueFor(e, in.mods);
      o = v ? std::string(v->text) : fmt::hex(isa::getSlot(in.mods, e.slot));
    } else {
      continue;
    }
    ops += (ops.empty() || e.spaceSep ? " " : ", ") + o;
  }
  s += ops;
  s += tightSemicolon(in, *f) ? ";" : " ;";
  r.text = std::move(s);
  return r;
}

} // namespace optxas::sass
