// The 1-bit mma without BMMA (Blackwell has none; sm_90 too with the knob OptxasBmmaEmulation,
// so the SASS simulator can run this code):
//
//   mma.sync.aligned.{m8n8k128,m16n8k128,m16n8k256}.row.col.s32.b1.b1.s32.{and,xor}.popc d, a, b, c
//
// computes D[r][n] = C[r][n] + sum over the 32-bit words w of row r of A and column n of B of
// popc(A[r][w] op B[w][n]). Each thread computes its own D elements from the words it needs,
// fetched from the lanes that hold them with SHFL.IDX, then LOP3 (and/xor), POPC and IADD3.
// The PTX fragment layouts (group g = lane >> 2, t = lane & 3; word w covers k = 32w .. 32w+31):
//   A word (r, w): lane 4 (r % 8) + w % 4, register (r >= 8) + 2 (w / 4)   (m8n8k128: register 0)
//   B word (w, n): lane 4 n + w % 4, register w / 4
//   C/D register j of lane 4g + t: row g + 8 (j >> 1), column 2t + (j & 1)
// So a thread's A words come from the four lanes of its own group (SHFL.IDX with the segment
// mask 0x1c: source lane (lane & 0x1c) | w % 4, immediate operands), its B words from the lanes of
// columns 2t and 2t + 1 (lane numbers computed from %laneid). ptxas instead calls weak
// MOVM.U4TO8 + IMMA.16832.U8 subroutines (docs/codegen.md, "mma .b1 on Blackwell").
#include "Emit.h"
#include "Passes.h"

#include <array>
#include <vector>

namespace optxas::lower {

using namespace sass;

namespace {

// SHFL.IDX PT, d, v, lane, c
Operand shflIdx(LowerCtx &cx, const Operand &v, const Operand &lane, int64_t c) {
  Operand d = cx.tempOp();
  isa::Modifiers m;
  m.shfl = isa::ShflMode::IDX;
  cx.emit(Opcode::SHFL, {PT(), d}, {v, lane, imm(c)}, m);
  return d;
}

} // namespace

bool lowerBitMmaEmulated(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const unsigned rows = in.shape.m, k = in.shape.k;
  const bool isXor = in.has(ptx::Mod::Xor);
  const unsigned aRegs = rows == 8 ? 1 : k / 64, bRegs = k / 128, cdRegs = rows == 8 ? 2 : 4;
  if (vectorCount(ops[0]) != cdRegs || vectorCount(ops[1]) != aRegs || vectorCount(ops[2]) != bRegs ||
      vectorCount(ops[3]) != cdRegs)
    return cx.error("mma operand vectors do not match the shape");
  // Every source is read before the first destination is written (d may alias a, b or c).
  std::vector<Operand> a, b, c;
  for (unsigned i = 0; i < aRegs; ++i) a.push_back(cx.srcReg(vectorElem(ops[1], i), ptx::Type::B32));
  for (unsigned i = 0; i < bRegs; ++i) b.push_back(cx.srcReg(vectorElem(ops[2], i), ptx::Type::B32));
  // C through a copy, as the BMMA path's gather: a C register that holds a constant then becomes
  // a MOV of it, and a dead mma that writes its own C (d = c) has no reader left and goes.
  for (unsigned i = 0; i < cdRegs; ++i) {
    c.push_back(cx.tempOp());
    cx.copy(c.back(), cx.srcReg(vectorElem(ops[3], i), ptx::Type::S32));
  }

  // A: aw[r][t] = register r of lane (lane & 0x1c) | t (width-4 segments: c = 0x1c1f).
  std::vector<std::array<Operand, 4>> aw(aRegs);
  for (unsigned r = 0; r < aRegs; ++r)
    for (unsigned t = 0; t < 4; ++t) aw[r][t] = shflIdx(cx, a[r], imm(t), 0x1c1f);
  // B: bw[h][col][t] = register h of lane 4 (2 (lane & 3) + col) + t = 8 (lane & 3) + 4 col + t.
  // (Every value gets a register of its own: dead-code elimination counts readers per register,
  // so an in-place update would keep a dead mma alive.)
  Operand lane = cx.tempOp(), lane8 = cx.tempOp(), base = cx.tempOp();
  cx.emit(Opcode::S2R, {lane}, {Operand::sreg(ori::SpecialReg::LANEID)});
  imad(cx, lane8, lane, imm(8), RZ());
  lop3(cx, base, lane8, imm(0x18), RZ(), 0xc0);
  std::array<std::array<Operand, 4>, 2> src;
  for (unsigned col = 0; col < 2; ++col)
    for (unsigned t = 0; t < 4; ++t) {
      if (col == 0 && t == 0) {
        src[col][t] = base;
        continue;
      }
      src[col][t] = cx.tempOp();
      iadd3(cx, src[col][t], base, imm(4 * col + t));
    }
  std::vector<std::array<std::array<Operand, 4>, 2>> bw(bRegs);
  for (unsigned h = 0; h < bRegs; ++h)
    for (unsigned col = 0; col < 2; ++col)
      for (unsigned t = 0; t < 4; ++t) bw[h][col][t] = shflIdx(cx, b[h], src[col][t], 0x1f);

  // D register j: C + the popcounts of its k / 32 word pairs, three terms per IADD3.
  const uint8_t lut = isXor ? 0x3c : 0xc0;   // a ^ b, a & b (a = 0xf0, b = 0xcc)
  std::vector<Operand> d(cdRegs);
  for (unsigned j = 0; j < cdRegs; ++j) {
    const unsigned rowHalf = j >> 1, col = j & 1;
    std::vector<Operand> terms{c[j]};
    for (unsigned w = 0; w < k / 32; ++w) {
      const unsigned t = w % 4, h = w / 4;
      const Operand &x = aw[rows == 8 ? 0 : rowHalf + 2 * h][t];
      Operand y = cx.tempOp(), p = cx.tempOp();
      lop3(cx, y, x, bw[h][col][t], RZ(), lut);
      cx.emit(Opcode::POPC, {p}, {y});
      terms.push_back(p);
    }
    Operand acc = terms[0];
    for (size_t i = 1; i < terms.size(); i += 2) {
      Operand s = cx.tempOp();
      iadd3(cx, s, acc, terms[i], i + 1 < terms.size() ? terms[i + 1] : RZ());
      acc = s;
    }
    d[j] = acc;
  }
  for (unsigned j = 0; j < cdRegs; ++j) {
    const ptx::Operand &e = vectorElem(ops[0], j);
    if (e.kind != ptx::OperandKind::Sink) cx.copy(cx.dst(e, ptx::Type::S32), d[j]);
  }
  return true;
}

} // namespace optxas::lower
