// The random kernel generator: statement kinds, operands and the PTX/spec printers.
#include "Generator.h"

#include <fmt/format.h>

namespace optxas::fuzz {

namespace {

constexpr unsigned kLocalWords = 8;     // the per-thread .local array
constexpr unsigned kAccWords = 4;       // reduction targets (red.global.add)
constexpr unsigned kLocvWords = 16;     // the per-thread .local array of vector accesses
constexpr unsigned kMaxV = 24;          // %v registers of a pressure block
constexpr unsigned kMaxVd = 4;          // %vd (64-bit) registers of a pressure block

class Gen {
public:
  Gen(Program &p, const Features &f) : p_(p), f_(f), rng_(p.seed) {}

  void run() {
    unsigned n = unsigned(rng_.range(12, 40));
    for (unsigned i = 0; i < n; ++i) p_.body.push_back(stmt(0, !exited_));
  }

private:
  Program &p_;
  Features f_;
  sim::Rng rng_;
  // Enclosing loops, innermost last: the targets of break/continue and induction-variable uses.
  struct LoopCtx { int id; bool cont; };
  std::vector<LoopCtx> loops_;
  unsigned nv_ = 0, nvd_ = 0;  // %v / %vd registers live in the current pressure block
  bool exited_ = false;        // some thread may have left for DONE: nothing after is converged

  unsigned pick(unsigned n) { return unsigned(rng_.next() % n); }
  bool chance(unsigned percent) { return pick(100) < percent; }
  std::string r() { return fmt::format("%r{}", pick(p_.intRegs)); }
  std::string fr() { return fmt::format("%f{}", pick(p_.floatRegs)); }
  std::string pr() { return fmt::format("%p{}", pick(p_.predRegs)); }
  std::string imm() {
    static const int64_t special[] = {0, 1, -1, 2, 31, 32, 0x7fffffff, -0x80000000LL, 0xff, 16};
    if (chance(40)) return fmt::format("{}", special[pick(10)]);
    return fmt::format("{}", int32_t(rng_.next()));
  }
  std::string rOrImm() { return chance(25) ? imm() : r(); }
  std::string fimm() {
    static const char *special[] = {"0f00000000", "0f3F800000", "0fBF800000", "0f7F800000",
                                    "0f00800000", "0f00000001", "0f7FC00000", "0f4B000000"};
    if (chance(50)) return special[pick(8)];
    return fmt::format("0f{:08X}", uint32_t(rng_.next()));
  }
  std::string frOrImm() { return chance(20) ? fimm() : fr(); }

  Stmt line(std::vector<std::string> lines) {
    Stmt s;
    s.kind = Stmt::Line;
    s.id = p_.nextId++;
    s.lines = std::move(lines);
    return s;
  }

  // A single instruction that may be predicated.
  Stmt op(std::string text) {
    if (chance(15)) text = fmt::format("@{}{} {}", chance(50) ? "!" : "", pr(), text);
    return line({text});
  }

  Stmt intOp() {
    static const char *bin[] = {"add.s32", "sub.s32", "mul.lo.s32", "mul.hi.s32", "mul.hi.u32",
                                "and.b32", "or.b32",  "xor.b32",    "min.s32",    "max.u32",
                                "min.u32", "max.s32", "shl.b32",    "shr.u32",    "shr.s32",
                                "mul24.lo.u32"};
    switch (pick(14)) {
    case 0: case 1: case 2: case 3: {
      const char *o = bin[pick(16)];
      return op(fmt::format("{} {}, {}, {};", o, r(), r(), rOrImm()));
    }
    case 4: return op(fmt::format("mad.lo.s32 {}, {}, {}, {};", r(), r(), rOrImm(), r()));
    case 5: {
      static const char *un[] = {"not.b32", "neg.s32", "abs.s32", "popc.b32", "clz.b32",
                                 "brev.b32", "cnot.b32"};
      return op(fmt::format("{} {}, {};", un[pick(7)], r(), r()));
    }
    // (Positions and lengths stay within the word: ptxas folds bfi with len >= 32 as len mod
    // 32, which differs from the PTX ISA's definition.)
    case 6: {
      unsigned pos = pick(32), len = pick(33 - pos);
      return op(fmt::format("bfe.{}32 {}, {}, {}, {};", chance(50) ? "u" : "s", r(), r(), pos, len));
    }
    case 7: {
      unsigned pos = pick(32), len = pick(33 - pos);
      return op(fmt::format("bfi.b32 {}, {}, {}, {}, {};", r(), r(), r(), pos, len));
    }
    // (An immediate selector never sign-replicates a byte of `a` into byte 0: ptxas 13.0 folds
    // the low byte of such a prmt, e.g. `prmt.b32 d, a, b, 0x9; and.b32 d, d, 255`, to
    // `PRMT d, RZ, 0x9, b`, dropping `a` (tests/fuzz-found/README.md). Register selectors keep
    // every mode.)
    case 8: {
      // (Nor into byte 1: `prmt.b32 d, a, b, 0xcd85; cvt.u32.u16 e, d` becomes
      // `PRMT e, RZ, 0x85, b`, seed 578.)
      auto immSel = [&] {
        unsigned sel = pick(0x10000);
        if ((sel & 0xc) == 0x8) sel &= ~0x8u;
        if ((sel & 0xc0) == 0x80) sel &= ~0x80u;
        return sel;
      };
      return op(fmt::format("prmt.b32 {}, {}, {}, {};", r(), r(), r(),
                            chance(60) ? fmt::format("{}", immSel()) : r()));
    }
    case 9: {
      static const char *cmp[] = {"lt", "le", "gt", "ge", "eq", "ne"};
      std::string p = pr();
      return line({fmt::format("setp.{}.{}32 {}, {}, {};", cmp[pick(6)], chance(50) ? "s" : "u",
                               p, r(), rOrImm()),
                   fmt::format("selp.b32 {}, {}, {}, {};", r(), r(), rOrImm(), p)});
    }
    // (Sources are distinct registers: ptxas 13.0 miscompiles a lop3 with a repeated source
    // fused into a following xor, e.g. `lop3.b32 d, a, b, b, 0x84; xor.b32 e, a, d` becomes
    // `LOP3.LUT e, a, RZ, b, 0x72` = a | b instead of a & ~b; tests/fuzz-found/README.md.)
    case 10: {
      std::string t = fmt::format("lop3.b32 {}, {}, {}, {}, {};", r(), r(), r(), r(), pick(256));
      // Operands 1..3 are "%r<n>"; a repeated one moves to the next unused register.
      std::vector<std::string> parts;
      size_t start = 9;
      for (size_t c; (c = t.find(", ", start)) != std::string::npos; start = c + 2)
        parts.push_back(t.substr(start, c - start));
      parts.push_back(t.substr(start, t.size() - start - 1));
      for (unsigned i = 2; i <= 3; ++i) {
        unsigned n = unsigned(std::stoul(parts[i].substr(2)));
        auto used = [&](unsigned k) {
          for (unsigned j = 1; j < i; ++j)
            if (parts[j] == fmt::format("%r{}", k)) return true;
          return false;
        };
        while (used(n)) n = (n + 1) % p_.intRegs;
        parts[i] = fmt::format("%r{}", n);
      }
      return op(fmt::format("lop3.b32 {}, {}, {}, {}, {};", parts[0], parts[1], parts[2], parts[3],
                            parts[4]));
    }
    case 11: return op(fmt::format("shf.{}.{}.b32 {}, {}, {}, {};", chance(50) ? "l" : "r",
                                   chance(50) ? "wrap" : "clamp", r(), r(), r(), rOrImm()));
    case 12: {
      static const char *cvt[] = {"cvt.s32.s8", "cvt.s32.s16", "cvt.u32.u8", "cvt.u32.u16"};
      return op(fmt::format("{} {}, {};", cvt[pick(4)], r(), r()));
    }
    default: {
      // Predicate logic.
      static const char *pl[] = {"and.pred", "or.pred", "xor.pred"};
      return op(fmt::format("{} {}, {}, {};", pl[pick(3)], pr(), pr(), pr()));
    }
    }
  }

  // "@%pN " / "@!%pN " or nothing: the guard of a statement's last line.
  std::string guard() {
    if (!chance(15)) return "";
    return fmt::format("@{}{} ", chance(50) ? "!" : "", pr());
  }
  // Distinct pool predicates (setp's two destinations must differ).
  std::pair<std::string, std::string> twoPreds() {
    unsigned a = pick(p_.predRegs), b = (a + 1 + pick(p_.predRegs - 1)) % p_.predRegs;
    return {fmt::format("%p{}", a), fmt::format("%p{}", b)};
  }
  std::string imm16() {
    static const int special[] = {0, 1, -1, 15, 16, 0x7fff, -0x8000, 0xff, 0x80};
    if (chance(50)) return fmt::format("{}", special[pick(9)]);
    return fmt::format("{}", int16_t(rng_.next()));
  }

  // 16-bit (and 8-bit, through cvt) integer arithmetic on %h temporaries split off pool registers.
  Stmt narrowOp() {
    std::vector<std::string> l;
    if (chance(50)) l.push_back(fmt::format("mov.b32 {{%h0, %h1}}, {};", r()));
    else {
      l.push_back(fmt::format("cvt.u16.u32 %h0, {};", r()));
      l.push_back(fmt::format("cvt.u16.u32 %h1, {};", r()));
    }
    std::string h1 = chance(25) ? imm16() : "%h1";
    switch (pick(10)) {
    case 0: case 1: case 2: {
      static const char *o[] = {"add.s16", "sub.s16", "mul.lo.u16", "mul.hi.s16", "mul.hi.u16",
                                "min.s16", "max.u16", "min.u16",    "max.s16",    "and.b16",
                                "or.b16",  "xor.b16", "add.u16",    "sub.u16",    "mul.lo.s16"};
      l.push_back(fmt::format("{} %h0, %h0, {};", o[pick(15)], h1));
      break;
    }
    case 3: {
      static const char *o[] = {"shl.b16", "shr.s16", "shr.u16"};
      l.push_back(fmt::format("{} %h0, %h0, {};", o[pick(3)], chance(50) ? fmt::format("{}", pick(20)) : r()));
      break;
    }
    case 4: {
      // (No abs.s16/neg.s16: ptxas 13.0 computes `abs.s16 h, x; cvt.s32.s16 r, h` as a 32-bit
      // IABS of the sign-extended x, so -32768 gives +32768 (neg.s16 the same); seeds 609, 797,
      // tests/fuzz-found/README.md.)
      static const char *o[] = {"not.b16", "cnot.b16", "cvt.s16.s8", "cvt.u16.u8"};
      l.push_back(fmt::format("{} %h0, %h1;", o[pick(4)]));
      break;
    }
    case 5:
      l.push_back(fmt::format("mad.lo.{}16 %h0, %h0, {}, %h1;", chance(50) ? "s" : "u", h1));
      break;
    case 6:
      // Straight into a pool register.
      l.push_back(fmt::format("{}mul.wide.{}16 {}, %h0, {};", guard(), chance(50) ? "s" : "u", r(), h1));
      return line(l);
    case 7: {
      Stmt s = line({});
      static const char *cmp[] = {"lt", "le", "gt", "ge", "eq", "ne"};
      l.push_back(fmt::format("setp.{}.{}16 %pc{}, %h0, {};", cmp[pick(6)], chance(50) ? "s" : "u",
                              s.id, h1));
      l.push_back(fmt::format("selp.b16 %h0, %h0, %h1, %pc{};", s.id));
      l.push_back(fmt::format("{}cvt.u32.u16 {}, %h0;", guard(), r()));
      s.lines = l;
      return s;
    }
    case 8:
      if (f_.division) {
        static const char *o[] = {"div.s16", "div.u16", "rem.s16", "rem.u16"};
        l.push_back(fmt::format("{} %h0, %h0, %h1;", o[pick(4)]));
        break;
      }
      [[fallthrough]];
    default: {
      // Saturating narrowing conversions.
      static const char *o[] = {"cvt.sat.s8.s32", "cvt.sat.u8.s32", "cvt.sat.s16.s32",
                                "cvt.sat.u16.s32", "cvt.sat.u16.u32", "cvt.sat.s8.s16",
                                "cvt.sat.u8.s16"};
      unsigned k = pick(7);
      l.push_back(fmt::format("{} %h0, {};", o[k], k < 5 ? r() : "%h1"));
      break;
    }
    }
    static const char *back[] = {"cvt.u32.u16 {}, %h0;", "cvt.s32.s16 {}, %h0;",
                                 "mov.b32 {}, {{%h0, %h1}};", "cvt.s32.s8 {}, %h0;"};
    l.push_back(guard() + fmt::format(fmt::runtime(back[pick(4)]), r()));
    return line(l);
  }

  // Saturation, carries, 24-bit, sad/slct, setp with two destinations or a second predicate.
  Stmt extIntOp() {
    switch (pick(11)) {
    case 10: {
      // bfind, bmsk, szext, dp4a/dp2a, prmt's special modes, packed 16-bit min/max.
      switch (pick(6)) {
      case 0: return op(fmt::format("bfind{}.{}32 {}, {};", chance(30) ? ".shiftamt" : "",
                                    chance(50) ? "s" : "u", r(), r()));
      case 1: return op(fmt::format("bmsk.{}.b32 {}, {}, {};", chance(50) ? "clamp" : "wrap", r(),
                                    rOrImm(), rOrImm()));
      case 2: return op(fmt::format("szext.{}.{}32 {}, {}, {};", chance(50) ? "clamp" : "wrap",
                                    chance(50) ? "s" : "u", r(), r(), rOrImm()));
      case 3:
        if (chance(50))
          return op(fmt::format("dp4a.{}32.{}32 {}, {}, {}, {};", chance(50) ? "s" : "u",
                                chance(50) ? "s" : "u", r(), r(), r(), r()));
        return op(fmt::format("dp2a.{}.{}32.{}32 {}, {}, {}, {};", chance(50) ? "lo" : "hi",
                              chance(50) ? "s" : "u", chance(50) ? "s" : "u", r(), r(), r(), r()));
      case 4: {
        static const char *m[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
        return op(fmt::format("prmt.b32.{} {}, {}, {}, {};", m[pick(6)], r(), r(), r(), rOrImm()));
      }
      default: {
        // (Registers only: ptxas takes no immediates for the packed forms.)
        static const char *o[] = {"min.s16x2", "max.s16x2", "min.u16x2", "max.u16x2",
                                  "min.relu.s32", "max.relu.s32", "min.relu.s16x2", "max.relu.s16x2",
                                  "add.s16x2", "add.u16x2"};
        return op(fmt::format("{} {}, {}, {};", o[pick(10)], r(), r(), r()));
      }
      }
    }
    case 0: return op(fmt::format("{}.sat.s32 {}, {}, {};", chance(50) ? "add" : "sub", r(), r(), rOrImm()));
    case 1: {
      static const char *o[] = {"mul24.hi.s32", "mul24.hi.u32", "mul24.lo.s32"};
      if (chance(50)) return op(fmt::format("{} {}, {}, {};", o[pick(3)], r(), r(), rOrImm()));
      return op(fmt::format("mad24.{}.{}32 {}, {}, {}, {};", chance(50) ? "lo" : "hi",
                            chance(50) ? "s" : "u", r(), r(), rOrImm(), r()));
    }
    case 2: {
      // (The addend is never the destination: ptxas 13.0 compiles three chained
      // `mad.hi.s32 d, a, b, d` like two; tests/fuzz-found/README.md.)
      unsigned d = pick(p_.intRegs), c = (d + 1 + pick(p_.intRegs - 1)) % p_.intRegs;
      return op(fmt::format("mad.hi.{}32 %r{}, {}, {}, %r{};", chance(50) ? "s" : "u", d, r(),
                            rOrImm(), c));
    }
    case 3: {
      std::string lo = r(), hi = r();
      return line({fmt::format("mov.b64 %td1, {{{}, {}}};", r(), r()),
                   fmt::format("mad.wide.{}32 %td0, {}, {}, %td1;", chance(50) ? "s" : "u", r(), rOrImm()),
                   guard() + fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi)});
    }
    case 4:
      if (chance(50)) return op(fmt::format("sad.{}32 {}, {}, {}, {};", chance(50) ? "s" : "u", r(), r(), r(), r()));
      if (f_.floats && chance(50))
        return op(fmt::format("slct.b32.f32 {}, {}, {}, {};", r(), r(), rOrImm(), fr()));
      return op(fmt::format("slct.{}32.s32 {}, {}, {}, {};", chance(50) ? "s" : "u", r(), r(), rOrImm(), r()));
    case 5: {
      // A carry chain (always executed: a guard would make the carry-in undefined).
      bool sub = chance(50);
      const char *c = sub ? "sub" : "add";
      std::vector<std::string> l;
      l.push_back(fmt::format("{}.cc.u32 {}, {}, {};", c, "%t0", r(), rOrImm()));
      unsigned n = pick(3);
      for (unsigned i = 0; i < n; ++i)
        l.push_back(fmt::format("{}c.cc.u32 %t{}, {}, {};", c, 1 + i % 2, r(), rOrImm()));
      l.push_back(fmt::format("{}c.u32 {}, {}, {};", c, r(), r(), rOrImm()));
      l.push_back(fmt::format("xor.b32 {}, {}, %t0;", r(), r()));
      if (n) l.push_back(fmt::format("add.u32 {}, {}, %t1;", r(), r()));
      return line(l);
    }
    case 6: {
      static const char *cmp[] = {"lt", "le", "gt", "ge", "eq", "ne", "lo", "ls", "hi", "hs"};
      static const char *bop[] = {"and", "or", "xor"};
      unsigned k = pick(10);
      std::string ty = k >= 6 ? "u32" : chance(50) ? "s32" : "b32";
      if (k < 6 && ty == "b32" && k < 4) ty = "s32";  // ordered compares need a signedness
      auto [p, q] = twoPreds();
      std::string dst = chance(50) ? p + "|" + q : p;
      std::string comb = chance(60) ? fmt::format(".{}", bop[pick(3)]) : "";
      std::string c = comb.empty() ? "" : fmt::format(", {}{}", chance(50) ? "!" : "", pr());
      return op(fmt::format("setp.{}{}.{} {}, {}, {}{};", cmp[k], comb, ty, dst, r(), rOrImm(), c));
    }
    case 7: {
      if (!f_.floats) return op(fmt::format("cnot.b32 {}, {};", r(), r()));
      // (Never guarded: ptxas 13.0 drops the guard of `@!%p0 testp.infinite.f32 %p3, %f5` and
      // writes %p3 unconditionally; tests/fuzz-found/README.md.)
      static const char *t[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
      return line({fmt::format("testp.{}.f32 {}, {};", t[pick(6)], pr(), fr())});
    }
    case 8: {
      // 64-bit bit operations on a register pair.
      std::string lo = r(), hi = r();
      std::vector<std::string> l = {fmt::format("mov.b64 %td0, {{{}, {}}};", r(), r()),
                                    fmt::format("mov.b64 %td1, {{{}, {}}};", r(), r())};
      // Positions and lengths: immediates up to 71 (past the word), or registers masked to 0..127
      // (ptxas 13.0 reads bfe.{u,s}64/bfi.b64 register operands unmasked, where PTX uses their low
      // byte: tests/exec/bfe64_lowbyte).
      auto posLen = [&](unsigned &k) {
        if (chance(60)) return fmt::format("{}", pick(72));
        l.push_back(fmt::format("and.b32 %t{}, {}, 127;", k, r()));
        return fmt::format("%t{}", k++);
      };
      switch (pick(8)) {
      case 0: {
        unsigned k = 0;
        std::string pos = posLen(k), len = posLen(k);
        l.push_back(fmt::format("bfe.{}64 %td0, %td0, {}, {};", chance(50) ? "u" : "s", pos, len));
        break;
      }
      case 1: {
        unsigned k = 0;
        std::string pos = posLen(k), len = posLen(k);
        l.push_back(fmt::format("bfi.b64 %td0, %td0, %td1, {}, {};", pos, len));
        break;
      }
      case 7:
        l.push_back(guard() + fmt::format("bfind{}.{}64 {}, %td0;", chance(30) ? ".shiftamt" : "",
                                          chance(50) ? "s" : "u", lo));
        return line(l);
      case 2:
        l.push_back(guard() + fmt::format("{}.b64 {}, %td0;", chance(50) ? "clz" : "popc", lo));
        return line(l);
      case 3: {
        static const char *o[] = {"brev.b64", "not.b64", "neg.s64", "abs.s64", "cnot.b64"};
        l.push_back(fmt::format("{} %td0, %td1;", o[pick(5)]));
        break;
      }
      case 4: {
        static const char *o[] = {"mul.hi.u64", "mul.hi.s64", "min.u64", "max.s64", "or.b64",
                                  "sub.s64", "min.s64", "max.u64"};
        l.push_back(fmt::format("{} %td0, %td0, %td1;", o[pick(8)]));
        break;
      }
      case 5:
        l.push_back(fmt::format("mad.lo.s64 %td0, %td0, %td1, %td0;"));
        break;
      default: {
        Stmt s = line({});
        static const char *cmp[] = {"lt", "le", "gt", "ge", "eq", "ne"};
        l.push_back(fmt::format("setp.{}.{}64 %pc{}, %td0, %td1;", cmp[pick(6)],
                                chance(50) ? "s" : "u", s.id));
        l.push_back(fmt::format("selp.b64 %td0, %td0, %td1, %pc{};", s.id));
        l.push_back(guard() + fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi));
        s.lines = l;
        return s;
      }
      }
      l.push_back(guard() + fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi));
      return line(l);
    }
    default: {
      // Width-changing integer conversions.
      static const char *o[] = {"cvt.s64.s32 %td0, {};", "cvt.u64.u32 %td0, {};",
                                "cvt.sat.u64.s32 %td0, {};", "cvt.s64.s16 %td0, {};",
                                "cvt.u64.u8 %td0, {};", "cvt.sat.u64.s16 %td0, {};"};
      std::string src = r();
      std::vector<std::string> l;
      unsigned k = pick(6);
      if (k >= 3) {
        l.push_back(fmt::format("cvt.u16.u32 %h0, {};", src));
        src = "%h0";
      }
      l.push_back(fmt::format(fmt::runtime(o[k]), src));
      // Back to 32 bits, most often saturating (cvt.sat from s64/u64 to every narrower type, or
      // between s64 and u64 first).
      l.push_back(fmt::format("add.s64 %td0, %td0, %td0;"));
      if (chance(25)) l.push_back(chance(50) ? "cvt.sat.u64.s64 %td0, %td0;" : "cvt.sat.s64.u64 %td0, %td0;");
      const char *wide = chance(50) ? "s64" : "u64";
      switch (pick(4)) {
      case 0: l.push_back(guard() + fmt::format("cvt.u32.u64 {}, %td0;", r())); break;
      case 1: l.push_back(guard() + fmt::format("cvt.sat.{}32.{} {}, %td0;", chance(50) ? "s" : "u", wide, r())); break;
      default: {
        static const char *n[] = {"s8", "u8", "s16", "u16"};
        const char *d = n[pick(4)];
        l.push_back(fmt::format("cvt.sat.{}.{} %h1, %td0;", d, wide));
        l.push_back(guard() + fmt::format("cvt.{}32.{}16 {}, %h1;", d[0], d[0], r()));
        break;
      }
      }
      return line(l);
    }
    }
  }

  // 64-bit integer division (subroutines).
  Stmt div64Op() {
    static const char *d[] = {"div.s64", "div.u64", "rem.s64", "rem.u64"};
    std::string lo = r(), hi = r();
    return line({fmt::format("mov.b64 %td0, {{{}, {}}};", r(), r()),
                 chance(30) ? fmt::format("cvt.s64.s32 %td1, {};", r())
                            : fmt::format("mov.b64 %td1, {{{}, {}}};", r(), r()),
                 fmt::format("{} %td0, %td0, %td1;", d[pick(4)]),
                 guard() + fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi)});
  }

  // More f32: unordered compares, saturation, copysign, NaN-propagating min/max, integral rounding.
  Stmt extFloatOp() {
    switch (pick(5)) {
    case 0: {
      static const char *cmp[] = {"equ", "neu", "leu", "gtu", "lt", "geu"};
      static const char *bop[] = {"and", "or", "xor"};
      auto [p, q] = twoPreds();
      std::string dst = chance(50) ? p + "|" + q : p;
      std::string comb = chance(60) ? fmt::format(".{}", bop[pick(3)]) : "";
      std::string c = comb.empty() ? "" : fmt::format(", {}{}", chance(50) ? "!" : "", pr());
      return op(fmt::format("setp.{}{}{}.f32 {}, {}, {}{};", cmp[pick(6)], comb,
                            chance(20) ? ".ftz" : "", dst, fr(), frOrImm(), c));
    }
    case 1: {
      static const char *o[] = {"add.sat", "mul.rz.sat", "sub.rn.sat", "add.rm.sat"};
      if (chance(30)) return op(fmt::format("fma.rn.sat.f32 {}, {}, {}, {};", fr(), fr(), frOrImm(), fr()));
      return op(fmt::format("{}{}.f32 {}, {}, {};", o[pick(4)], chance(20) ? ".ftz" : "", fr(), fr(), frOrImm()));
    }
    case 2: {
      static const char *o[] = {"min.NaN", "max.NaN", "min", "max"};
      return op(fmt::format("{}.f32 {}, {}, {};", o[pick(4)], fr(), fr(), frOrImm()));
    }
    case 3: {
      static const char *o[] = {"cvt.rni.f32.f32", "cvt.rzi.f32.f32", "cvt.rmi.f32.f32",
                                "cvt.rpi.f32.f32", "cvt.sat.f32.f32", "cvt.rni.ftz.f32.f32"};
      return op(fmt::format("{} {}, {};", o[pick(6)], fr(), fr()));
    }
    default: {
      // Float to 64/16-bit integers (saturating) and back.
      static const char *m[] = {"rzi", "rni", "rmi", "rpi"};
      std::string lo = r(), hi = r();
      if (chance(50)) {
        return line({fmt::format("cvt.{}.{}64.f32 %td0, {};", m[pick(4)], chance(50) ? "s" : "u", fr()),
                     chance(30) ? fmt::format("cvt.rn.f32.{}64 {}, %td0;", chance(50) ? "s" : "u", fr())
                                : guard() + fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi)});
      }
      return line({fmt::format("cvt.{}.{}16.f32 %h0, {};", m[pick(4)], chance(50) ? "s" : "u", fr()),
                   guard() + fmt::format("cvt.{}32.{}16 {}, %h0;", chance(50) ? "s" : "u",
                                         chance(50) ? "s" : "u", lo)});
    }
    }
  }

  // f16/bf16: x2 arithmetic directly on integer pool registers, scalar on %h temporaries.
  Stmt halfOp() {
    std::string ty = chance(40) ? "bf16" : "f16";
    bool bf = ty == "bf16";
    switch (pick(8)) {
    case 0: case 1: {
      static const char *o[] = {"add", "sub", "mul"};
      std::string mod = bf ? ".rn" : fmt::format("{}{}{}", chance(70) ? ".rn" : "",
                                                 chance(25) ? ".ftz" : "", chance(25) ? ".sat" : "");
      return op(fmt::format("{}{}.{}x2 {}, {}, {};", o[pick(3)], mod, ty, r(), r(), r()));
    }
    case 2: {
      std::string mod = bf ? (chance(30) ? ".relu" : "")
                           : fmt::format("{}{}", chance(25) ? ".ftz" : "",
                                         chance(30) ? ".sat" : chance(30) ? ".relu" : "");
      return op(fmt::format("fma.rn{}.{}x2 {}, {}, {}, {};", mod, ty, r(), r(), r(), r()));
    }
    case 3: {
      static const char *o[] = {"min", "max", "min.NaN", "max.NaN"};
      return op(fmt::format("{}{}.{}x2 {}, {}, {};", o[pick(4)],
                            !bf && chance(25) ? ".ftz" : "", ty, r(), r(), r()));
    }
    case 4:
      if (!f_.floats) break;
      return op(fmt::format("cvt.rn{}.{}x2.f32 {}, {}, {};", chance(25) ? ".relu" : "", ty, r(),
                            fr(), fr()));
    case 5: {
      if (!f_.floats) break;
      // One half to f32, or f32 to one half.
      if (chance(50))
        return line({fmt::format("mov.b32 {{%h0, %h1}}, {};", r()),
                     guard() + fmt::format("cvt.f32.{} {}, %h{};", ty, fr(), pick(2))});
      static const char *rnd[] = {".rn", ".rz", ".rm", ".rp"};
      const char *rd = bf ? ".rn" : rnd[pick(4)];
      return line({fmt::format("mov.b32 {{%h0, %h1}}, {};", r()),
                   fmt::format("cvt{}.{}.f32 %h{}, {};", rd, ty, pick(2), fr()),
                   guard() + fmt::format("mov.b32 {}, {{%h0, %h1}};", r())});
    }
    case 6: {
      // Scalar arithmetic on one half.
      static const char *o[] = {"add.rn", "sub.rn", "mul.rn", "min", "max"};
      std::string mod = !bf && chance(20) ? ".ftz" : "";
      unsigned k = pick(5);
      if (bf && k < 3) mod = "";
      std::string ins = chance(25) ? fmt::format("fma.rn{}.{} %h0, %h0, %h1, %h0;", mod, ty)
                                   : fmt::format("{}{}.{} %h0, %h0, %h1;", o[k], mod, ty);
      return line({fmt::format("mov.b32 {{%h0, %h1}}, {};", r()), ins,
                   guard() + fmt::format("mov.b32 {}, {{%h0, %h1}};", r())});
    }
    default: {
      static const char *cmp[] = {"lt", "le", "gt", "ge", "eq", "ne", "ltu", "geu", "num", "nan",
                                  "equ", "neu"};
      auto [p, q] = twoPreds();
      if (chance(50))
        return op(fmt::format("setp.{}.{}x2 {}|{}, {}, {};", cmp[pick(12)], ty, p, q, r(), r()));
      return line({fmt::format("mov.b32 {{%h0, %h1}}, {};", r()),
                   fmt::format("setp.{}.{} {}, %h0, %h1;", cmp[pick(12)], ty, p)});
    }
    }
    return op(fmt::format("add.rn.{}x2 {}, {}, {};", ty, r(), r(), r()));
  }

  // f64 on %fd temporaries: from an integer pair's bits, an f32 or an integer; back to the float
  // pool (rounded), an integer, or an integer pair (NaNs canonical: abs/neg leave them unspecified).
  Stmt f64Op() {
    Stmt s = line({});
    std::vector<std::string> l;
    auto src = [&](int k) {
      switch (pick(4)) {
      case 0: case 1: l.push_back(fmt::format("mov.b64 %fd{}, {{{}, {}}};", k, r(), r())); break;
      case 2:
        if (f_.floats) { l.push_back(fmt::format("cvt.f64.f32 %fd{}, {};", k, fr())); break; }
        [[fallthrough]];
      default:
        l.push_back(fmt::format("cvt.rn.f64.{}32 %fd{}, {};", chance(50) ? "s" : "u", k, r()));
        break;
      }
    };
    src(0);
    src(1);
    static const char *rnd[] = {".rn", ".rz", ".rm", ".rp"};
    switch (pick(7)) {
    case 0: case 1: {
      static const char *o[] = {"add", "sub", "mul"};
      l.push_back(fmt::format("{}{}.f64 %fd0, %fd0, %fd1;", o[pick(3)], rnd[pick(4)]));
      break;
    }
    case 2: l.push_back(fmt::format("fma{}.f64 %fd0, %fd0, %fd1, %fd0;", rnd[pick(4)])); break;
    case 3: {
      static const char *o[] = {"min", "max", "abs", "neg"};
      unsigned k = pick(4);
      if (k >= 2) l.push_back(fmt::format("{}.f64 %fd0, %fd1;", o[k]));
      else l.push_back(fmt::format("{}.f64 %fd0, %fd0, %fd1;", o[k]));
      break;
    }
    case 4:
      if (f_.division) {
        static const char *o[] = {"div.rn.f64 %fd0, %fd0, %fd1;", "sqrt.rn.f64 %fd0, %fd1;",
                                  "rcp.rn.f64 %fd0, %fd1;", "div.rz.f64 %fd0, %fd0, %fd1;"};
        l.push_back(o[pick(4)]);
        break;
      }
      [[fallthrough]];
    case 5: {
      static const char *cmp[] = {"lt", "le", "gt", "ge", "eq", "ne", "ltu", "geu", "num", "nan",
                                  "equ", "neu"};
      l.push_back(fmt::format("setp.{}.f64 %pc{}, %fd0, %fd1;", cmp[pick(12)], s.id));
      if (chance(50)) {
        l.push_back(guard() + fmt::format("selp.b32 {}, 1, 0, %pc{};", r(), s.id));
        s.lines = l;
        return s;
      }
      l.push_back(fmt::format("selp.f64 %fd0, %fd0, %fd1, %pc{};", s.id));
      break;
    }
    default: {
      static const char *m[] = {"rzi", "rni", "rmi", "rpi"};
      static const char *t[] = {"s32", "u32", "s64", "u64"};
      unsigned k = pick(4);
      if (k < 2) {
        l.push_back(guard() + fmt::format("cvt.{}.{}.f64 {}, %fd0;", m[pick(4)], t[k], r()));
      } else {
        std::string lo = r(), hi = r();
        l.push_back(fmt::format("cvt.{}.{}.f64 %td0, %fd0;", m[pick(4)], t[k]));
        l.push_back(guard() + fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi));
      }
      s.lines = l;
      return s;
    }
    }
    // The result back.
    unsigned k = pick(f_.floats ? 4 : 2);
    if (k >= 2) {
      l.push_back(guard() + fmt::format("cvt{}.f32.f64 {}, %fd0;", rnd[pick(4)], fr()));
    } else if (k == 1) {
      // Through an integer (no NaN left).
      l.push_back("cvt.rzi.s64.f64 %td1, %fd0;");
      l.push_back(fmt::format("cvt.rn.f64.{}64 %fd0, %td1;", chance(50) ? "s" : "u"));
      std::string lo = r(), hi = r();
      l.push_back(fmt::format("mov.b64 %td0, %fd0;"));
      l.push_back(guard() + fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi));
    } else {
      std::string lo = r(), hi = r();
      l.push_back(fmt::format("testp.notanumber.f64 %pc{}, %fd0;", s.id));
      l.push_back("mov.b64 %td0, %fd0;");
      l.push_back(fmt::format("selp.b64 %td0, 0x7fffffffffffffff, %td0, %pc{};", s.id));
      l.push_back(guard() + fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi));
    }
    s.lines = l;
    return s;
  }

  Stmt divOp() {
    static const char *d[] = {"div.s32", "div.u32", "rem.s32", "rem.u32"};
    return op(fmt::format("{} {}, {}, {};", d[pick(4)], r(), r(), rOrImm()));
  }

  Stmt wideOp() {
    std::string a = r(), b = r(), lo = r(), hi = r();
    switch (pick(3)) {
    case 0:
      return line({fmt::format("mul.wide.{}32 %td0, {}, {};", chance(50) ? "s" : "u", a, b),
                   fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi)});
    case 1: {
      static const char *o[] = {"add.s64", "sub.s64", "mul.lo.s64", "and.b64", "xor.b64",
                                "min.s64", "max.u64"};
      return line({fmt::format("mov.b64 %td0, {{{}, {}}};", a, b),
                   fmt::format("mov.b64 %td1, {{{}, {}}};", r(), r()),
                   fmt::format("{} %td0, %td0, %td1;", o[pick(7)]),
                   fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi)});
    }
    default: {
      static const char *sh[] = {"shl.b64", "shr.u64", "shr.s64"};
      return line({fmt::format("mov.b64 %td0, {{{}, {}}};", a, b),
                   fmt::format("{} %td0, %td0, {};", sh[pick(3)], r()),
                   fmt::format("mov.b64 {{{}, {}}}, %td0;", lo, hi)});
    }
    }
  }

  Stmt floatOp() {
    static const char *rnd[] = {".rn", ".rz", ".rm", ".rp"};
    std::string ftz = chance(20) ? ".ftz" : "";
    switch (pick(9)) {
    case 0: case 1: {
      static const char *o[] = {"add", "sub", "mul"};
      return op(fmt::format("{}{}{}.f32 {}, {}, {};", o[pick(3)], rnd[pick(4)], ftz, fr(), fr(),
                            frOrImm()));
    }
    case 2: return op(fmt::format("fma{}{}.f32 {}, {}, {}, {};", rnd[pick(4)], ftz, fr(), fr(),
                                  frOrImm(), fr()));
    case 3: {
      static const char *o[] = {"min", "max", "abs", "neg"};
      unsigned k = pick(4);
      if (k < 2) return op(fmt::format("{}{}.f32 {}, {}, {};", o[k], ftz, fr(), fr(), frOrImm()));
      return op(fmt::format("{}{}.f32 {}, {};", o[k], ftz, fr(), fr()));
    }
    case 4: {
      static const char *cmp[] = {"lt", "le", "gt", "ge", "eq", "ne", "ltu", "geu", "num", "nan"};
      std::string p = pr();
      return line({fmt::format("setp.{}{}.f32 {}, {}, {};", cmp[pick(10)], ftz, p, fr(), frOrImm()),
                   fmt::format("selp.f32 {}, {}, {}, {};", fr(), fr(), frOrImm(), p)});
    }
    case 5: return op(fmt::format("cvt.rn.f32.{}32 {}, {};", chance(50) ? "s" : "u", fr(), r()));
    case 6: {
      static const char *m[] = {"rzi", "rni", "rmi", "rpi"};
      return op(fmt::format("cvt.{}.{}32.f32 {}, {};", m[pick(4)], chance(50) ? "s" : "u", r(), fr()));
    }
    case 7: {
      // A NaN's bits are not observable exactly: PTX leaves abs/neg of a NaN unspecified and
      // ptxas gives the canonical NaN or the payload depending on context (seeds 242, 3038,
      // 3051), so every NaN reaches the integer side as 0x7fffffff.
      Stmt s = op(fmt::format("mov.b32 {}, {};", r(), fr()));
      const std::string &t = s.lines[0];
      size_t at = t.find("mov.b32 "), comma = t.find(", ", at);
      std::string guard = t.substr(0, at), dst = t.substr(at + 8, comma - at - 8),
                  src = t.substr(comma + 2, t.size() - comma - 3);
      s.lines = {fmt::format("testp.notanumber.f32 %pc{}, {};", s.id, src),
                 fmt::format("mov.b32 %t0, {};", src),
                 fmt::format("{}selp.b32 {}, 2147483647, %t0, %pc{};", guard, dst, s.id)};
      return s;
    }
    default: return op(fmt::format("mov.b32 {}, {};", fr(), r()));
    }
  }

  Stmt floatDivOp() {
    switch (pick(3)) {
    case 0: return op(fmt::format("div.rn.f32 {}, {}, {};", fr(), fr(), fr()));
    case 1: return op(fmt::format("sqrt.rn.f32 {}, {};", fr(), fr()));
    default: return op(fmt::format("rcp.rn.f32 {}, {};", fr(), fr()));
    }
  }

  // 8/16-bit and vector memory accesses.
  Stmt narrowMemOp() {
    static const char *ty[] = {"u8", "s8", "u16", "s16"};
    unsigned k = pick(4);
    unsigned align = k < 2 ? 1 : 2;
    switch (pick(3)) {
    case 0: {
      // From the input buffer at a byte offset, into a 32-bit or a 16-bit register.
      std::vector<std::string> l = {
          fmt::format("and.b32 %t0, {}, {};", r(), (p_.inWords * 4 - 1) & ~(align - 1)),
          "cvt.u64.u32 %td0, %t0;", "add.s64 %td0, %inp, %td0;"};
      if (chance(50)) {
        l.push_back(guard() + fmt::format("ld.global.{} {}, [%td0];", ty[k], r()));
      } else {
        l.push_back(fmt::format("ld.global.{} %h0, [%td0];", ty[k]));
        l.push_back(guard() + fmt::format("cvt.{}32.{}16 {}, %h0;", chance(50) ? "s" : "u",
                                          chance(50) ? "s" : "u", r()));
      }
      return line(l);
    }
    case 1: {
      // Bytes and halves of the .local array.
      std::vector<std::string> l = {
          fmt::format("and.b32 %t0, {}, {};", r(), (kLocalWords * 4 - 1) & ~(align - 1)),
          "cvt.u64.u32 %td0, %t0;", "mov.u64 %td1, loc;", "add.s64 %td1, %td1, %td0;"};
      std::string sty = k < 2 ? "b8" : "b16";
      if (chance(50)) l.push_back(guard() + fmt::format("st.local.{} [%td1], {};", sty, r()));
      else l.push_back(guard() + fmt::format("ld.local.{} {}, [%td1];", ty[k], r()));
      return line(l);
    }
    default: {
      // A vector load of two or four words.
      bool four = chance(50);
      unsigned n = four ? 4 : 2;
      std::vector<std::string> dst;
      unsigned first = pick(p_.intRegs);
      for (unsigned i = 0; i < n; ++i) dst.push_back(fmt::format("%r{}", (first + 3 * i) % p_.intRegs));
      std::string list = dst[0];
      for (unsigned i = 1; i < n; ++i) list += ", " + dst[i];
      return line({fmt::format("and.b32 %t0, {}, {};", r(), (p_.inWords - 1) & ~(n - 1)),
                   "mul.wide.u32 %td0, %t0, 4;", "add.s64 %td0, %inp, %td0;",
                   guard() + fmt::format("ld.global.v{}.u32 {{{}}}, [%td0];", n, list)});
    }
    }
  }

  // Atomics with a returned value on a slot only this thread touches (deterministic): its own
  // shared word (the exchange statement reads it only between its barriers) or a word of its
  // own output row (the epilogue overwrites it). (Shared ones are off: a kernel whose only shared
  // access is an atom gets a symbol table from ptxas that our cubin reader rejects, "unexpected
  // erased symbols", seed 660.)
  Stmt atomOp() {
    static const char *o[] = {"add.u32", "min.u32", "max.s32", "exch.b32", "and.b32", "or.b32",
                              "xor.b32", "inc.u32", "dec.u32", "min.s32", "max.u32"};
    std::vector<std::string> l;
    bool shared = false;
    if (shared) {
      l = {"shl.b32 %t0, %mytid, 2;", "mov.u32 %t1, sh;", "add.u32 %t0, %t1, %t0;"};
    } else {
      l = {fmt::format("and.b32 %t0, {}, {};", r(), p_.intRegs + p_.predRegs - 1),
           fmt::format("mad.lo.u32 %t0, %gid, {}, %t0;", p_.intRegs + p_.predRegs),
           "mul.wide.u32 %td0, %t0, 4;", "add.s64 %td0, %outp, %td0;"};
    }
    std::string addr = shared ? "[%t0]" : "[%td0]";
    std::string sp = shared ? "shared" : "global";
    if (chance(20))
      l.push_back(guard() + fmt::format("atom.{}.cas.b32 {}, {}, {}, {};", sp, r(), addr, r(), r()));
    else
      l.push_back(guard() + fmt::format("atom.{}.{} {}, {}, {};", sp, o[pick(11)], r(), addr, r()));
    return line(l);
  }

  Stmt memOp(bool converged) {
    if (f_.narrow && chance(15)) return atomOp();
    if (f_.narrow && chance(30)) return narrowMemOp();
    switch (pick(converged ? 4 : 3)) {
    case 0:
      return line({fmt::format("and.b32 %t0, {}, {};", r(), p_.inWords - 1),
                   "mul.wide.u32 %td0, %t0, 4;", "add.s64 %td0, %inp, %td0;",
                   fmt::format("ld.global.u32 {}, [%td0];", r())});
    case 1:
      // A 64-bit shared add of an immediate on one word (a CAS loop phase 50 runs once per warp).
      if (chance(15)) {
        static const uint64_t vals[] = {1, 3, 0xffffffffull, 0x100000001ull, 0xfffffffffffffff0ull};
        const uint64_t v = chance(50) ? vals[pick(5)] : rng_.next();
        return line({chance(50) ? fmt::format("red.shared.add.u64 [shacc], 0x{:x};", v)
                                : fmt::format("atom.shared.add.u64 %td1, [shacc], 0x{:x};", v)});
      }
      // A reduction target the same for every thread (a warp-aggregated atomic, phase 50).
      if (chance(40)) return line({fmt::format("red.global.add.u32 [%accp+{}], {};", 4 * pick(kAccWords), r())});
      return line({fmt::format("and.b32 %t0, {}, {};", r(), kAccWords - 1),
                   "mul.wide.u32 %td0, %t0, 4;", "add.s64 %td0, %accp, %td0;",
                   fmt::format("red.global.add.u32 [%td0], {};", r())});
    case 2:
      return line({fmt::format("and.b32 %t0, {}, {};", r(), kLocalWords - 1),
                   "mul.wide.u32 %td0, %t0, 4;", "mov.u64 %td1, loc;",
                   "add.s64 %td1, %td1, %td0;",
                   chance(50) ? fmt::format("st.local.u32 [%td1], {};", r())
                              : fmt::format("ld.local.u32 {}, [%td1];", r())});
    default:
      // Exchange through shared memory with another thread of the block.
      return line({"shl.b32 %t0, %mytid, 2;", "mov.u32 %t1, sh;", "add.u32 %t0, %t1, %t0;",
                   fmt::format("st.shared.u32 [%t0], {};", r()), "bar.sync 0;",
                   fmt::format("add.u32 %t2, %mytid, {};", 1 + pick(p_.block - 1)),
                   "rem.u32 %t2, %t2, %myntid;", "shl.b32 %t2, %t2, 2;", "add.u32 %t2, %t1, %t2;",
                   fmt::format("ld.shared.u32 {}, [%t2];", r()), "bar.sync 0;"});
    }
  }

  Stmt warpOp() {
    switch (pick(8)) {
    case 0: {
      static const char *mode[] = {"bfly", "up", "down", "idx"};
      unsigned m = pick(4);
      unsigned lane = m == 3 ? pick(32) : 1u << pick(5);
      unsigned c = m == 1 ? 0 : 0x1f;
      return line({fmt::format("shfl.sync.{}.b32 {}, {}, {}, {}, -1;", mode[m], r(), r(), lane, c)});
    }
    case 1: return line({fmt::format("vote.sync.ballot.b32 {}, {}, -1;", r(), pr())});
    case 2: return line({fmt::format("vote.sync.{}.pred {}, {}, -1;", chance(50) ? "any" : "all",
                                     pr(), pr())});
    case 3: {
      // Segments of 4..32 lanes, a register lane/offset, the in-range predicate.
      static const char *mode[] = {"bfly", "up", "down", "idx"};
      unsigned m = pick(4), w = 4u << pick(4);
      unsigned c = ((32 - w) << 8) | (m == 1 ? 0 : w - 1);
      std::vector<std::string> l;
      std::string lane = fmt::format("{}", pick(m == 3 ? 32 : w));
      if (chance(50)) {
        l.push_back(fmt::format("and.b32 %t0, {}, 31;", r()));
        lane = "%t0";
      }
      l.push_back(fmt::format("shfl.sync.{}.b32 {}|{}, {}, {}, {}, -1;", mode[m], r(), pr(), r(),
                              lane, c));
      return line(l);
    }
    case 4: return line({fmt::format("vote.sync.uni.pred {}, {}, -1;", pr(), pr())});
    case 5: {
      // Few distinct values, so that lanes match.
      std::vector<std::string> l = {fmt::format("and.b32 %t0, {}, {};", r(), chance(50) ? 1 : 3)};
      std::string v = "%t0";
      if (chance(30)) {
        l.push_back("cvt.u64.u32 %td0, %t0;");
        v = "%td0";
      }
      const char *ty = v == "%t0" ? "b32" : "b64";
      if (chance(50)) l.push_back(fmt::format("match.sync.any.{} {}, {}, -1;", ty, r(), v));
      else l.push_back(fmt::format("match.sync.all.{} {}|{}, {}, -1;", ty, r(), pr(), v));
      return line(l);
    }
    case 6: return line({fmt::format("activemask.b32 {};", r())});
    default: {
      static const char *ops[] = {"add.u32", "min.u32", "max.s32", "or.b32", "xor.b32", "and.b32",
                                  "min.s32", "max.u32"};
      return line({fmt::format("redux.sync.{} {}, {}, -1;", ops[pick(8)], r(), r())});
    }
    }
  }

  // Vector, generic-address and own-row accesses (`shared`: the block is converged, so a
  // shared-memory exchange with bar.sync is allowed).
  Stmt vecMemOp(bool shared) {
    // Distinct destinations of a vector load.
    auto dsts = [&](unsigned n) {
      unsigned first = pick(p_.intRegs);
      std::string list = fmt::format("%r{}", first);
      for (unsigned i = 1; i < n; ++i) list += fmt::format(", %r{}", (first + 3 * i) % p_.intRegs);
      return list;
    };
    auto srcs = [&](unsigned n) {
      std::string list = r();
      for (unsigned i = 1; i < n; ++i) list += ", " + r();
      return list;
    };
    // A store and a load of one width at `addr` (a 64-bit register, `space` state space).
    auto access = [&](std::vector<std::string> &l, const std::string &space, const std::string &addr,
                      unsigned kind, bool store) {
      switch (kind) {
      case 0:
        if (store) l.push_back(guard() + fmt::format("st{}.u32 [{}], {};", space, addr, r()));
        else l.push_back(guard() + fmt::format("ld{}.u32 {}, [{}];", space, r(), addr));
        break;
      case 1:
        if (store) l.push_back(guard() + fmt::format("st{}.v2.u32 [{}], {{{}}};", space, addr, srcs(2)));
        else l.push_back(guard() + fmt::format("ld{}.v2.u32 {{{}}}, [{}];", space, dsts(2), addr));
        break;
      case 2:
        if (store) l.push_back(guard() + fmt::format("st{}.v4.u32 [{}], {{{}}};", space, addr, srcs(4)));
        else l.push_back(guard() + fmt::format("ld{}.v4.u32 {{{}}}, [{}];", space, dsts(4), addr));
        break;
      case 3:
        if (store) {
          l.push_back(fmt::format("mov.b64 %te0, {{{}}};", srcs(2)));
          l.push_back(guard() + fmt::format("st{}.u64 [{}], %te0;", space, addr));
        } else {
          l.push_back(fmt::format("ld{}.u64 %te0, [{}];", space, addr));
          l.push_back(guard() + fmt::format("mov.b64 {{{}}}, %te0;", dsts(2)));
        }
        break;
      case 4:
        if (store) {
          l.push_back(fmt::format("mov.b64 %te0, {{{}}};", srcs(2)));
          l.push_back(fmt::format("mul.wide.u32 %te1, {}, {};", r(), r()));
          l.push_back(guard() + fmt::format("st{}.v2.u64 [{}], {{%te0, %te1}};", space, addr));
        } else {
          l.push_back(fmt::format("ld{}.v2.u64 {{%te0, %te1}}, [{}];", space, addr));
          l.push_back(fmt::format("xor.b64 %te0, %te0, %te1;"));
          l.push_back(guard() + fmt::format("mov.b64 {{{}}}, %te0;", dsts(2)));
        }
        break;
      case 5:
        // Four bytes / two halves from or into 32-bit registers.
        if (store) l.push_back(guard() + fmt::format("st{}.v4.b8 [{}], {{{}}};", space, addr, srcs(4)));
        else l.push_back(guard() + fmt::format("ld{}.v4.{}8 {{{}}}, [{}];", space, chance(50) ? "u" : "s", dsts(4), addr));
        break;
      default:
        if (store) l.push_back(guard() + fmt::format("st{}.v2.b16 [{}], {{{}}};", space, addr, srcs(2)));
        else l.push_back(guard() + fmt::format("ld{}.v2.{}16 {{{}}}, [{}];", space, chance(50) ? "u" : "s", dsts(2), addr));
        break;
      }
    };
    static const unsigned bytes[] = {4, 8, 16, 8, 16, 4, 4};
    std::vector<std::string> l;
    switch (pick(shared ? 5 : 4)) {
    case 0: {
      // The vector .local array, at a data-dependent aligned offset.
      unsigned k = pick(7);
      l = {fmt::format("and.b32 %t0, {}, {};", r(), (kLocvWords * 4 - 1) & ~(bytes[k] - 1)),
           "cvt.u64.u32 %td0, %t0;", "mov.u64 %td1, locv;", "add.s64 %td1, %td1, %td0;"};
      access(l, ".local", "%td1", k, chance(50));
      break;
    }
    case 1: {
      // Generic addresses (cvta) of the .local array, the thread's own shared word (stored first:
      // shared memory starts undefined) or the input buffer.
      switch (pick(3)) {
      case 0:
        l = {fmt::format("and.b32 %t0, {}, {};", r(), (kLocalWords - 1) * 4),
             "cvt.u64.u32 %td0, %t0;", "mov.u64 %td1, loc;", "add.s64 %td1, %td1, %td0;",
             "cvta.local.u64 %te0, %td1;"};
        access(l, "", "%te0", 0, chance(50));
        break;
      case 1: {
        static const char *ty[] = {"u8", "s8", "u16", "s16", "u32"};
        unsigned t = pick(5), off = t < 2 ? pick(4) : t < 4 ? 2 * pick(2) : 0;
        l = {"mov.u64 %td0, sh;", "cvta.shared.u64 %te0, %td0;", "mul.wide.u32 %td0, %mytid, 4;",
             "add.s64 %te0, %te0, %td0;", fmt::format("st.u32 [%te0], {};", r()),
             guard() + fmt::format("ld.{} {}, [%te0+{}];", ty[t], r(), off)};
        break;
      }
      default:
        l = {fmt::format("and.b32 %t0, {}, {};", r(), p_.inWords - 1),
             "mul.wide.u32 %td0, %t0, 4;", "add.s64 %td0, %inp, %td0;",
             "cvta.global.u64 %te1, %td0;", guard() + fmt::format("ld.u32 {}, [%te1];", r())};
        break;
      }
      break;
    }
    case 2: {
      // The thread's own output row (the epilogue overwrites it): a store, then a load of
      // another width at another offset.
      unsigned rowBytes = (p_.intRegs + p_.predRegs) * 4;
      l = {fmt::format("mul.wide.u32 %td0, %gid, {};", rowBytes), "add.s64 %td0, %outp, %td0;"};
      unsigned k = pick(7);
      l.push_back(fmt::format("and.b32 %t0, {}, {};", r(), (rowBytes - 1) & ~(bytes[k] - 1)));
      l.push_back("cvt.u64.u32 %td1, %t0;");
      l.push_back("add.s64 %td1, %td0, %td1;");
      access(l, ".global", "%td1", k, true);
      k = pick(7);
      l.push_back(fmt::format("and.b32 %t0, {}, {};", r(), (rowBytes - 1) & ~(bytes[k] - 1)));
      l.push_back("cvt.u64.u32 %td1, %t0;");
      l.push_back("add.s64 %td1, %td0, %td1;");
      access(l, ".global", "%td1", k, false);
      break;
    }
    case 3: {
      // Input loads of every width (read-only: .nc may be used).
      unsigned k = pick(7);
      l = {fmt::format("and.b32 %t0, {}, {};", r(), (p_.inWords * 4 - 1) & ~(bytes[k] - 1)),
           "cvt.u64.u32 %td0, %t0;", "add.s64 %td0, %inp, %td0;"};
      access(l, chance(30) ? ".global.nc" : ".global", "%td0", k, false);
      break;
    }
    default: {
      // Exchange of 16 bytes per thread through shared memory; the load takes a part of another
      // thread's slot.
      const char *bar = chance(70) ? "bar.sync 0;" : "barrier.sync 1;";
      l = {"shl.b32 %t0, %mytid, 4;", "mov.u32 %t1, shv;", "add.u32 %t0, %t1, %t0;",
           fmt::format("st.shared.v4.u32 [%t0], {{{}}};", srcs(4)), bar,
           fmt::format("add.u32 %t2, %mytid, {};", 1 + pick(p_.block - 1)),
           "rem.u32 %t2, %t2, %myntid;", "shl.b32 %t2, %t2, 4;", "add.u32 %t2, %t1, %t2;",
           "cvt.u64.u32 %td1, %t2;"};
      unsigned k = pick(7);
      std::string addr = "%td1";
      if (bytes[k] < 16) {
        l.push_back(fmt::format("add.s64 %td1, %td1, {};", bytes[k] * pick(16 / bytes[k])));
      }
      access(l, ".shared", addr, k, false);
      l.push_back(bar);
      break;
    }
    }
    return line(l);
  }

  // Calls of the module's device functions (printed when used): scalar, 64-bit, aggregate and
  // f32 parameters and results; fz_pair calls fz_mix.
  Stmt callStmt() {
    std::string g = chance(20) ? guard() : "";
    std::vector<std::string> l = {"{"};
    std::string call = g + (chance(30) ? "call.uni " : "call ");
    if (call.find(".uni") != std::string::npos && !g.empty()) call = g + "call ";
    switch (pick(4)) {
    case 0:
      l.insert(l.end(), {".param .b32 fa0;", ".param .b32 fa1;", ".param .b32 fr0;",
                         fmt::format("st.param.b32 [fa0], {};", r()),
                         fmt::format("st.param.b32 [fa1], {};", r()),
                         call + "(fr0), fz_mix, (fa0, fa1);",
                         "ld.param.b32 %t3, [fr0];", g + fmt::format("mov.b32 {}, %t3;", r())});
      break;
    case 1: {
      unsigned a = pick(p_.intRegs), b = (a + 1 + pick(p_.intRegs - 1)) % p_.intRegs;
      std::string lo = fmt::format("%r{}", a), hi = fmt::format("%r{}", b);
      l.insert(l.end(), {".param .b64 fa0;", ".param .b32 fa1;", ".param .b64 fr0;",
                         fmt::format("mov.b64 %te0, {{{}, {}}};", r(), r()),
                         "st.param.b64 [fa0], %te0;",
                         fmt::format("st.param.b32 [fa1], {};", r()),
                         call + "(fr0), fz_wide, (fa0, fa1);", "ld.param.b64 %te0, [fr0];",
                         g + fmt::format("mov.b64 {{{}, {}}}, %te0;", lo, hi)});
      break;
    }
    case 2: {
      unsigned a = pick(p_.intRegs), b = (a + 1 + pick(p_.intRegs - 1)) % p_.intRegs;
      l.insert(l.end(), {".param .align 8 .b8 fa0[8];", ".param .b32 fa1;",
                         ".param .align 8 .b8 fr0[8];",
                         chance(50) ? fmt::format("st.param.v2.b32 [fa0], {{{}, {}}};", r(), r())
                                    : fmt::format("st.param.b32 [fa0+4], {};", r()),
                         fmt::format("st.param.b32 [fa0+0], {};", r()),
                         fmt::format("st.param.b32 [fa1], {};", r()),
                         call + "(fr0), fz_pair, (fa0, fa1);",
                         "ld.param.v2.b32 {%t2, %t3}, [fr0];",
                         g + fmt::format("mov.b32 %r{}, %t2;", a),
                         g + fmt::format("mov.b32 %r{}, %t3;", b)});
      break;
    }
    default:
      l.insert(l.end(), {".param .b32 fa0;", ".param .b32 fa1;", ".param .b32 fr0;",
                         fmt::format("st.param.f32 [fa0], {};", fr()),
                         fmt::format("st.param.f32 [fa1], {};", fr()),
                         call + "(fr0), fz_flt, (fa0, fa1);",
                         "ld.param.b32 %t3, [fr0];", g + fmt::format("mov.b32 {}, %t3;", fr())});
      break;
    }
    l.push_back("}");
    return line(l);
  }

  // Many values defined up front (%v, %vd), live across the body (loops included), folded into
  // pool registers at the end: register pressure and spilling under -maxrregcount / .maxnreg.
  Stmt pressureBlock(int depth, bool converged) {
    Stmt s;
    s.kind = Stmt::Block;
    s.id = p_.nextId++;
    nv_ = 8 + pick(kMaxV - 7);
    nvd_ = pick(kMaxVd + 1);
    for (unsigned i = 0; i < nv_; ++i) {
      switch (pick(5)) {
      case 0: s.lines.push_back(fmt::format("mul.lo.s32 %v{}, {}, {};", i, r(), 2 * pick(1000) + 1)); break;
      case 1: s.lines.push_back(fmt::format("xor.b32 %v{}, {}, {};", i, r(), r())); break;
      case 2: s.lines.push_back(fmt::format("add.s32 %v{}, {}, {};", i, r(), imm())); break;
      case 3:
        if (i % 4 == 0 && i + 4 <= nv_) {
          s.lines.push_back(fmt::format("and.b32 %t0, {}, {};", r(), (p_.inWords - 1) & ~3u));
          s.lines.push_back("mul.wide.u32 %td0, %t0, 4;");
          s.lines.push_back("add.s64 %td0, %inp, %td0;");
          s.lines.push_back(fmt::format("ld.global.v4.u32 {{%v{}, %v{}, %v{}, %v{}}}, [%td0];", i,
                                        i + 1, i + 2, i + 3));
          i += 3;
          break;
        }
        [[fallthrough]];
      default:
        s.lines.push_back(fmt::format("and.b32 %t0, {}, {};", r(), p_.inWords - 1));
        s.lines.push_back("mul.wide.u32 %td0, %t0, 4;");
        s.lines.push_back("add.s64 %td0, %inp, %td0;");
        s.lines.push_back(fmt::format("ld.global.u32 %v{}, [%td0];", i));
        break;
      }
    }
    for (unsigned i = 0; i < nvd_; ++i) {
      if (chance(50)) s.lines.push_back(fmt::format("mul.wide.u32 %vd{}, {}, {};", i, r(), r()));
      else s.lines.push_back(fmt::format("mov.b64 %vd{}, {{{}, {}}};", i, r(), r()));
    }
    unsigned n = 1 + pick(3);
    for (unsigned i = 0; i < n; ++i) {
      if (f_.control && chance(40)) s.body.push_back(loopStmt(depth + 1, converged && !exited_));
      else s.body.push_back(stmt(depth, converged && !exited_));
    }
    for (unsigned i = 0; i < nv_; ++i) {
      static const char *o[] = {"add.s32", "xor.b32", "sub.s32"};
      std::string d = r();
      s.post.push_back(fmt::format("{} {}, {}, %v{};", o[pick(3)], d, d, i));
    }
    for (unsigned i = 0; i < nvd_; ++i) {
      s.post.push_back(fmt::format("mov.b64 {{%t0, %t1}}, %vd{};", i));
      std::string a = r(), b = r();
      s.post.push_back(fmt::format("add.s32 {}, {}, %t0;", a, a));
      s.post.push_back(fmt::format("xor.b32 {}, {}, %t1;", b, b));
    }
    nv_ = nvd_ = 0;
    return s;
  }

  // An update of the pressure block's values (only inside one).
  Stmt vUpdate() {
    unsigned i = pick(nv_), j = pick(nv_), k = pick(nv_);
    switch (pick(nvd_ ? 6 : 4)) {
    case 0: return op(fmt::format("mad.lo.s32 %v{}, %v{}, {}, %v{};", i, j, r(), k));
    case 1: return op(fmt::format("shf.l.wrap.b32 %v{}, %v{}, %v{}, {};", i, j, k, rOrImm()));
    case 2: return op(fmt::format("xor.b32 %v{}, %v{}, {};", i, i, r()));
    case 3: return op(fmt::format("add.s32 {}, {}, %v{};", r(), r(), i));
    case 4: {
      unsigned a = pick(nvd_), b = pick(nvd_);
      return op(fmt::format("{} %vd{}, %vd{}, %vd{};", chance(50) ? "add.s64" : "xor.b64", a, a, b));
    }
    default: {
      unsigned a = pick(nvd_);
      return line({fmt::format("mul.wide.u32 %te0, %v{}, {};", i, r()),
                   fmt::format("{}add.s64 %vd{}, %vd{}, %te0;", guard(), a, a)});
    }
    }
  }

  // A data-dependent break out of (or continue of) an enclosing loop, maybe not the innermost.
  Stmt jumpStmt() {
    Stmt s = line({});
    LoopCtx &L = loops_[pick(unsigned(loops_.size()))];
    bool brk = chance(60);
    if (!brk) L.cont = true;
    std::string target = fmt::format("{}{}", brk ? "LEND" : "LCONT", L.id);
    if (chance(30)) {
      s.lines = {fmt::format("@{}{} bra {};", chance(50) ? "!" : "", pr(), target)};
    } else {
      static const char *cmp[] = {"lt", "le", "gt", "ge", "eq", "ne"};
      s.lines = {fmt::format("setp.{}.{}32 %pc{}, {}, {};", cmp[pick(6)], chance(50) ? "s" : "u",
                             s.id, r(), rOrImm()),
                 fmt::format("@%pc{} bra {};", s.id, target)};
    }
    return s;
  }

  // Uses of an enclosing loop's iteration count.
  Stmt ivUse() {
    int id = loops_[pick(unsigned(loops_.size()))].id;
    if (chance(50)) return op(fmt::format("mad.lo.s32 {}, %lc{}, {}, {};", r(), id, imm(), r()));
    return line({fmt::format("add.u32 %t0, %lc{}, {};", id, r()),
                 fmt::format("and.b32 %t0, %t0, {};", (kLocalWords - 1) * 4),
                 "cvt.u64.u32 %td0, %t0;", "mov.u64 %td1, loc;", "add.s64 %td1, %td1, %td0;",
                 chance(50) ? fmt::format("st.local.u32 [%td1], {};", r())
                            : fmt::format("ld.local.u32 {}, [%td1];", r())});
  }

  // Some threads leave for the epilogue (DONE) early.
  Stmt exitStmt() {
    exited_ = true;
    return line({fmt::format("setp.{}.u32 %pc{}, {}, {};", chance(50) ? "lt" : "gt", p_.nextId,
                             r(), rOrImm()),
                 fmt::format("@%pc{} bra DONE;", p_.nextId)});
  }

  Stmt ifStmt(int depth) {
    Stmt s;
    s.kind = Stmt::If;
    s.id = p_.nextId++;
    static const char *cmp[] = {"lt", "le", "gt", "ge", "eq", "ne"};
    if (chance(25)) s.branchPred = (chance(50) ? "!" : "") + pr();
    else s.cond = fmt::format("setp.{}.{}32 %pc{}, {}, {};", cmp[pick(6)], chance(50) ? "s" : "u",
                              s.id, r(), rOrImm());
    unsigned n = 1 + pick(4);
    for (unsigned i = 0; i < n; ++i) s.body.push_back(stmt(depth + 1, false));
    if (chance(50)) {
      n = 1 + pick(3);
      for (unsigned i = 0; i < n; ++i) s.elseBody.push_back(stmt(depth + 1, false));
    }
    return s;
  }

  Stmt loopStmt(int depth, bool converged) {
    Stmt s;
    s.kind = Stmt::Loop;
    s.id = p_.nextId++;
    if (converged && chance(50)) s.trip = 1 + int(pick(4));
    else if (f_.control && chance(30)) s.whileReg = r();
    else s.tripReg = r();
    loops_.push_back({s.id, false});
    unsigned n = 1 + pick(5);
    for (unsigned i = 0; i < n; ++i) s.body.push_back(stmt(depth + 1, converged && s.trip > 0));
    s.cont = loops_.back().cont;
    loops_.pop_back();
    return s;
  }

  Stmt stmt(int depth, bool converged) {
    converged = converged && !exited_;
    if (f_.control && !loops_.empty() && chance(8)) return chance(70) ? jumpStmt() : ivUse();
    if (f_.control && pick(400) == 0) return exitStmt();
    if (nv_ > 0 && chance(25)) return vUpdate();
    if (f_.calls && chance(2)) return callStmt();
    if (f_.pressure && nv_ == 0 && depth == 0 && chance(3)) return pressureBlock(depth, converged);
    if (f_.memory && chance(5)) return vecMemOp(converged && depth == 0);
    for (;;) {
      unsigned k = pick(100);
      if (k < 40) {
        // A third of the integer statements are the narrow/extended kinds.
        if (f_.narrow && chance(35)) return chance(40) ? narrowOp() : extIntOp();
        return intOp();
      }
      if (k < 50 && f_.wide) return wideOp();
      if (k < 66 && f_.floats) {
        if (f_.half && chance(20)) return halfOp();
        if (f_.f64 && chance(20)) return f64Op();
        if (chance(20)) return extFloatOp();
        return floatOp();
      }
      if (k < 70 && f_.division) {
        if (f_.wide && chance(25)) return div64Op();
        return chance(50) || !f_.floats ? divOp() : floatDivOp();
      }
      if (k < 78 && f_.memory) return memOp(converged && depth == 0);
      if (k < 84 && f_.warp && converged && depth == 0) return warpOp();
      if (k < 92 && f_.control && depth < 2) return ifStmt(depth);
      if (k < 100 && f_.control && depth < 2) return loopStmt(depth, converged);
    }
  }
};

// The device functions callStmt calls (printed only when a call is left).
const char *const kFunctions = R"(// x ^ b*i into a stack frame, then (b & 7) data-dependent lookups; early return for b & 7 == 0.
.func (.param .b32 rv) fz_mix(.param .b32 a, .param .b32 b)
{
  .reg .b32 %ma, %mb, %mc, %mi, %mx;
  .reg .b64 %mo, %mq;
  .reg .pred %mp;
  .local .align 4 .b32 frame[8];
  ld.param.b32 %ma, [a];
  ld.param.b32 %mb, [b];
  and.b32 %mc, %mb, 7;
  setp.eq.u32 %mp, %mc, 0;
  @%mp bra MIX_EARLY;
  mov.u32 %mi, 0;
MIX_FILL:
  mul.lo.u32 %mx, %mb, %mi;
  xor.b32 %mx, %mx, %ma;
  mul.wide.u32 %mo, %mi, 4;
  mov.u64 %mq, frame;
  add.s64 %mq, %mq, %mo;
  st.local.u32 [%mq], %mx;
  add.u32 %mi, %mi, 1;
  setp.lt.u32 %mp, %mi, 8;
  @%mp bra MIX_FILL;
  mov.u32 %mi, 0;
  mov.u32 %mx, %ma;
MIX_SUM:
  shr.u32 %ma, %mx, 3;
  and.b32 %ma, %ma, 7;
  mul.wide.u32 %mo, %ma, 4;
  mov.u64 %mq, frame;
  add.s64 %mq, %mq, %mo;
  ld.local.u32 %ma, [%mq];
  mad.lo.s32 %mx, %mx, 3, %ma;
  add.u32 %mi, %mi, 1;
  setp.lt.u32 %mp, %mi, %mc;
  @%mp bra MIX_SUM;
  st.param.b32 [rv], %mx;
  ret;
MIX_EARLY:
  xor.b32 %ma, %ma, 0x5bd1e995;
  st.param.b32 [rv], %ma;
  ret;
}

// (s & 3) rounds of a 64-bit multiply-xorshift.
.func (.param .b64 rv) fz_wide(.param .b64 x, .param .b32 s)
{
  .reg .b64 %ww, %wy;
  .reg .b32 %wn, %wk;
  .reg .pred %wp;
  ld.param.b64 %ww, [x];
  ld.param.b32 %wn, [s];
  and.b32 %wn, %wn, 3;
  mov.u32 %wk, 0;
  setp.eq.u32 %wp, %wn, 0;
  @%wp bra WIDE_DONE;
WIDE_LOOP:
  mul.lo.s64 %ww, %ww, -7046029254386353131;
  cvt.u64.u32 %wy, %wk;
  add.s64 %ww, %ww, %wy;
  shr.u64 %wy, %ww, 29;
  xor.b64 %ww, %ww, %wy;
  add.u32 %wk, %wk, 1;
  setp.lt.u32 %wp, %wk, %wn;
  @%wp bra WIDE_LOOP;
WIDE_DONE:
  st.param.b64 [rv], %ww;
  ret;
}

// An aggregate in and out; calls fz_mix on one path.
.func (.param .align 8 .b8 rv[8]) fz_pair(.param .align 8 .b8 v[8], .param .b32 k)
{
  .reg .b32 %pu, %pv, %pk, %pm;
  .reg .pred %pp;
  ld.param.v2.b32 {%pu, %pv}, [v];
  ld.param.b32 %pk, [k];
  setp.lt.s32 %pp, %pk, 0;
  @%pp bra PAIR_NEG;
  {
  .param .b32 ca;
  .param .b32 cb;
  .param .b32 cr;
  st.param.b32 [ca], %pu;
  st.param.b32 [cb], %pk;
  call (cr), fz_mix, (ca, cb);
  ld.param.b32 %pm, [cr];
  }
  add.s32 %pu, %pv, %pm;
  sub.s32 %pv, %pm, %pk;
  bra.uni PAIR_OUT;
PAIR_NEG:
  min.s32 %pm, %pu, %pv;
  max.s32 %pv, %pu, %pv;
  mov.b32 %pu, %pm;
PAIR_OUT:
  st.param.b32 [rv], %pu;
  st.param.b32 [rv+4], %pv;
  ret;
}

.func (.param .b32 rv) fz_flt(.param .b32 x, .param .b32 y)
{
  .reg .f32 %fx, %fy, %fz;
  .reg .pred %fp;
  ld.param.f32 %fx, [x];
  ld.param.f32 %fy, [y];
  setp.gtu.f32 %fp, %fx, %fy;
  fma.rn.f32 %fz, %fx, %fy, 0f3F800000;
  @%fp sub.f32 %fz, %fz, %fx;
  st.param.f32 [rv], %fz;
  ret;
}

)";

void collectIds(const std::vector<Stmt> &v, std::vector<int> &out) {
  for (const Stmt &s : v) {
    out.push_back(s.id);
    collectIds(s.body, out);
    collectIds(s.elseBody, out);
  }
}

void printStmts(const std::vector<Stmt> &v, const std::set<int> &dropped, std::string &out,
                int indent) {
  std::string pad(size_t(2 * indent), ' ');
  for (const Stmt &s : v) {
    if (dropped.count(s.id)) continue;
    switch (s.kind) {
    case Stmt::Line:
      for (const std::string &l : s.lines) out += pad + l + "\n";
      break;
    case Stmt::If:
      if (!s.branchPred.empty()) {
        out += pad + fmt::format("@{} bra ELSE{};\n", s.branchPred, s.id);
      } else {
        out += pad + s.cond + "\n";
        out += pad + fmt::format("@!%pc{} bra ELSE{};\n", s.id, s.id);
      }
      printStmts(s.body, dropped, out, indent + 1);
      out += pad + fmt::format("bra.uni END{};\n", s.id);
      out += fmt::format("ELSE{}:\n", s.id);
      printStmts(s.elseBody, dropped, out, indent + 1);
      out += fmt::format("END{}:\n", s.id);
      break;
    case Stmt::Block:
      for (const std::string &l : s.lines) out += pad + l + "\n";
      printStmts(s.body, dropped, out, indent + 1);
      for (const std::string &l : s.post) out += pad + l + "\n";
      break;
    case Stmt::Loop:
      if (s.trip) out += pad + fmt::format("mov.u32 %lt{}, {};\n", s.id, s.trip);
      else if (!s.whileReg.empty()) out += pad + fmt::format("and.b32 %lt{}, {}, 0x1ff;\n", s.id, s.whileReg);
      else out += pad + fmt::format("and.b32 %lt{}, {}, 3;\n", s.id, s.tripReg);
      out += pad + fmt::format("mov.u32 %lc{}, 0;\n", s.id);
      out += fmt::format("LOOP{}:\n", s.id);
      if (!s.whileReg.empty()) out += pad + fmt::format("setp.eq.u32 %pl{}, %lt{}, 0;\n", s.id, s.id);
      else out += pad + fmt::format("setp.ge.u32 %pl{}, %lc{}, %lt{};\n", s.id, s.id, s.id);
      out += pad + fmt::format("@%pl{} bra LEND{};\n", s.id, s.id);
      printStmts(s.body, dropped, out, indent + 1);
      if (s.cont) out += fmt::format("LCONT{}:\n", s.id);
      if (!s.whileReg.empty()) {
        // Clear the lowest set bit: popc(whileReg & 0x1ff) iterations.
        out += pad + fmt::format("sub.u32 %lw{}, %lt{}, 1;\n", s.id, s.id);
        out += pad + fmt::format("and.b32 %lt{}, %lt{}, %lw{};\n", s.id, s.id, s.id);
      }
      out += pad + fmt::format("add.u32 %lc{}, %lc{}, 1;\n", s.id, s.id);
      out += pad + fmt::format("bra.uni LOOP{};\n", s.id);
      out += fmt::format("LEND{}:\n", s.id);
      break;
    }
  }
}

} // namespace

Program generate(uint64_t seed, const Features &f) {
  Program p;
  p.seed = seed;
  sim::Rng rng(seed ^ 0x5eed);
  static const unsigned blocks[] = {32, 64, 96, 128};
  p.block = blocks[rng.next() % 4];
  p.grid = 1 + unsigned(rng.next() % 2);
  if (f.pressure && rng.next() % 8 == 0) {
    static const unsigned regs[] = {24, 32, 40, 64};
    p.maxnreg = regs[rng.next() % 4];
  }
  Gen(p, f).run();
  return p;
}

std::vector<int> Program::ids() const {
  std::vector<int> out;
  collectIds(body, out);
  return out;
}

std::string Program::ptx(const std::set<int> &dropped) const {
  std::string body;
  printStmts(this->body, dropped, body, 1);
  // Declarations only the statements left in use need (so older kinds print as before).
  bool calls = body.find("call") != std::string::npos;
  bool locv = body.find("locv") != std::string::npos;
  bool shv = body.find("shv") != std::string::npos;
  bool done = body.find("bra DONE") != std::string::npos;
  bool pressure = body.find("%v") != std::string::npos || body.find("%te") != std::string::npos;
  std::string s;
  s += fmt::format("// ptx-fuzz program, seed {}\n", seed);
  s += ".version 8.0\n.target sm_90\n.address_size 64\n\n";
  s += fmt::format(".shared .align 4 .b32 sh[{}];\n", block);
  if (shv) s += fmt::format(".shared .align 16 .b32 shv[{}];\n", 4 * block);
  s += ".shared .align 8 .b64 shacc;   // 64-bit shared adds, summed into acc's last two words\n\n";
  if (calls) s += kFunctions;
  s += ".visible .entry fuzz(.param .u64 pin, .param .u64 pout, .param .u64 pfout, "
       ".param .u64 pacc)\n";
  if (maxnreg) s += fmt::format(".maxnreg {}\n", maxnreg);
  s += "{\n";
  s += fmt::format("  .reg .b32 %r<{}>;\n  .reg .f32 %f<{}>;\n  .reg .pred %p<{}>;\n", intRegs,
                   floatRegs, predRegs);
  s += "  .reg .b32 %t<4>;\n  .reg .b64 %td<2>;\n  .reg .b16 %h<2>;\n  .reg .f64 %fd<2>;\n  .reg .b32 %mytid, %myntid, %gid, %base;\n";
  s += "  .reg .b64 %inp, %outp, %foutp, %accp, %addr;\n  .reg .pred %pz;\n";
  int maxId = nextId;
  s += fmt::format("  .reg .pred %pc<{}>;\n  .reg .pred %pl<{}>;\n", maxId + 1, maxId + 1);
  s += fmt::format("  .reg .b32 %lc<{}>;\n  .reg .b32 %lt<{}>;\n", maxId + 1, maxId + 1);
  s += fmt::format("  .local .align 4 .b32 loc[{}];\n", kLocalWords);
  if (locv) s += fmt::format("  .local .align 16 .b32 locv[{}];\n", kLocvWords);
  if (pressure)
    s += fmt::format("  .reg .b32 %v<{}>;\n  .reg .b64 %vd<{}>;\n  .reg .b64 %te<2>;\n", kMaxV, kMaxVd);
  if (body.find("%lw") != std::string::npos) s += fmt::format("  .reg .b32 %lw<{}>;\n", maxId + 1);
  s += "\n";
  s += "  ld.param.u64 %inp, [pin];\n  cvta.to.global.u64 %inp, %inp;\n";
  s += "  ld.param.u64 %outp, [pout];\n  cvta.to.global.u64 %outp, %outp;\n";
  s += "  ld.param.u64 %foutp, [pfout];\n  cvta.to.global.u64 %foutp, %foutp;\n";
  s += "  ld.param.u64 %accp, [pacc];\n  cvta.to.global.u64 %accp, %accp;\n";
  s += "  mov.u32 %mytid, %tid.x;\n  mov.u32 %myntid, %ntid.x;\n  mov.u32 %t0, %ctaid.x;\n";
  s += "  mad.lo.u32 %gid, %t0, %myntid, %mytid;\n";
  s += "  setp.eq.u32 %pz, %mytid, 0;\n  @%pz st.shared.u64 [shacc], 0;\n  bar.sync 0;\n";
  // Pool registers from the input (integers, float bits, predicates from low bits).
  unsigned perThread = intRegs + floatRegs;
  s += fmt::format("  mul.lo.u32 %base, %gid, {};\n", perThread);
  for (unsigned i = 0; i < perThread; ++i) {
    s += fmt::format("  add.u32 %t0, %base, {};\n  and.b32 %t0, %t0, {};\n", i, inWords - 1);
    s += "  mul.wide.u32 %td0, %t0, 4;\n  add.s64 %addr, %inp, %td0;\n";
    if (i < intRegs) s += fmt::format("  ld.global.u32 %r{}, [%addr];\n", i);
    else s += fmt::format("  ld.global.f32 %f{}, [%addr];\n", i - intRegs);
  }
  for (unsigned i = 0; i < predRegs; ++i)
    s += fmt::format("  and.b32 %t0, %r{}, {};\n  setp.ne.u32 %p{}, %t0, 0;\n", i % intRegs,
                     1u << i, i);
  s += "  mov.u32 %t0, 0;\n";
  for (unsigned i = 0; i < kLocalWords; ++i) s += fmt::format("  st.local.u32 [loc+{}], %t0;\n", 4 * i);
  if (locv)
    for (unsigned i = 0; i < kLocvWords; i += 4)
      s += fmt::format("  st.local.v4.u32 [locv+{}], {{%t0, %t0, %t0, %t0}};\n", 4 * i);
  s += "\n";
  s += body;
  s += "\n";
  if (done) s += "DONE:\n";
  s += fmt::format("  bar.sync 0;\n  @%pz ld.shared.u64 %td0, [shacc];\n  @%pz red.global.add.u64 [%accp+{}], %td0;\n",
                   4 * kAccWords);
  // Epilogue: every pool register to the outputs.
  unsigned outInts = intRegs + predRegs;
  s += fmt::format("  mul.lo.u32 %base, %gid, {};\n", outInts);
  for (unsigned i = 0; i < outInts; ++i) {
    s += fmt::format("  add.u32 %t0, %base, {};\n  mul.wide.u32 %td0, %t0, 4;\n", i);
    s += "  add.s64 %addr, %outp, %td0;\n";
    if (i < intRegs) s += fmt::format("  st.global.u32 [%addr], %r{};\n", i);
    else
      s += fmt::format("  selp.u32 %t1, 1, 0, %p{};\n  st.global.u32 [%addr], %t1;\n", i - intRegs);
  }
  s += fmt::format("  mul.lo.u32 %base, %gid, {};\n", floatRegs);
  for (unsigned i = 0; i < floatRegs; ++i) {
    s += fmt::format("  add.u32 %t0, %base, {};\n  mul.wide.u32 %td0, %t0, 4;\n", i);
    s += fmt::format("  add.s64 %addr, %foutp, %td0;\n  st.global.f32 [%addr], %f{};\n", i);
  }
  s += "  ret;\n}\n";
  return s;
}

std::string Program::spec() const {
  unsigned threads = block * grid;
  std::string s = fmt::format("# ptx-fuzz program, seed {}\nkernel fuzz\ngrid {}\nblock {}\n",
                              seed, grid, block);
  s += fmt::format("param in buffer u32 {} random 0 4294967295\n", inWords);
  s += fmt::format("param out buffer u32 {} zeros output\n", threads * (intRegs + predRegs));
  s += fmt::format("param fout buffer f32 {} zeros output\n", threads * floatRegs);
  s += fmt::format("param acc buffer u32 {} zeros output\n", kAccWords + 2);
  return s;
}

} // namespace optxas::fuzz
