// Loads and stores in every state space: forms, modifiers and (global) computed values.
#include "KernelRun.h"

using namespace optxas;
using namespace optxas::lower::test;

namespace {

TEST(MemoryOps, GlobalAccessesUseTheDescriptor) {
  Lowered l(kernel(".param .u64 p", "  ld.param.u64 %rd1, [p];\n  ld.global.u32 %r1, [%rd1+8];\n"
                                    "  st.global.u32 [%rd1+-4], %r1;"));
  auto uldc = l.first(Opcode::ULDC);
  ASSERT_TRUE(uldc) << l.text();
  EXPECT_TRUE(isCBank(uldc->use(0), 0, 0x208));
  EXPECT_EQ(uldc->def(0).cls, ori::RegClass::UR);
  EXPECT_EQ(uldc->parent(), l.fn().entry());
  auto ld = l.first(Opcode::LDG), st = l.first(Opcode::STG);
  ASSERT_TRUE(ld && st);
  EXPECT_TRUE(ld->mods().wide);                               // LDG.E
  EXPECT_EQ(ld->use(0).reg, uldc->def(0).reg);                // desc[URx]
  EXPECT_EQ(ld->use(1).kind, OperandKind::Addr);
  EXPECT_EQ(ld->use(1).value, 8);
  EXPECT_EQ(widthOf(l.fn(), ld->use(1)), 2u);                 // [R.64]
  EXPECT_EQ(st->use(1).value, -4);
  EXPECT_EQ(st->numDefs(), 0u);
}

TEST(MemoryOps, CacheHintsAndOrderFollowPtxas) {
  Lowered l(kernel(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n"
                   "  ld.global.ca.u32 %r1, [%rd1];\n  ld.global.cg.u32 %r2, [%rd1];\n  ld.global.cs.u32 %r3, [%rd1];\n"
                   "  ld.global.nc.u32 %r4, [%rd1];\n  ld.relaxed.gpu.global.u32 %r5, [%rd1];\n"
                   "  ld.acquire.sys.global.u32 %r6, [%rd1];\n  ld.volatile.global.u32 %r7, [%rd1];\n"
                   "  ld.global.L1::no_allocate.u32 %r8, [%rd1];\n  ld.global.lu.u32 %r9, [%rd1];\n"
                   "  st.release.gpu.global.u32 [%rd1], %r1;\n  st.global.wt.u32 [%rd1], %r1;"));
  auto v = l.find(Opcode::LDG);
  ASSERT_EQ(v.size(), 9u) << l.text();
  auto strong = [](const ori::Instr *i, isa::Scope s) {
    return i->mods().order == isa::MemOrder::RELAXED && i->mods().scope == s;
  };
  EXPECT_TRUE(strong(v[0], isa::Scope::SM));      // .ca -> .STRONG.SM (scope SM: what encodes)
  EXPECT_TRUE(strong(v[1], isa::Scope::GPU));     // .cg -> .STRONG.GPU
  EXPECT_EQ(v[2]->mods().cache, isa::CacheOp::EF);
  EXPECT_EQ(v[3]->mods().order, isa::MemOrder::CONSTANT);
  EXPECT_TRUE(strong(v[4], isa::Scope::GPU));
  EXPECT_TRUE(strong(v[5], isa::Scope::SYS));
  EXPECT_TRUE(strong(v[6], isa::Scope::SYS));
  EXPECT_EQ(v[7]->mods().cache, isa::CacheOp::NA);
  EXPECT_EQ(v[8]->mods().cache, isa::CacheOp::LU);
  // acquire: CCTL.IVALL right after the load; release: MEMBAR.ALL.GPU right before the store.
  ASSERT_TRUE(v[5]->next());
  EXPECT_EQ(v[5]->next()->opcode(), Opcode::CCTL);
  EXPECT_EQ(v[5]->next()->mods().cctl, isa::CctlOp::IVALL);
  auto st = l.find(Opcode::STG);
  ASSERT_EQ(st.size(), 2u);
  ASSERT_TRUE(st[0]->prev());
  EXPECT_EQ(st[0]->prev()->opcode(), Opcode::MEMBAR);
  EXPECT_EQ(st[0]->prev()->mods().fence, isa::FenceMode::ALL);
  EXPECT_EQ(st[0]->prev()->mods().scope, isa::Scope::GPU);
  EXPECT_TRUE(strong(st[1], isa::Scope::SYS));   // .wt
}

TEST(MemoryOps, VectorWidths) {
  Lowered l(kernel(".param .u64 p", "  ld.param.u64 %rd1, [p];\n  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n"
                                    "  ld.global.v2.u64 {%rd2, %rd3}, [%rd1+16];\n  st.global.v2.u32 [%rd1], {%r1, %r2};\n"
                                    "  ld.global.v4.u16 {%h1, %h2, %h3, %h4}, [%rd1];\n  ld.global.s8 %r5, [%rd1];"));
  auto v = l.find(Opcode::LDG);
  ASSERT_EQ(v.size(), 4u) << l.text();
  EXPECT_EQ(v[0]->mods().memType, isa::MemType::B128);
  EXPECT_EQ(widthOf(l.fn(), v[0]->def(0)), 4u);
  EXPECT_EQ(v[1]->mods().memType, isa::MemType::B128);
  EXPECT_EQ(v[2]->mods().memType, isa::MemType::B64);   // four 16-bit elements in one .64
  EXPECT_EQ(v[3]->mods().memType, isa::MemType::S8);
  auto st = l.first(Opcode::STG);
  EXPECT_EQ(st->mods().memType, isa::MemType::B64);
  EXPECT_EQ(widthOf(l.fn(), st->use(2)), 2u);
}

TEST(MemoryOps, GlobalVectorsCompute) {
  Exec r("  mov.b64 {%h1, %h2, %h3, %h4}, %rd1;\n  st.global.v4.u16 [%rd0], {%h4, %h3, %h2, %h1};\n"
         "  ld.global.v4.u8 {%h5, %h6, %h7, %h8}, [%rd0];\n  cvt.u32.u16 %r3, %h6;\n  st.global.u32 [%rd0+8], %r3;\n"
         "  ld.global.v2.s8 {%h5, %h6}, [%rd0];\n  cvt.s32.s16 %r4, %h6;\n  st.global.u32 [%rd0+12], %r4;\n"
         "  st.global.v2.u32 [%rd0+16], {%r2, %r1};\n  ld.global.u64 %rd3, [%rd0+16];\n  st.global.u64 [%rd0+24], %rd3;\n"
         "  ld.global.s16 %r5, [%rd0];\n  st.global.u32 [%rd0+32], %r5;\n"
         "  st.global.v2.u8 [%rd0+36], {%h1, %h2};",
         0x1122334455668788ull, 0xaabbccddull);
  // {h4, h3, h2, h1} = {0x1122, 0x3344, 0x5566, 0x8788} stored as 16-bit elements, low first.
  EXPECT_EQ(r.u64(0), 0x8788556633441122ull);
  EXPECT_EQ(r.u32(8), 0x11u);                 // byte 1
  EXPECT_EQ(r.u32(12), 0x11u);                // byte 1 sign-extended (positive)
  EXPECT_EQ(r.u64(24), 0x55668788aabbccddull);
  EXPECT_EQ(r.u32(32), 0x1122u);
  EXPECT_EQ(r.ev->load(kOut + 36, 2), 0x6688u);   // low bytes of h1 (0x8788) and h2 (0x5566)
}

TEST(MemoryOps, SharedLocalConstSpaces) {
  Lowered l(kernel(".param .u64 p",
                   "  .local .align 8 .b8 buf[16];\n  ld.param.u64 %rd1, [p];\n"
                   "  st.shared.u32 [sh+8], 1;\n  ld.shared.u32 %r1, [sh+12];\n"
                   "  st.local.u32 [buf+4], %r1;\n  ld.local.u32 %r2, [buf+4];\n"
                   "  ld.const.u32 %r3, [cv+4];\n  mov.u32 %r4, sh;\n  ld.shared.v2.u32 {%r5, %r6}, [%r4];",
                   ".shared .align 4 .b8 sh[64];\n.const .align 4 .u32 cv[2] = {1, 2};"));
  auto sts = l.first(Opcode::STS), lds = l.first(Opcode::LDS);
  ASSERT_TRUE(sts && lds) << l.text();
  EXPECT_EQ(sts->use(0).value, 8);
  EXPECT_EQ(lds->use(0).value, 12);
  // The shared window address: LEA base, SR_CgaCtaId, sym, 0x18.
  auto lea = l.first(Opcode::LEA);
  ASSERT_TRUE(lea);
  EXPECT_TRUE(isImm(lea->use(2), 0x18));
  auto s2r = l.first(Opcode::S2R);
  EXPECT_EQ(s2r->use(0).specialReg(), ori::SpecialReg::CGACTAID);
  auto stl = l.first(Opcode::STL), ldl = l.first(Opcode::LDL);
  ASSERT_TRUE(stl && ldl);
  EXPECT_EQ(stl->use(0).reg, ldl->use(0).reg);
  EXPECT_EQ(l.fn().vreg(stl->use(0).reg).phys, 1);   // [R1 + offset]
  EXPECT_EQ(stl->use(0).value, 4);
  EXPECT_EQ(l.fn().localBytes, 16u);
  auto ldc = l.find(Opcode::LDC);
  ASSERT_GE(ldc.size(), 2u);
  const ori::Operand &cb = ldc.back()->use(0);
  EXPECT_EQ(cb.kind, OperandKind::CBank);
  EXPECT_EQ(cb.bank, 3u);
  EXPECT_EQ(cb.value, 4);
  EXPECT_NE(cb.reg, ori::kNoVReg);   // c[0x3][MOV "cv" + 4]
  int sh = l.module->findSymbol("sh"), cv = l.module->findSymbol("cv");
  ASSERT_GE(sh, 0);
  ASSERT_GE(cv, 0);
  EXPECT_EQ(l.module->symbol(sh).kind, ori::SymbolKind::Shared);
  EXPECT_EQ(l.module->symbol(cv).kind, ori::SymbolKind::Const);
  EXPECT_EQ(l.module->symbol(cv).init, (std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0}));
  EXPECT_EQ(l.find(Opcode::LDS).back()->mods().memType, isa::MemType::B64);
}

TEST(MemoryOps, KernelParamsComeFromBankZero) {
  Lowered l(kernel(".param .u8 a, .param .align 8 .b8 s[24], .param .u64 p",
                   "  ld.param.u8 %h1, [a];\n  ld.param.v2.u32 {%r1, %r2}, [s+8];\n  ld.param.u32 %r3, [s+20];\n"
                   "  ld.param.u64 %rd1, [p];"));
  auto v = l.find(Opcode::LDC);
  ASSERT_EQ(v.size(), 5u) << l.text();   // R1 + 4
  EXPECT_TRUE(isCBank(v[1]->use(0), 0, 0x210));
  EXPECT_EQ(v[1]->mods().memType, isa::MemType::U8);
  EXPECT_TRUE(isCBank(v[2]->use(0), 0, 0x218 + 8));
  EXPECT_EQ(v[2]->mods().memType, isa::MemType::B64);
  EXPECT_TRUE(isCBank(v[3]->use(0), 0, 0x218 + 20));
  EXPECT_TRUE(isCBank(v[4]->use(0), 0, 0x230));
  const auto &a = l.fn().attrs;
  ASSERT_EQ(a.params.size(), 3u);
  EXPECT_EQ(a.params[1].offset, 8u);
  EXPECT_EQ(a.params[1].size, 24u);
  EXPECT_EQ(a.params[2].offset, 32u);
  EXPECT_EQ(a.paramBytes, 40u);
  EXPECT_EQ(a.paramBase, 0x210u);
}

TEST(MemoryOps, GenericAndAddressConversions) {
  Lowered l(kernel(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  ld.u32 %r1, [%rd1];\n  st.u32 [%rd1], %r1;\n"
                   "  cvta.to.global.u64 %rd2, %rd1;\n  cvta.shared.u64 %rd3, %rd1;\n  cvta.to.shared.u64 %rd4, %rd1;\n"
                   "  cvta.local.u64 %rd5, %rd1;\n  cvta.to.local.u64 %rd6, %rd1;"));
  EXPECT_EQ(l.count(Opcode::LD), 1u);
  EXPECT_EQ(l.count(Opcode::ST), 1u);
  auto s2r = l.first(Opcode::S2R);
  ASSERT_TRUE(s2r) << l.text();
  EXPECT_EQ(s2r->use(0).specialReg(), ori::SpecialReg::SWINHI);
  // local window: 64-bit add/subtract of c[0x0][0x20]
  auto ldc = l.find(Opcode::LDC);
  int windows = 0;
  for (auto *i : ldc) windows += isCBank(i->use(0), 0, 0x20);
  EXPECT_EQ(windows, 2);
}

TEST(MemoryOps, GlobalVariableAddressesAndInitializers) {
  Lowered l(kernel(".param .u64 p", "  ld.global.u32 %r1, [gv+4];\n  mov.u64 %rd1, gp;\n",
                   ".global .align 4 .u32 gv[2] = {7, 8};\n.global .align 8 .u64 gp = gv;\n"
                   ".global .align 8 .u64 gq[2] = {generic(gv)+4, 0};"));
  auto ldc = l.find(Opcode::LDC);
  bool symbolLoad = false;
  for (auto *i : ldc)
    if (i->use(0).kind == OperandKind::Symbol) symbolLoad = true;
  EXPECT_TRUE(symbolLoad) << l.text();   // LDC.64 %r, "gv": the address table
  int gp = l.module->findSymbol("gp"), gv = l.module->findSymbol("gv"), gq = l.module->findSymbol("gq");
  ASSERT_GE(gp, 0);
  const auto &s = l.module->symbol(gp);
  ASSERT_EQ(s.relocs.size(), 1u);
  EXPECT_EQ(s.relocs[0].target, static_cast<uint32_t>(gv));
  EXPECT_EQ(s.relocs[0].size, 8u);
  EXPECT_FALSE(s.relocs[0].generic);
  const auto &q = l.module->symbol(gq);
  ASSERT_EQ(q.relocs.size(), 1u);
  EXPECT_TRUE(q.relocs[0].generic);
  EXPECT_EQ(q.relocs[0].addend, 4);
  EXPECT_EQ(q.size, 16u);
}

} // namespace
