// Atomics, barriers/fences, warp-synchronous instructions, async copies and small extras.
#include "KernelRun.h"

using namespace optxas;
using namespace optxas::lower::test;

namespace {

const char *kSharedDecl = ".shared .align 8 .b8 sh[64];";

TEST(AtomicOps, GlobalAtomicsSelectAtomgWithTypeAndScope) {
  Lowered l(kernel(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  atom.global.add.u32 %r1, [%rd1], 1;\n"
                   "  atom.global.cas.b32 %r2, [%rd1+4], %r1, 5;\n  atom.global.max.s64 %rd2, [%rd1+8], %rd1;\n"
                   "  atom.global.add.f32 %r3, [%rd1+16], 0f3F800000;\n  atom.acq_rel.sys.global.exch.b32 %r4, [%rd1], %r1;\n"
                   "  red.global.add.u32 [%rd1], %r1;\n  atom.add.u32 %r5, [%rd1], %r1;\n"
                   "  atom.global.add.noftz.f16x2 %r6, [%rd1], %r1;"));
  auto a = l.find(Opcode::ATOMG);
  ASSERT_EQ(a.size(), 6u) << l.text();
  for (auto *i : a) {
    EXPECT_TRUE(isPT(i->def(0)));
    EXPECT_TRUE(i->mods().wide);
    EXPECT_EQ(i->mods().order, isa::MemOrder::RELAXED);
  }
  EXPECT_EQ(a[0]->mods().atom, isa::AtomOp::ADD);
  EXPECT_EQ(a[0]->mods().scope, isa::Scope::GPU);
  EXPECT_EQ(a[0]->use(0).cls, ori::RegClass::UR);   // desc
  EXPECT_EQ(a[1]->mods().atom, isa::AtomOp::CAS);
  EXPECT_EQ(a[1]->use(0).kind, OperandKind::Addr);    // CAS: no descriptor
  EXPECT_EQ(a[1]->numUses(), 3u);
  EXPECT_EQ(a[2]->mods().atomType, isa::AtomType::S64);
  EXPECT_EQ(widthOf(l.fn(), a[2]->def(1)), 2u);
  EXPECT_EQ(a[3]->mods().atomType, isa::AtomType::F32);   // spelled .F32.FTZ.RN by the type
  EXPECT_EQ(a[3]->mods().round, isa::Round::None);
  EXPECT_EQ(a[4]->mods().scope, isa::Scope::SYS);
  EXPECT_EQ(a[4]->prev()->opcode(), Opcode::MEMBAR);   // release half
  EXPECT_EQ(a[4]->next()->opcode(), Opcode::CCTL);     // acquire half
  EXPECT_EQ(a[5]->mods().atomType, isa::AtomType::F16x2);
  EXPECT_EQ(l.count(Opcode::REDG), 1u);
  EXPECT_EQ(l.count(Opcode::ATOM), 1u);
}

TEST(AtomicOps, SharedAtomicsAndCasLoops) {
  Lowered l(kernel("", "  mov.u32 %r1, %tid.x;\n  atom.shared.add.u32 %r2, [sh], %r1;\n  red.shared.add.u32 [sh+4], %r1;\n"
                       "  atom.shared.add.f32 %r3, [sh+8], %r2;\n  atom.shared.add.u64 %rd1, [sh+16], %rd1;",
                   kSharedDecl), false);
  ASSERT_TRUE(l.module) << l.all();
  auto a = l.find(Opcode::ATOMS);
  ASSERT_EQ(a.size(), 4u) << l.text();
  EXPECT_EQ(a[0]->mods().atom, isa::AtomOp::ADD);
  EXPECT_TRUE(isRZ(a[1]->def(0)));   // red: no result
  EXPECT_EQ(a[2]->mods().atom, isa::AtomOp::CAST_SPIN);
  EXPECT_EQ(a[3]->mods().atomType, isa::AtomType::U64);
  EXPECT_EQ(l.count(Opcode::FADD), 1u);
  // Each loop branches back to its own block.
  int backEdges = 0;
  for (auto *b : l.find(Opcode::BRA))
    if (b->use(0).block == b->parent()) ++backEdges;
  EXPECT_EQ(backEdges, 2);
}

TEST(AtomicOps, AGuardedCasLoopWritesItsResultUnderTheGuard) {
  // A lane whose guard is false skips the loop and keeps its destination: every read of a loop's
  // old value after the loop (the copy or shift into d) carries the atomic's guard.
  Lowered l(kernel("", "  mov.u32 %r1, %tid.x;\n  setp.ne.u32 %p1, %r1, 0;\n  mov.u64 %rd1, 7;\n  mov.u32 %r3, 9;\n"
                       "  mov.b16 %h1, 0x3c00;\n  mov.b16 %h2, 0x4000;\n"
                       "  @%p1 atom.shared.add.u64 %rd1, [sh+16], 5;\n  @%p1 atom.shared.add.f32 %r3, [sh+8], %r1;\n"
                       "  @%p1 atom.shared.add.noftz.f16 %h2, [sh+4], %h1;\n"
                       "  st.shared.u64 [sh+24], %rd1;\n  st.shared.u32 [sh+32], %r3;\n  st.shared.b16 [sh+36], %h2;",
                   kSharedDecl), false);
  ASSERT_TRUE(l.module) << l.all();
  auto isLoop = [](const ori::BasicBlock *bb) {
    const ori::Instr *t = bb->back();
    return t && t->opcode() == Opcode::BRA && t->use(0).kind == OperandKind::Label && t->use(0).block == bb;
  };
  int results = 0;
  for (auto *ld : l.find(Opcode::LDS)) {
    const ori::VRegId old = ld->def(0).reg;
    for (ori::BasicBlock *bb : l.fn().blocks())
      for (ori::Instr *i : *bb) {
        if (isLoop(bb)) continue;
        bool reads = false;
        for (const ori::Operand &o : i->uses()) reads = reads || (o.refersToVReg() && o.reg == old);
        if (!reads) continue;
        ++results;
        EXPECT_TRUE(i->isPredicated() && i->guard().reg != ori::kNoVReg && !i->guard().hasFlag(ori::OpNot)) << l.text();
      }
  }
  EXPECT_GE(results, 3);
}

TEST(AtomicOps, HalfAtomicsAreCasLoopsOnTheAlignedWord) {
  Lowered l(kernel(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  mov.b16 %h1, 0x3c00;\n"
                   "  atom.global.add.noftz.f16 %h2, [%rd1+2], %h1;\n  red.add.noftz.bf16 [%rd1], %h1;\n"
                   "  atom.global.cta.add.u32 %r1, [%rd1], 1;"));
  auto cas = l.find(Opcode::ATOMG);
  ASSERT_EQ(cas.size(), 2u) << l.text();
  EXPECT_EQ(cas[0]->mods().atom, isa::AtomOp::CAS);
  // The unaligned address rides on the CAS as a fourth, unencoded use (ATOM16_EMUL_INSTR_REG_MAP).
  ASSERT_EQ(cas[0]->numUses(), 4u);
  EXPECT_TRUE(isReg(cas[0]->use(3)));
  EXPECT_EQ(cas[1]->mods().scope, isa::Scope::SM);   // .cta -> .STRONG.SM
  auto gen = l.find(Opcode::ATOM);
  ASSERT_EQ(gen.size(), 1u);
  EXPECT_EQ(gen[0]->mods().atom, isa::AtomOp::CAS);
  auto adds = l.find(Opcode::HADD2);
  ASSERT_EQ(adds.size(), 2u);
  EXPECT_EQ(adds[1]->mods().floatType, isa::FloatType::BF16x2);
  EXPECT_EQ(l.count(Opcode::LDG), 1u);   // the first value of the global loop
  EXPECT_EQ(l.count(Opcode::LD), 1u);    // and of the generic one
  int backEdges = 0;
  for (auto *b : l.find(Opcode::BRA))
    if (b->use(0).block == b->parent()) ++backEdges;
  EXPECT_EQ(backEdges, 2);
}

TEST(SyncOps, BarriersAndFences) {
  Lowered l(kernel(".param .u32 a",
                   "  ld.param.u32 %r1, [a];\n  bar.sync 0;\n  bar.sync 1, 64;\n  barrier.sync %r1;\n  bar.arrive 2, 32;\n"
                   "  setp.eq.s32 %p1, %r1, 0;\n  bar.red.popc.u32 %r2, 0, %p1;\n  bar.red.or.pred %p2, 0, !%p1;\n"
                   "  membar.cta;\n  membar.gl;\n  fence.acq_rel.cta;\n  fence.proxy.async.shared::cta;\n"
                   "  bar.warp.sync -1;\n  nanosleep.u32 100;\n  griddepcontrol.wait;"));
  auto bars = l.find(Opcode::BAR);
  ASSERT_EQ(bars.size(), 6u) << l.text();
  EXPECT_EQ(bars[0]->mods().bar, isa::BarMode::SYNC);
  EXPECT_TRUE(bars[0]->mods().defer);
  EXPECT_TRUE(isImm(bars[0]->use(0), 0));
  EXPECT_EQ(bars[1]->numUses(), 2u);
  EXPECT_TRUE(isReg(bars[2]->use(0)));
  EXPECT_EQ(bars[3]->mods().bar, isa::BarMode::ARV);
  EXPECT_EQ(bars[4]->mods().bar, isa::BarMode::RED_POPC);
  EXPECT_EQ(bars[4]->next()->opcode(), Opcode::B2R);
  EXPECT_EQ(bars[5]->mods().bar, isa::BarMode::RED_OR);
  EXPECT_TRUE(bars[5]->use(1).hasFlag(ori::OpNot));
  auto mb = l.find(Opcode::MEMBAR);
  ASSERT_EQ(mb.size(), 4u);
  EXPECT_EQ(mb[0]->mods().fence, isa::FenceMode::SC);
  EXPECT_EQ(mb[0]->mods().scope, isa::Scope::CTA);
  EXPECT_EQ(mb[1]->mods().scope, isa::Scope::GPU);
  EXPECT_EQ(mb[1]->next()->opcode(), Opcode::ERRBAR);
  EXPECT_EQ(mb[2]->mods().fence, isa::FenceMode::ALL);
  EXPECT_EQ(l.first(Opcode::FENCE)->mods().fence, isa::FenceMode::VIEW_ASYNC_S);
  EXPECT_EQ(l.count(Opcode::NANOSLEEP), 1u);
  EXPECT_EQ(l.count(Opcode::ACQBULK), 1u);
}

TEST(WarpOps, ShuffleVoteMatchRedux) {
  Lowered l(kernel(".param .u32 a",
                   "  ld.param.u32 %r1, [a];\n  shfl.sync.down.b32 %r2|%p1, %r1, 1, 31, -1;\n"
                   "  vote.sync.ballot.b32 %r3, %p1, -1;\n  vote.sync.all.pred %p2, !%p1, %r1;\n"
                   "  match.any.sync.b64 %r4, %rd1, -1;\n  redux.sync.min.s32 %r5, %r1, -1;\n  activemask.b32 %r6;"), false);
  ASSERT_TRUE(l.module) << l.all();
  ori::Instr *s = l.first(Opcode::SHFL);
  ASSERT_TRUE(s) << l.text();
  EXPECT_EQ(s->mods().shfl, isa::ShflMode::DOWN);
  EXPECT_TRUE(isReg(s->def(0)));   // the predicate output first
  EXPECT_EQ(s->def(0).cls, ori::RegClass::P);
  EXPECT_TRUE(isImm(s->use(1), 1));
  EXPECT_TRUE(isImm(s->use(2), 31));
  auto votes = l.find(Opcode::VOTE);
  ASSERT_EQ(votes.size(), 3u);
  EXPECT_EQ(votes[0]->def(0).cls, ori::RegClass::R);   // ballot
  EXPECT_TRUE(isRZ(votes[1]->def(0)));
  EXPECT_EQ(votes[1]->mods().vote, isa::VoteMode::ALL);
  EXPECT_TRUE(votes[1]->use(0).hasFlag(ori::OpNot));
  EXPECT_TRUE(isPT(votes[2]->use(0)));                  // activemask
  ori::Instr *m = l.first(Opcode::MATCH);
  EXPECT_TRUE(m->mods().u64);
  ori::Instr *r = l.first(Opcode::REDUX);
  EXPECT_EQ(r->def(0).cls, ori::RegClass::UR);
  EXPECT_EQ(r->mods().intType, isa::IntType::S32);
  // Every .sync instruction is preceded by WARPSYNC of its member mask.
  for (Opcode op : {Opcode::SHFL, Opcode::MATCH, Opcode::REDUX})
    EXPECT_EQ(l.first(op)->prev()->opcode(), Opcode::WARPSYNC);
  EXPECT_TRUE(isReg(votes[1]->prev()->use(0)));   // the mask register %r1
}

TEST(AsyncCopy, CpAsyncIsLdgsts) {
  Lowered l(kernel(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, sh;\n  cp.async.cg.shared.global [%r1], [%rd1], 16;\n"
                   "  cp.async.ca.shared.global [%r1+16], [%rd1+16], 4, %r1;\n  cp.async.commit_group;\n"
                   "  cp.async.wait_group 1;",
                   kSharedDecl));
  auto v = l.find(Opcode::LDGSTS);
  ASSERT_EQ(v.size(), 2u) << l.text();
  EXPECT_TRUE(v[0]->mods().bypass);
  EXPECT_EQ(v[0]->mods().memType, isa::MemType::B128);
  EXPECT_EQ(v[0]->use(1).cls, ori::RegClass::UR);
  EXPECT_TRUE(v[1]->mods().zfill);
  EXPECT_EQ(v[1]->numUses(), 4u);
  EXPECT_EQ(l.count(Opcode::LDGDEPBAR), 1u);
  auto d = l.first(Opcode::DEPBAR);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->numUses(), 1u);   // DEPBAR.LE SB0, 1: the form spells .LE SB0
  EXPECT_TRUE(isImm(d->use(0), 1));
}

TEST(Extras, IsspacepElectDpPrmtModes) {
  Lowered l(kernel(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  isspacep.shared %p1, %rd1;\n  isspacep.global %p2, %rd1;\n"
                   "  elect.sync _|%p3, 0xffffffff;\n  mov.u32 %r1, 5;\n  dp4a.u32.s32 %r2, %r1, %r1, %r1;\n  dp2a.hi.s32.u32 %r3, %r1, %r1, 0;\n"
                   "  prmt.b32.ecl %r4, %r1, %r2, %r3;\n  mov.u32 %r5, %reserved_smem_offset_1;"));
  auto q = l.find(Opcode::QSPC);
  ASSERT_EQ(q.size(), 2u) << l.text();
  EXPECT_EQ(q[0]->mods().space, isa::Space::SHARED);
  EXPECT_EQ(q[1]->mods().space, isa::Space::GLOBAL);
  ori::Instr *e = l.first(Opcode::ELECT);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->def(1).cls, ori::RegClass::UR);
  auto idp = l.find(Opcode::IDP);
  ASSERT_EQ(idp.size(), 2u);
  EXPECT_EQ(idp[0]->mods().intType, isa::IntType::U8);
  EXPECT_EQ(idp[0]->mods().srcIntType, isa::IntType::S8);
  EXPECT_EQ(idp[1]->mods().intType, isa::IntType::S16);
  EXPECT_EQ(idp[1]->mods().variant, isa::Variant::HI);
  EXPECT_EQ(l.first(Opcode::PRMT)->mods().prmt, isa::PrmtMode::ECL);
  bool found = false;
  for (auto *i : l.find(Opcode::LDC)) found |= isCBank(i->use(0), 0, 0x6c);
  EXPECT_TRUE(found);
}

TEST(Diagnostics, UnsupportedInstructionsAreReportedAtTheirLine) {
  Lowered l(kernel(".param .u64 p", "  ld.param.u64 %rd1, [p];\n  vmax4.u32.u32.u32 %r1.b0, %r2, %r3, %r4;"), false);
  EXPECT_FALSE(l.module);
  ASSERT_EQ(l.messages.size(), 1u) << l.all();
  EXPECT_EQ(l.messages[0], "ptxas t.ptx, line 12; error   : SIMD video selectors or masks is not yet supported by optxas");
}

} // namespace

namespace {

TEST(SyncOps, ClusterBarriersAndMapa) {
  Lowered l(".version 8.5\n.target sm_90\n.address_size 64\n.shared .align 4 .b8 bins[64];\n"
            ".visible .entry k(.param .u32 r)\n{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
            "  ld.param.u32 %r1, [r];\n  barrier.cluster.arrive;\n  barrier.cluster.wait.aligned;\n"
            "  mov.u32 %r2, bins;\n  mapa.shared::cluster.u32 %r3, %r2, %r1;\n  st.shared::cluster.u32 [%r3+4], %r1;\n"
            "  cvt.u64.u32 %rd1, %r2;\n  cvta.shared.u64 %rd2, %rd1;\n  mapa.u64 %rd3, %rd2, %r1;\n"
            "  atom.add.u32 %r4, [%rd3], 1;\n  ret;\n}\n");
  ASSERT_TRUE(l.module);
  EXPECT_EQ(l.count(Opcode::UCGABAR_ARV), 1u) << l.text();
  EXPECT_EQ(l.count(Opcode::UCGABAR_WAIT), 1u);
  ori::Instr *arv = l.first(Opcode::UCGABAR_ARV);
  EXPECT_EQ(arv->prev()->opcode(), Opcode::CCTL);   // the release fence sequence ends with CCTL
  auto prmt = l.find(Opcode::PRMT);
  ASSERT_EQ(prmt.size(), 2u);
  EXPECT_TRUE(isImm(prmt[0]->use(1), 0x654));
  ori::Instr *st = l.first(Opcode::ST);   // shared::cluster: a generic store in the shared window
  ASSERT_TRUE(st);
  EXPECT_EQ(st->use(1).value, 4);
  EXPECT_EQ(l.count(Opcode::ATOM), 1u);
}

TEST(SyncOps, ClusterAddressesCompute) {
  // mapa puts the rank in bits 24..31 of the shared-window address.
  Exec r("  mapa.shared::cluster.u32 %r3, %r1, %r2;\n  st.global.u32 [%rd0], %r3;", 0x01000420, 3);
  EXPECT_EQ(r.u32(0), 0x03000420u);
}

} // namespace
