// Blocks, branches, reconvergence barriers, calls and the calling convention.
#include "KernelRun.h"

using namespace optxas;
using namespace optxas::lower::test;

namespace {

std::string module(const std::string &body) { return ".version 8.5\n.target sm_90\n.address_size 64\n" + body; }

TEST(ControlFlow, BlocksStartAtLabelsAndEndAtBranches) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra $L_end;\n"
                                    "  add.s32 %r1, %r1, 1;\n$L_end:\n  add.s32 %r1, %r1, 2;"));
  const auto &bbs = l.fn().blocks();
  ASSERT_GE(bbs.size(), 3u) << l.text();
  ori::Instr *bra = l.first(Opcode::BRA);
  ASSERT_TRUE(bra);
  EXPECT_TRUE(bra->isPredicated());
  EXPECT_EQ(bra->use(0).kind, OperandKind::Label);
  EXPECT_EQ(bbs.back()->back()->opcode(), Opcode::EXIT);   // ret in a kernel
}

TEST(ControlFlow, DivergentIfGetsBssyBsync) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  mov.u32 %r2, %tid.x;\n  setp.lt.u32 %p1, %r2, %r1;\n"
                                    "  @%p1 bra $L_skip;\n  add.s32 %r2, %r2, 1;\n$L_skip:\n"
                                    "  shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;"));
  auto bssy = l.find(Opcode::BSSY), bsync = l.find(Opcode::BSYNC);
  ASSERT_EQ(bssy.size(), 1u) << l.text();
  ASSERT_EQ(bsync.size(), 1u);
  ori::Instr *bra = l.first(Opcode::BRA);
  EXPECT_EQ(bssy[0]->next(), bra);                         // BSSY right before the branch
  EXPECT_EQ(bra->use(0).block, bsync[0]->parent());        // the branch now enters the BSYNC block
  // BSSY names the block after the BSYNC block: where the warp continues converged.
  const auto &bbs = l.fn().blocks();
  auto it = std::find(bbs.begin(), bbs.end(), bsync[0]->parent());
  ASSERT_NE(it + 1, bbs.end());
  EXPECT_EQ(bssy[0]->use(0).block, *(it + 1));
  EXPECT_EQ((*(it + 1))->label(), "$L_skip");
  EXPECT_EQ(bssy[0]->mods().barrierId, 0);
  // The shuffle itself waits for the member mask.
  ori::Instr *shfl = l.first(Opcode::SHFL);
  ASSERT_TRUE(shfl && shfl->prev());
  EXPECT_EQ(shfl->prev()->opcode(), Opcode::WARPSYNC);
}

TEST(ControlFlow, NestedRegionsUseDeeperBarriers) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  mov.u32 %r2, %tid.x;\n  setp.lt.u32 %p1, %r2, %r1;\n"
                                    "  @%p1 bra $L_out;\n  setp.eq.u32 %p2, %r2, 3;\n  @%p2 bra $L_in;\n"
                                    "  add.s32 %r2, %r2, 1;\n$L_in:\n  add.s32 %r2, %r2, 2;\n$L_out:\n  add.s32 %r2, %r2, 3;"));
  auto bssy = l.find(Opcode::BSSY);
  ASSERT_EQ(bssy.size(), 2u) << l.text();
  EXPECT_EQ(bssy[0]->mods().barrierId, 0);
  EXPECT_EQ(bssy[1]->mods().barrierId, 1);
  EXPECT_EQ(l.count(Opcode::BSYNC), 2u);
}

TEST(ControlFlow, UniformBranchesAndLoopsGetNoBarrier) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra.uni $L_end;\n"
                                    "  mov.u32 %r2, 0;\n$L_loop:\n  add.s32 %r2, %r2, 1;\n  setp.lt.u32 %p2, %r2, %r1;\n"
                                    "  @%p2 bra $L_loop;\n$L_end:"));
  EXPECT_EQ(l.count(Opcode::BSSY), 0u) << l.text();
}

// A device function whose divergent loop ends at its return is reconverged by its caller
// (BSSY/BSYNC around the CALL); one whose loop is followed by code reconverges it inside, above
// the barrier the caller holds across the call (docs/abi.md, "Convergence barriers across calls").
TEST(ControlFlow, CallsOfFunctionsThatReturnDivergedAreBracketed) {
  const std::string loop = "  ld.param.b32 %r1, [x];\n  mov.u32 %r2, 0;\n$L_loop:\n  add.s32 %r2, %r2, 1;\n"
                           "  shr.u32 %r1, %r1, 1;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra $L_loop;\n";
  Lowered l(module(".func (.param .b32 r) tail(.param .b32 x)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n" + loop +
                   "  st.param.b32 [r], %r2;\n  ret;\n}\n"
                   ".func (.param .b32 r) more(.param .b32 x)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n" + loop +
                   "  mul.lo.s32 %r2, %r2, %r2;\n  st.param.b32 [r], %r2;\n  ret;\n}\n"
                   ".visible .entry k(.param .u64 out)\n{\n  .reg .pred %q<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n"
                   "  mov.u32 %r1, %tid.x;\n"
                   "  { .param .b32 a; .param .b32 v; st.param.b32 [a], %r1; call.uni (v), tail, (a); ld.param.b32 %r2, [v]; }\n"
                   "  setp.lt.u32 %q1, %r1, 5;\n  @%q1 bra $L_skip;\n"
                   "  { .param .b32 a; .param .b32 v; st.param.b32 [a], %r2; call.uni (v), more, (a); ld.param.b32 %r2, [v]; }\n"
                   "  add.s32 %r2, %r2, 1;\n$L_skip:\n  bar.sync 0;\n  ld.param.u64 %rd1, [out];\n"
                   "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n"));
  ori::Function *k = l.fn("k"), *tail = l.fn("tail"), *more = l.fn("more");
  ASSERT_TRUE(k && tail && more);
  auto calls = Lowered::find(*k, Opcode::CALL);
  ASSERT_EQ(calls.size(), 2u) << l.text();
  // The call of tail: BSSY B0 right before it, BSYNC B0 alone in the next block.
  ASSERT_TRUE(calls[0]->prev()) << l.text();
  EXPECT_EQ(calls[0]->prev()->opcode(), Opcode::BSSY) << l.text();
  EXPECT_EQ(calls[0]->prev()->mods().barrierId, 0);
  EXPECT_EQ(calls[0]->next(), nullptr);
  // tail has no barrier of its own; more's loop region sits above the kernel's B0 region.
  EXPECT_EQ(Lowered::find(*tail, Opcode::BSSY).size(), 0u) << l.text();
  auto inner = Lowered::find(*more, Opcode::BSSY);
  ASSERT_EQ(inner.size(), 1u) << l.text();
  EXPECT_EQ(inner[0]->mods().barrierId, 1);
  // The call of more (it returns converged) has no bracket: the kernel's if region holds B0.
  EXPECT_TRUE(!calls[1]->prev() || calls[1]->prev()->opcode() != Opcode::BSSY) << l.text();
  EXPECT_EQ(Lowered::find(*k, Opcode::BSSY).size(), 2u) << l.text();
}

TEST(ControlFlow, BranchesCompute) {
  Exec r("  mov.u32 %r3, 0;\n  mov.u32 %r4, 0;\n$L_loop:\n  add.s32 %r4, %r4, %r3;\n  add.s32 %r3, %r3, 1;\n"
         "  setp.lt.u32 %p1, %r3, %r1;\n  @%p1 bra $L_loop;\n  setp.eq.s32 %p2, %r4, 45;\n  @!%p2 bra $L_no;\n"
         "  st.global.u32 [%rd0], 1;\n  bra.uni $L_done;\n$L_no:\n  st.global.u32 [%rd0], 2;\n$L_done:",
         10, 0);
  EXPECT_EQ(r.u32(0), 1u);
}

TEST(Calls, ConventionAssignsR4Upward) {
  Lowered l(module(
      ".visible .func (.param .b32 r) f(.param .b32 a, .param .b64 b, .param .b32 c, .param .align 8 .b8 s[16])\n"
      "{\n  .reg .b32 %r<5>;\n  .reg .b64 %rd<2>;\n  ld.param.b32 %r1, [a];\n  ld.param.b64 %rd1, [b];\n"
      "  ld.param.b32 %r2, [c];\n  ld.param.b32 %r3, [s+12];\n  add.s32 %r4, %r1, %r2;\n  add.s32 %r4, %r4, %r3;\n"
      "  st.param.b32 [r], %r4;\n  ret;\n}\n"
      ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %r<5>;\n  .reg .b64 %rd<3>;\n"
      "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  {\n  .param .b32 p0;\n  st.param.b32 [p0], %r1;\n"
      "  .param .b64 p1;\n  st.param.b64 [p1], %rd1;\n  .param .b32 p2;\n  st.param.b32 [p2], 7;\n"
      "  .param .align 8 .b8 p3[16];\n  st.param.v4.b32 [p3], {%r1, %r1, %r1, %r1};\n  .param .b32 r0;\n"
      "  call.uni (r0), f, (p0, p1, p2, p3);\n  ld.param.b32 %r2, [r0];\n  }\n"
      "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n"));
  ori::Function *f = l.fn("f"), *k = l.fn("k");
  ASSERT_TRUE(f && k) << l.text();
  // Callee: PSEUDO_PARAM defines precolored R4, R6:R7, R5, R8..R11; the result goes back in R4.
  auto params = Lowered::find(*f, Opcode::PSEUDO_PARAM);
  ASSERT_EQ(params.size(), 4u) << l.text();
  std::vector<std::pair<int, unsigned>> got;
  for (auto *p : params) got.push_back({f->vreg(p->def(0).reg).phys, f->vreg(p->def(0).reg).width});
  EXPECT_EQ(got, (std::vector<std::pair<int, unsigned>>{{4, 1}, {6, 2}, {5, 1}, {8, 4}}));
  auto rets = Lowered::find(*f, Opcode::RET);
  ASSERT_EQ(rets.size(), 1u);
  ASSERT_EQ(rets[0]->numUses(), 1u);
  EXPECT_EQ(f->vreg(rets[0]->use(0).reg).phys, 4);
  EXPECT_EQ(f->attrs.params[1].offset, 6u);   // first register
  // Caller: CALL "f" uses the same registers and defines R4.
  auto calls = Lowered::find(*k, Opcode::CALL);
  ASSERT_EQ(calls.size(), 1u);
  ori::Instr *c = calls[0];
  EXPECT_EQ(c->use(0).kind, OperandKind::Symbol);
  EXPECT_EQ(l.module->symbol(static_cast<uint32_t>(c->use(0).value)).name, "f");
  ASSERT_EQ(c->numUses(), 5u);
  std::vector<int> argRegs;
  for (unsigned i = 1; i < c->numUses(); ++i) argRegs.push_back(k->vreg(c->use(i).reg).phys);
  EXPECT_EQ(argRegs, (std::vector<int>{4, 6, 5, 8}));
  ASSERT_EQ(c->numDefs(), 1u);
  EXPECT_EQ(k->vreg(c->def(0).reg).phys, 4);
}

TEST(Calls, ParametersBeyondR15GoOnTheStack) {
  std::string params, args, body;
  for (int i = 0; i < 14; ++i) {
    params += std::string(i ? ", " : "") + ".param .b32 a" + std::to_string(i);
    args += std::string(i ? ", " : "") + "q" + std::to_string(i);
    body += "  .param .b32 q" + std::to_string(i) + ";\n  st.param.b32 [q" + std::to_string(i) + "], " +
            std::to_string(i) + ";\n";
  }
  Lowered l(module(".visible .func (.param .b32 r) f(" + params + ")\n{\n  .reg .b32 %r<3>;\n"
                   "  ld.param.b32 %r1, [a13];\n  ld.param.b32 %r2, [a11];\n  add.s32 %r1, %r1, %r2;\n"
                   "  st.param.b32 [r], %r1;\n  ret;\n}\n"
                   ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  {\n" + body +
                   "  .param .b32 rv;\n  call.uni (rv), f, (" + args + ");\n  ld.param.b32 %r1, [rv];\n  }\n  ret;\n}\n"));
  ori::Function *f = l.fn("f"), *k = l.fn("k");
  ASSERT_TRUE(f && k) << l.all();
  // Callee: a13 is the second stack word, read from the incoming-argument area (R1 at entry).
  auto ldl = Lowered::find(*f, Opcode::LDL);
  ASSERT_EQ(ldl.size(), 1u) << l.text();
  EXPECT_EQ(ldl[0]->use(0).value, 4);
  ori::Instr *argp = nullptr;
  for (auto *p : Lowered::find(*f, Opcode::PSEUDO_PARAM))
    if (p->numUses() == 1) argp = p;
  ASSERT_TRUE(argp);
  EXPECT_EQ(argp->use(0).kind, OperandKind::Addr);
  EXPECT_EQ(f->vreg(argp->use(0).reg).phys, 1);
  EXPECT_EQ(ldl[0]->use(0).reg, argp->def(0).reg);
  EXPECT_EQ(f->attrs.params[13].offset, 4u);   // stack offset
  // Caller: R1 -= 8; STL [R1], [R1+4]; CALL with 12 register arguments; R1 += 8.
  auto stl = Lowered::find(*k, Opcode::STL);
  ASSERT_EQ(stl.size(), 2u) << l.text();
  EXPECT_EQ(stl[1]->use(0).value, 4);
  EXPECT_EQ(k->vreg(stl[0]->use(0).reg).phys, 1);
  auto call = Lowered::find(*k, Opcode::CALL);
  ASSERT_EQ(call.size(), 1u);
  EXPECT_EQ(call[0]->numUses(), 13u);
  auto adds = Lowered::find(*k, Opcode::IADD3);
  ASSERT_GE(adds.size(), 2u);
  EXPECT_TRUE(isImm(adds.front()->use(1), -8));
  EXPECT_TRUE(isImm(adds.back()->use(1), 8));
}

TEST(Calls, StackResultsAreReported) {
  std::string results;
  for (int i = 0; i < 13; ++i) results += std::string(i ? ", " : "") + ".param .b32 r" + std::to_string(i);
  Lowered l(module(".visible .func (" + results + ") f()\n{\n  ret;\n}\n"), false);
  EXPECT_FALSE(l.module);
  ASSERT_FALSE(l.messages.empty());
  EXPECT_NE(l.messages[0].find("not yet supported"), std::string::npos) << l.all();
  EXPECT_EQ(l.messages[0].rfind("ptxas t.ptx, line ", 0), 0u) << l.all();
}

TEST(ControlFlow, TrapAndExit) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  setp.eq.s32 %p1, %r1, 0;\n  @%p1 trap;\n  @!%p1 exit;"));
  auto bpt = l.first(Opcode::BPT);
  ASSERT_TRUE(bpt) << l.text();
  EXPECT_EQ(bpt->mods().bpt, isa::BptMode::TRAP);
  EXPECT_TRUE(bpt->isPredicated());
  EXPECT_EQ(bpt, bpt->parent()->back());   // a terminator ends its block
  EXPECT_GE(l.count(Opcode::EXIT), 2u);
}

} // namespace

namespace {

TEST(ControlFlow, BrxIdxListsEveryTarget) {
  Lowered l(kernel(".param .u32 n", "  ld.param.u32 %r1, [n];\n  ts: .branchtargets L0, L1;\n  brx.idx %r1, ts;\n"
                                    "L0:\n  mov.u32 %r2, 1;\n  bra.uni END;\nL1:\n  mov.u32 %r2, 2;\nEND:"));
  ori::Instr *brx = l.first(Opcode::BRX);
  ASSERT_TRUE(brx) << l.text();
  ASSERT_EQ(brx->numUses(), 3u);
  EXPECT_TRUE(isReg(brx->use(0)));
  EXPECT_EQ(brx->use(1).block->label(), "L0");
  EXPECT_EQ(brx->use(2).block->label(), "L1");
  EXPECT_EQ(brx, brx->parent()->back());
}

} // namespace

namespace {

// `.pragma "nounroll"` (PTX ISA): in a loop header block it marks that block; in a function
// header or at module scope it reaches every function's attributes (phase 25 reads both).
TEST(ControlFlow, NounrollPragmaMarksTheLoopHeaderBlock) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  mov.u32 %r2, 0;\n$L_loop:\n  .pragma \"nounroll\";\n"
                                    "  add.s32 %r2, %r2, 1;\n  setp.lt.u32 %p2, %r2, %r1;\n  @%p2 bra $L_loop;\n"
                                    "$L_after:\n  add.s32 %r2, %r2, 1;"));
  unsigned marked = 0;
  for (ori::BasicBlock *bb : l.fn().blocks())
    if (bb->noUnroll()) {
      ++marked;
      EXPECT_EQ(bb->label(), "$L_loop");
    }
  EXPECT_EQ(marked, 1u) << l.text();
  EXPECT_NE(l.text().find("\"$L_loop\" nounroll:"), std::string::npos) << l.text();
  EXPECT_TRUE(l.fn().attrs.pragmas.empty());
}

TEST(ControlFlow, ModuleScopeNounrollReachesEveryFunction) {
  Lowered l(module(".pragma \"nounroll\";\n.visible .entry k()\n{\n  ret;\n}\n"));
  ASSERT_TRUE(l.module);
  const ori::Function *f = l.module->findFunction("k");
  ASSERT_TRUE(f);
  EXPECT_NE(std::find(f->attrs.pragmas.begin(), f->attrs.pragmas.end(), "nounroll"), f->attrs.pragmas.end());
}

} // namespace
