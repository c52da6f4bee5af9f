// Static checks of the form tables (sm_90 and the Blackwell tables derived from it), and the
// sampled encode/decode round trip of every form.
#include "optxas/sass/Codec.h"
#include "optxas/sass/Sampler.h"
#include "sass/FormTable.h"

#include <gtest/gtest.h>

using namespace optxas::sass;
using namespace optxas::sass::tbl;

namespace {
int popcount(const Word &w) { return __builtin_popcountll(w[0]) + __builtin_popcountll(w[1]); }
// Two forms are told apart by a modifier field they share whose raw values do not overlap.
bool disjointByField(const Form &a, const Form &b) {
  for (const Elem &x : a.elems)
    for (const Elem &y : b.elems) {
      if (x.kind != ElemKind::Mod || y.kind != ElemKind::Mod || !x.field.valid() ||
          x.field.pos != y.field.pos || x.field.width != y.field.width)
        continue;
      bool overlap = false;
      for (const ModValue &u : x.values)
        for (const ModValue &v : y.values)
          overlap |= u.raw == v.raw;
      if (!overlap)
        return true;
    }
  return false;
}
// Every table: sm_90 and the derived sm_100/sm_120 tables.
const Target kTargets[] = {Target::SM90, Target::SM100, Target::SM120, Target::SM80, Target::SM86, Target::SM89};
bool compatible(const Form &a, const Form &b) {
  for (int i = 0; i < 2; ++i)
    if ((a.fixedBits[i] ^ b.fixedBits[i]) & a.fixedMask[i] & b.fixedMask[i])
      return false;
  return true;
}
} // namespace

TEST(FormTable, Sm90Exists) {
  const FormTable *t = tableFor(Target::SM90);
  ASSERT_NE(t, nullptr);
  EXPECT_GT(t->forms().size(), 50u);
  EXPECT_EQ(tableFor(Target::SM75), nullptr);
  for (Target tg : {Target::SM80, Target::SM86, Target::SM89}) {
    const FormTable *a = tableFor(tg);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->urzRaw, URZ);
    EXPECT_TRUE(a->formsOf(optxas::isa::Opcode::VIMNMX).empty());   // Hopper's; Ampere has IMNMX
    EXPECT_FALSE(a->formsOf(optxas::isa::Opcode::IMNMX).empty());
  }
  for (Target tg : {Target::SM100, Target::SM120}) {
    const FormTable *b = tableFor(tg);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->urzRaw, 255);
  }
}

TEST(FormTable, FixedBitsDoNotOverlapFields) {
  // A field of a form must not also be a fixed bit of the same form.
  for (Target tg : kTargets)
  for (const Form &f : tableFor(tg)->forms()) {
    Word fields{0, 0};
    for (const Elem &e : f.elems) {
      for (Field x : {e.field, e.fieldHi, e.selField, e.mem.base, e.mem.ur, e.mem.offset,
                      e.mem.scale, e.cb.bank, e.cb.offset, e.cb.index})
        if (x.valid()) {
          Word m = fieldMask(x);
          EXPECT_FALSE((m[0] & f.fixedMask[0]) || (m[1] & f.fixedMask[1]))
              << f.syntax << ": field at bit " << int(x.pos) << " overlaps fixed bits";
          fields[0] |= m[0];
          fields[1] |= m[1];
        }
    }
  }
}

TEST(FormTable, OverlappingFormsAreStrictlyOrdered) {
  // Two forms a word could match must differ in specificity (the decoder tries the form with
  // more fixed bits first) or in the values of a shared modifier field, so that the decoder is
  // never left to guess.
  for (Target tg : kTargets) {
  const auto &forms = tableFor(tg)->forms();
  for (size_t i = 0; i < forms.size(); ++i)
    for (size_t j = i + 1; j < forms.size(); ++j) {
      const Form &a = forms[i], &b = forms[j];
      if ((a.fixedBits[0] & 0xfff) != (b.fixedBits[0] & 0xfff) || !compatible(a, b) ||
          disjointByField(a, b))
        continue;
      EXPECT_NE(popcount(a.fixedMask), popcount(b.fixedMask))
          << "ambiguous forms: " << a.syntax << " / " << b.syntax;
    }
  }
}

TEST(FormTable, EveryFormRoundTripsThroughEncodeDecode) {
  for (Target tg : kTargets) {
  auto samples = sampleForms(tg, 7, 8);
  ASSERT_FALSE(samples.empty());
  size_t n = 0;
  for (const Sample &s : samples) {
    EncodeResult e = encode(s.inst, tg);
    ASSERT_TRUE(e) << s.form << ": " << e.error;
    DecodeResult d = decode(e.bits, tg);
    ASSERT_TRUE(d) << s.form << ": " << d.error;
    EXPECT_EQ(d.inst, s.inst) << s.form << " decodes differently: " << print(d.inst, tg).text
                              << " vs " << print(s.inst, tg).text;
    EncodeResult e2 = encode(d.inst, tg);
    ASSERT_TRUE(e2);
    EXPECT_EQ(e2.bits, e.bits) << s.form;
    ++n;
  }
  EXPECT_EQ(n, samples.size());
  }
}

TEST(FormTable, PrintedTextParsesBack) {
  for (Target tg : kTargets)
  for (const Sample &s : sampleForms(tg, 11, 4)) {
    TextResult t = print(s.inst, tg, 0x100);
    ASSERT_TRUE(t) << s.form << ": " << t.error;
    ParseResult p = parse(t.text, tg, 0x100);
    ASSERT_TRUE(p) << s.form << ": " << p.error << " in '" << t.text << "'";
    p.inst.ctrl = s.inst.ctrl;
    TextResult t2 = print(p.inst, tg, 0x100);
    ASSERT_TRUE(t2) << t2.error;
    EXPECT_EQ(t2.text, t.text) << s.form;
  }
}
