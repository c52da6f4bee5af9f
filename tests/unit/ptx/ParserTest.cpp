// The parser builds a fully structured, name-resolved AST: these tests pin the structure that
// lowering and the interpreter rely on.
#include <gtest/gtest.h>

#include <cstring>

#include "TestUtil.h"

using namespace optxas::ptx;
using namespace optxas::ptx::test;

TEST(Parser, ModuleHeader) {
  auto p = parse(".version 8.7\n.target sm_90a, debug, texmode_independent\n.address_size 64\n", 90, 'a');
  ASSERT_TRUE(p.ok()) << p.messages[0];
  const Module &m = *p.module;
  EXPECT_EQ(m.versionMajor, 8u);
  EXPECT_EQ(m.versionMinor, 7u);
  EXPECT_EQ(m.version(), 87u);
  ASSERT_EQ(m.target.archs.size(), 1u);
  EXPECT_EQ(m.target.sm(), 90u);
  EXPECT_EQ(m.target.suffix(), 'a');
  EXPECT_TRUE(m.target.debug);
  EXPECT_TRUE(m.target.texmodeIndependent);
  EXPECT_EQ(m.addressSize, 64u);
}

TEST(Parser, InstructionIsStructured) {
  auto p = parse(kernel("@!%p1 ld.global.nc.v4.f32 {%f1, _, %f3, %f4}, [%rd2+-16];"));
  ASSERT_TRUE(p.ok()) << p.messages[0];
  const Function &f = onlyFunction(p);
  ASSERT_EQ(f.instructions.size(), 2u);
  const Instruction &ld = *f.instructions[0];
  EXPECT_EQ(ld.op, Opcode::Ld);
  EXPECT_TRUE(ld.guard.present());
  EXPECT_TRUE(ld.guard.negated);
  EXPECT_EQ(ld.guard.reg->name.str(), "%p");
  EXPECT_EQ(ld.guard.regIndex, 1u);
  EXPECT_EQ(ld.space(), StateSpace::Global);
  EXPECT_EQ(ld.vectorWidth(), 4u);
  EXPECT_TRUE(ld.has(Mod::Nc));
  ASSERT_EQ(ld.numTypes, 1u);
  EXPECT_EQ(ld.type(), Type::F32);
  ASSERT_EQ(ld.mods.size(), 3u);
  EXPECT_EQ(ld.mods[0], Mod::Global);  // source order is kept
  EXPECT_EQ(ld.mods[1], Mod::Nc);
  EXPECT_EQ(ld.mods[2], Mod::V4);
  ASSERT_EQ(ld.operands.size(), 2u);
  const Operand &vec = ld.operands[0];
  ASSERT_EQ(vec.kind, OperandKind::Vector);
  ASSERT_EQ(vec.elems.size(), 4u);
  EXPECT_EQ(vec.elems[1].kind, OperandKind::Sink);
  EXPECT_EQ(vec.elems[2].reg->name.str(), "%f");
  EXPECT_EQ(vec.elems[2].regIndex, 3u);
  const Operand &addr = ld.operands[1];
  EXPECT_EQ(addr.kind, OperandKind::Address);
  EXPECT_EQ(addr.base, BaseKind::Reg);
  EXPECT_EQ(addr.regIndex, 2u);
  EXPECT_EQ(addr.offset, -16);
  EXPECT_EQ(ld.loc.line, 11u);
}

TEST(Parser, RegistersHaveDenseIds) {
  auto p = parse(kernel("add.s32 %r9, %r0, %r1;\nmov.b64 %rd0, %rd9;"));
  ASSERT_TRUE(p.ok());
  const Function &f = onlyFunction(p);
  // %r<10>, %p<5>, %f<10>, %rd<10>, %fd<4> in declaration order
  EXPECT_EQ(f.numRegs, 10u + 5 + 10 + 10 + 4);
  const Instruction &add = *f.instructions[0];
  EXPECT_EQ(add.operands[0].regId(), 9u);
  EXPECT_EQ(add.operands[1].regId(), 0u);
  const Instruction &mov = *f.instructions[1];
  EXPECT_EQ(mov.operands[0].regId(), 25u);
  EXPECT_EQ(mov.operands[1].regId(), 34u);
  ASSERT_EQ(f.regs.size(), 5u);
  EXPECT_TRUE(f.regs[0]->parameterized);
  EXPECT_EQ(f.regs[0]->count, 10u);
  EXPECT_EQ(f.regs[0]->type, Type::B32);
}

TEST(Parser, ImmediatesKeepExactBits) {
  auto p = parse(kernel("mov.b32 %r1, 0xFFFFFFFF;\nmov.b32 %r1, -1;\nmov.b32 %r1, 017;\nmov.b32 %r1, 0b1010;\n"
                        "mov.f32 %f1, 0f3F800000;\nmov.f64 %fd1, 0d400921FB54442D18;\nmov.f32 %f1, 1.5;\n"
                        "mov.b32 %r1, (1 << 4) | 3;\nmov.f32 %f1, -0f3F800000;"));
  ASSERT_TRUE(p.ok()) << p.messages[0];
  auto &ins = onlyFunction(p).instructions;
  EXPECT_EQ(ins[0]->operands[1].bits, 0xFFFFFFFFull);
  EXPECT_EQ(ins[1]->operands[1].imm(), -1);
  EXPECT_EQ(ins[2]->operands[1].bits, 15u);
  EXPECT_EQ(ins[3]->operands[1].bits, 10u);
  EXPECT_EQ(ins[4]->operands[1].kind, OperandKind::ImmFloat);
  EXPECT_TRUE(ins[4]->operands[1].isSingle);
  EXPECT_EQ(ins[4]->operands[1].bits, 0x3F800000u);
  EXPECT_FALSE(ins[5]->operands[1].isSingle);
  EXPECT_EQ(ins[5]->operands[1].bits, 0x400921FB54442D18ull);
  double d;
  std::memcpy(&d, &ins[6]->operands[1].bits, 8);
  EXPECT_EQ(d, 1.5);
  EXPECT_EQ(ins[7]->operands[1].bits, 19u);
  EXPECT_EQ(ins[8]->operands[1].bits, 0xBF800000u);
}

TEST(Parser, SpecialRegistersPairsAndNegation) {
  auto p = parse(kernel("mov.u32 %r1, %tid.y;\nsetp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;\nmov.u32 %r2, %laneid;"));
  ASSERT_TRUE(p.ok()) << p.messages[0];
  auto &ins = onlyFunction(p).instructions;
  const Operand &tid = ins[0]->operands[1];
  EXPECT_EQ(tid.kind, OperandKind::SReg);
  EXPECT_EQ(tid.sreg, SReg::Tid);
  EXPECT_EQ(tid.componentIndex(), 1);
  const Instruction &setp = *ins[1];
  EXPECT_EQ(setp.cmpOp(), Mod::Lt);
  EXPECT_EQ(setp.boolOp(), Mod::And);
  EXPECT_EQ(setp.operands[0].kind, OperandKind::Pair);
  EXPECT_EQ(setp.operands[0].elems[1].regIndex, 2u);
  EXPECT_TRUE(setp.operands[3].negated);
  EXPECT_EQ(ins[2]->operands[1].sreg, SReg::Laneid);
}

TEST(Parser, LabelsResolveForwardAndBackward) {
  auto p = parse(kernel("bra $L_end;\n$L_top:\nadd.s32 %r1, %r1, 1;\n@%p1 bra.uni $L_top;\n$L_end:"));
  ASSERT_TRUE(p.ok()) << p.messages[0];
  const Function &f = onlyFunction(p);
  ASSERT_EQ(f.labels.size(), 2u);
  const Operand &fwd = f.instructions[0]->operands[0];
  ASSERT_EQ(fwd.kind, OperandKind::Symbol);
  ASSERT_EQ(fwd.sym->kind, DeclKind::Label);
  auto *end = static_cast<const Label *>(fwd.sym);
  EXPECT_TRUE(end->defined);
  EXPECT_EQ(end->instrIndex, 3u);  // the final ret
  auto *top = static_cast<const Label *>(f.instructions[2]->operands[0].sym);
  EXPECT_EQ(top->name.str(), "$L_top");
  EXPECT_EQ(top->instrIndex, 1u);
}

TEST(Parser, VariablesAndInitializers) {
  auto p = parse(".version 9.0\n.target sm_90\n.address_size 64\n"
                 ".global .align 4 .b8 g[16] = {1, 0, 0, 0, 2};\n"
                 ".global .align 8 .u64 gp = generic(g)+8;\n"
                 ".const .f32 cf[2] = {0f3F800000, 2.5};\n"
                 ".global .u64 tbl[] = {g, g+4, 0xFF00(g)};\n"
                 ".visible .global .attribute(.managed) .u32 mv = 42;\n"
                 ".extern .shared .align 16 .b8 dyn[];\n");
  ASSERT_TRUE(p.ok()) << p.messages[0];
  const Module &m = *p.module;
  ASSERT_EQ(m.globals.size(), 6u);
  const Variable &g = *m.globals[0];
  EXPECT_EQ(g.space, StateSpace::Global);
  EXPECT_EQ(g.align, 4u);
  EXPECT_EQ(g.type, Type::B8);
  ASSERT_EQ(g.dims.size(), 1u);
  EXPECT_EQ(g.dims[0], 16u);
  EXPECT_EQ(g.init->kind, InitKind::Aggregate);
  EXPECT_EQ(g.init->elems.size(), 5u);
  const Initializer &gp = *m.globals[1]->init;
  EXPECT_EQ(gp.kind, InitKind::Generic);
  EXPECT_EQ(gp.sym, &g);
  EXPECT_EQ(gp.offset, 8);
  const Initializer &cf = *m.globals[2]->init;
  EXPECT_EQ(cf.elems[0].kind, InitKind::Float);
  EXPECT_TRUE(cf.elems[0].isSingle);
  EXPECT_EQ(cf.elems[0].bits, 0x3F800000u);
  const Variable &tbl = *m.globals[3];
  EXPECT_EQ(tbl.dims[0], 3u);  // sized by its initializer
  EXPECT_EQ(tbl.init->elems[1].kind, InitKind::Address);
  EXPECT_EQ(tbl.init->elems[1].offset, 4);
  EXPECT_EQ(tbl.init->elems[2].kind, InitKind::Mask);
  EXPECT_EQ(tbl.init->elems[2].mask, 0xFF00u);
  EXPECT_EQ(m.globals[4]->linkage, Linkage::Visible);
  EXPECT_TRUE(m.globals[4]->attrs.managed);
  EXPECT_EQ(m.globals[5]->linkage, Linkage::Extern);
  EXPECT_EQ(m.globals[5]->dims[0], 0u);
}

TEST(Parser, FunctionsParamsAndDirectives) {
  auto p = parse(".version 9.0\n.target sm_90\n.address_size 64\n"
                 ".extern .func (.param .b32 r) ext(.param .b64 a);\n"
                 ".visible .func (.param .align 16 .b8 ret[16]) f(.reg .u32 x, .param .b32 y)\n{ ret; }\n"
                 ".func nr() .noreturn { trap; }\n"
                 ".visible .entry k(.param .u64 .ptr .global .align 16 p, .param .align 8 .b8 s[24])\n"
                 ".maxntid 256, 1, 1 .minnctapersm 2 .maxnreg 64 .pragma \"nounroll\";\n{ ret; }\n");
  ASSERT_TRUE(p.ok()) << p.messages[0];
  const Module &m = *p.module;
  ASSERT_EQ(m.functions.size(), 4u);
  const Function &ext = *m.functions[0];
  EXPECT_EQ(ext.linkage, Linkage::Extern);
  EXPECT_FALSE(ext.isDefinition);
  ASSERT_EQ(ext.results.size(), 1u);
  const Function &f = *m.functions[1];
  EXPECT_FALSE(f.noreturn);
  EXPECT_TRUE(m.functions[2]->noreturn);
  EXPECT_EQ(f.results[0]->align, 16u);
  EXPECT_EQ(f.results[0]->dims[0], 16u);
  EXPECT_EQ(f.params[0]->space, StateSpace::Reg);
  EXPECT_EQ(f.params[1]->space, StateSpace::Param);
  const Function &k = *m.functions[3];
  EXPECT_TRUE(k.isEntry);
  EXPECT_TRUE(k.params[0]->isPtr);
  EXPECT_EQ(k.params[0]->ptrSpace, StateSpace::Global);
  EXPECT_EQ(k.params[0]->ptrAlign, 16u);
  EXPECT_EQ(k.params[1]->sizeInBytes(), 24u);
  EXPECT_EQ(k.perf.maxntid[0], 256u);
  EXPECT_EQ(k.perf.maxntid[1], 1u);
  EXPECT_EQ(k.perf.minnctapersm, 2u);
  EXPECT_EQ(k.perf.maxnreg, 64u);
  ASSERT_EQ(k.perf.pragmas.size(), 1u);
  EXPECT_EQ(k.perf.pragmas[0], "nounroll");
}

TEST(Parser, CallSequenceWithPrototype) {
  auto p = parse(".version 9.0\n.target sm_90\n.address_size 64\n"
                 ".func (.param .b32 r) callee(.param .b32 a) { st.param.b32 [r], 1; ret; }\n"
                 ".visible .entry k() {\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"
                 "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                 "{ .param .b32 p0; .param .b32 r0;\nst.param.b32 [p0], 5;\n"
                 "call.uni (r0), callee, (p0);\nmov.u64 %rd1, callee;\ncall (r0), %rd1, (p0), proto;\n"
                 "ld.param.b32 %r1, [r0]; }\nret; }\n");
  ASSERT_TRUE(p.ok()) << p.messages[0];
  const Function &k = *p.module->functions[1];
  const Instruction *call = nullptr, *icall = nullptr;
  for (auto *i : k.instructions)
    if (i->op == Opcode::Call) (call ? icall : call) = i;
  ASSERT_TRUE(call && icall);
  ASSERT_EQ(call->operands.size(), 3u);
  EXPECT_EQ(call->operands[0].kind, OperandKind::List);
  EXPECT_EQ(call->operands[1].sym, p.module->functions[0]);
  EXPECT_EQ(call->operands[2].elems[0].sym->kind, DeclKind::Variable);
  const Operand &proto = icall->operands[3];
  ASSERT_EQ(proto.sym->kind, DeclKind::Label);
  auto *lab = static_cast<const Label *>(proto.sym);
  EXPECT_EQ(lab->labelKind, LabelKind::CallPrototype);
  EXPECT_EQ(lab->prototype->params.size(), 1u);
  EXPECT_EQ(k.locals.size(), 2u);
}

TEST(Parser, DebugInformation) {
  auto p = parse(".version 9.0\n.target sm_90, debug\n.address_size 64\n"
                 ".visible .entry k() {\n.loc 1 5 3\nret;\n.loc 1 7 2, function_name $L__info_string0, inlined_at 1 9 4\n"
                 "exit;\n}\n.file 1 \"/src/a.cu\", 1700000000, 1234\n"
                 ".section .debug_str {\n$L__info_string0:\n.b8 95,90,0\n}\n"
                 ".section .debug_info {\n.b32 42\n.b32 .debug_abbrev\n.b64 $L__func_begin0+4\n}\n");
  ASSERT_TRUE(p.ok()) << p.messages[0];
  const Module &m = *p.module;
  ASSERT_EQ(m.files.size(), 1u);
  EXPECT_EQ(m.files[0].name, "/src/a.cu");
  EXPECT_EQ(m.files[0].size, 1234u);
  ASSERT_EQ(m.sections.size(), 2u);
  EXPECT_EQ(m.sections[0].name.str(), ".debug_str");
  EXPECT_EQ(m.sections[0].items[0].kind, SectionItem::LabelDef);
  EXPECT_EQ(m.sections[0].items[1].values.size(), 3u);
  EXPECT_EQ(m.sections[1].items[1].values[0].symName.str(), ".debug_abbrev");
  EXPECT_EQ(m.sections[1].items[2].values[0].offset, 4);
  const Function &k = *m.functions[0];
  ASSERT_EQ(k.debugLocs.size(), 2u);
  EXPECT_EQ(k.instructions[0]->debugLoc, 1u);
  EXPECT_EQ(k.debugLocs[0].line, 5u);
  EXPECT_TRUE(k.debugLocs[1].hasInlinedAt);
  EXPECT_EQ(k.debugLocs[1].inlinedLine, 9u);
  EXPECT_EQ(k.debugLocs[1].functionName.str(), "$L__info_string0");
  EXPECT_EQ(k.instructions[1]->debugLoc, 2u);
}

TEST(Parser, NestedScopesShadow) {
  auto p = parse(kernel("{ .reg .b32 %t; mov.b32 %t, 1; { .reg .f32 %t; mov.f32 %t, 0f00000000; } }"));
  ASSERT_TRUE(p.ok()) << p.messages[0];
  auto &ins = onlyFunction(p).instructions;
  EXPECT_EQ(ins[0]->operands[0].reg->type, Type::B32);
  EXPECT_EQ(ins[1]->operands[0].reg->type, Type::F32);
}

TEST(Parser, ShapesAndArchitectureSpecificForms) {
  auto p = parse(kernel("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%f1,%f2}, %rd1, %rd2, 1, 1, 1, 0, 0;\n"
                        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];",
                        "sm_90a"),
                 90, 'a');
  ASSERT_TRUE(p.ok()) << p.messages[0];
  auto &ins = onlyFunction(p).instructions;
  EXPECT_EQ(ins[0]->shape.m, 64);
  EXPECT_EQ(ins[0]->shape.n, 128);
  EXPECT_EQ(ins[0]->shape.k, 16);
  EXPECT_EQ(ins[0]->types().size(), 3u);
  const Operand &tensor = ins[1]->operands[1];
  EXPECT_EQ(tensor.kind, OperandKind::List);
  EXPECT_EQ(tensor.bracket, Bracket::Square);
  EXPECT_EQ(tensor.elems[1].kind, OperandKind::Vector);
  EXPECT_EQ(ins[1]->space(), StateSpace::SharedCluster);
}

TEST(Parser, SyntaxErrorStopsWithPtxasMessage) {
  auto p = parse(kernel("add.s32 %r1, %r2, ;"));
  ASSERT_EQ(p.messages.size(), 1u);
  EXPECT_EQ(p.messages[0], "ptxas t.ptx, line 11; fatal   : Parsing error near ';': syntax error");
}

TEST(Parser, NeverCrashesOnTruncatedInput) {
  std::string text = kernel("ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2+16];\n@%p1 bra $L;\n$L: call.uni (%r1), f, (%r2);");
  for (size_t n = 0; n <= text.size(); ++n) {
    auto p = parse(text.substr(0, n));
    ASSERT_NE(p.module, nullptr);
  }
}
