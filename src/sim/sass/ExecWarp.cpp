// Special registers (S2R, S2UR, CS2R), uniform moves (R2UR, VOTEU) and warp-wide operations
// (SHFL, VOTE, MATCH, REDUX). A warp-wide operation sees exactly the lanes that execute it (the
// active mask), as on hardware after a WARPSYNC.
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "LaunchState.h"

namespace optxas::sim::sasssim {

using isa::Opcode;
using sass::Operand;
using sass::OperandKind;

namespace {

const Operand *find(const sass::Inst &in, OperandKind k, size_t from = 0) {
  for (size_t i = from; i < in.ops.size(); ++i)
    if (in.ops[i].kind == k) return &in.ops[i];
  return nullptr;
}

// The value of a special register for one lane; false if the simulator does not model it.
bool specialRegister(Exec &e, uint8_t index, unsigned lane, uint64_t &v) {
  std::string_view n = sass::specialRegName(index, e.ls.prog.target);
  const LaunchState &ls = e.ls;
  Dim3 tid = ls.tidOf(e.w, lane);
  const Dim3 &c = e.cta.ctaid, &grid = ls.cfg.grid;
  uint64_t linearCta = c.x + uint64_t(grid.x) * (c.y + uint64_t(grid.y) * c.z);
  if (n == "SR_TID.X") v = tid.x;
  else if (n == "SR_TID.Y") v = tid.y;
  else if (n == "SR_TID.Z") v = tid.z;
  else if (n == "SR_CTAID.X") v = c.x;
  else if (n == "SR_CTAID.Y") v = c.y;
  else if (n == "SR_CTAID.Z") v = c.z;
  else if (n == "SR_LANEID") v = lane;
  else if (n == "SR_EQMASK") v = 1u << lane;
  else if (n == "SR_LTMASK") v = (1u << lane) - 1;
  else if (n == "SR_LEMASK") v = uint32_t((uint64_t(2) << lane) - 1);
  else if (n == "SR_GTMASK") v = uint32_t(~((uint64_t(2) << lane) - 1));
  else if (n == "SR_GEMASK") v = ~((1u << lane) - 1);
  else if (n == "SR_CLOCKLO" || n == "SR_CLOCK") v = uint32_t(e.w.cycle);
  else if (n == "SR_CLOCKHI") v = uint32_t(e.w.cycle >> 32);
  else if (n == "SR_GLOBALTIMERLO") v = uint32_t(ls.instructions + e.w.cycle);
  else if (n == "SR_GLOBALTIMERHI") v = uint32_t((ls.instructions + e.w.cycle) >> 32);
  else if (n == "SR_SWINHI") v = uint32_t(ls.opts.map.sharedWindow >> 32);
  else if (n == "SR_SWINLO") v = uint32_t(ls.opts.map.sharedWindow);
  else if (n == "SR_LWINHI") v = uint32_t(ls.opts.map.localWindow >> 32);
  else if (n == "SR_LWINLO") v = uint32_t(ls.opts.map.localWindow);
  else if (n == "SR_SMEMSZ") v = ls.sharedBytes;
  else if (n == "SR_CgaCtaId") v = 0;
  else if (n == "SR_VIRTCFG") v = uint32_t(e.cta.warps.size()) << 8;   // nwarpid in 8..15
  else if (n == "SR_VIRTID") v = e.w.index << 8;                        // warpid in 8..14
  else if (n == "SR_VIRTUALSMID") v = linearCta % 132;
  else if (n == "SRZ") v = 0;
  else return false;
  return true;
}

bool readSpecial(Exec &e) {
  const sass::Inst &in = e.in;
  const Operand *sr = find(in, OperandKind::SReg);
  const Operand &dst = e.D(0);
  if (!sr) return false;
  bool wide = dst.width == 2 || in.op == Opcode::CS2R;
  std::string_view name = sass::specialRegName(sr->reg, e.ls.prog.target);
  // CS2R of CLOCKLO / GLOBALTIMERLO reads the 64-bit counter.
  bool pair = wide && (name == "SR_CLOCKLO" || name == "SR_GLOBALTIMERLO" || name == "SRZ");
  bool ok = true;
  e.forLanes([&](unsigned l) {
    uint64_t v = 0;
    if (!specialRegister(e, sr->reg, l, v)) {
      ok = false;
      return;
    }
    if (pair) {
      uint64_t hi = 0;
      if (name == "SR_CLOCKLO") hi = e.w.cycle >> 32;
      else if (name == "SR_GLOBALTIMERLO") hi = (e.ls.instructions + e.w.cycle) >> 32;
      v = uint32_t(v) | hi << 32;
      if (dst.width >= 2 || in.op == Opcode::CS2R) e.setDst64(dst, l, v);
      else e.setDst(dst, l, uint32_t(v));
    } else {
      e.setDst(dst, l, uint32_t(v));
    }
  });
  if (!ok) e.unsupported(fmt::format("special register {}", name));
  return true;
}

// SHFL.{IDX|UP|DOWN|BFLY} Pd, Rd, a, b(lane), c(clamp | segment mask << 8), with PTX's
// shfl.sync lane arithmetic; a lane reading outside the range or an inactive lane gets its own
// value (as the PTX interpreter does).
bool shuffle(Exec &e) {
  const Operand &pd = e.defOf(OperandKind::Pred), &rd = e.defOf(OperandKind::Reg);
  std::array<uint32_t, kWarpSize> val{};
  for (uint32_t m = e.group; m; m &= m - 1) {
    unsigned l = unsigned(__builtin_ctz(m));
    val[l] = e.src(e.S(0), l);
  }
  e.forLanes([&](unsigned l) {
    uint32_t b = e.src(e.S(1), l), c = e.src(e.S(2), l);
    uint32_t clamp = c & 0x1f, segmask = (c >> 8) & 0x1f;
    uint32_t maxLane = (l & segmask) | (clamp & ~segmask);
    uint32_t j = l;
    bool inRange = false;
    switch (e.in.mods.shfl) {
    case isa::ShflMode::UP:
      j = l - b;
      inRange = int32_t(j) >= int32_t(maxLane);
      break;
    case isa::ShflMode::DOWN:
      j = l + b;
      inRange = j <= maxLane;
      break;
    case isa::ShflMode::BFLY:
      j = l ^ b;
      inRange = j <= maxLane;
      break;
    default:
      j = (l & segmask) | (b & ~segmask & 0x1f);
      inRange = j <= maxLane;
      break;
    }
    if (!inRange || j >= kWarpSize || !(e.group >> j & 1)) j = l;
    e.setDst(rd, l, val[j]);
    e.setDst(pd, l, inRange);
  });
  return true;
}

} // namespace

bool execWarp(Exec &e) {
  const sass::Inst &in = e.in;
  switch (in.op) {
  case Opcode::S2R: case Opcode::S2UR: case Opcode::CS2R:
    return readSpecial(e);
  case Opcode::R2UR: {
    // R2UR{.OR} Pd, URd, Ra: the value of the first executing lane; Pd is true when some
    // executing lane holds another value. Inferred from ptxas's use (no public description):
    // `R2UR P, URZ, Rmask; @!P BRA.DIV URmask, slow` must reach the slow path for a mask that
    // differs between lanes, and an unguarded BRA.DIV falls through in a converged warp, so
    // BRA.DIV's guard is the fast-path condition (ExecControl.cpp) and P means "not uniform".
    if (in.mods.boolOp == isa::BoolOp::OR) {
      e.unsupported("R2UR.OR");
      return true;
    }
    const Operand &ud = e.defOf(OperandKind::UReg);
    const Operand &pd = e.defOf(OperandKind::Pred).kind != OperandKind::None ? e.defOf(OperandKind::Pred)
                                                                             : e.defOf(OperandKind::UPred);
    if (!e.act) return true;
    uint32_t first = e.src(e.S(0), unsigned(__builtin_ctz(e.act)));
    bool differs = false;
    for (uint32_t m = e.act; m; m &= m - 1) differs |= e.src(e.S(0), unsigned(__builtin_ctz(m))) != first;
    for (uint32_t m = e.act; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      e.setDst(ud, l, first);
      e.setDst(pd, l, differs);
    }
    return true;
  }
  case Opcode::SHFL:
    return shuffle(e);
  case Opcode::REDUX: {
    // REDUX{.op}{.S32} URd, Ra: reduction over the executing lanes into a uniform register.
    bool sgn = in.mods.intType == isa::IntType::S32;
    uint32_t acc = 0;
    bool first = true;
    for (uint32_t m = e.act; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      uint32_t v = e.src(e.S(0), l);
      if (first) {
        acc = v;
        first = false;
        continue;
      }
      switch (in.mods.redux) {
      case isa::ReduxOp::OR: acc |= v; break;
      case isa::ReduxOp::XOR: acc ^= v; break;
      case isa::ReduxOp::SUM: acc += v; break;
      case isa::ReduxOp::MIN:
        acc = sgn ? uint32_t(std::min(int32_t(acc), int32_t(v))) : std::min(acc, v);
        break;
      case isa::ReduxOp::MAX:
        acc = sgn ? uint32_t(std::max(int32_t(acc), int32_t(v))) : std::max(acc, v);
        break;
      default: acc &= v; break;
      }
    }
    if (e.act) e.setDst(e.D(0), 0, acc);
    return true;
  }
  case Opcode::MATCH: {
    // MATCH.ANY{.U64} Rd, Ra: the lanes holding the same value; MATCH.ALL Pd, Rd, Ra: all
    // executing lanes if they agree (Pd true), else 0.
    bool wide = in.mods.u64;
    std::array<uint64_t, kWarpSize> v{};
    for (uint32_t m = e.act; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      v[l] = wide ? e.src64(e.S(0), l) : e.src(e.S(0), l);
    }
    const Operand &rd = e.defOf(OperandKind::Reg), &pd = e.defOf(OperandKind::Pred);
    bool all = true;
    for (uint32_t m = e.act; m; m &= m - 1)
      all = all && v[unsigned(__builtin_ctz(m))] == v[unsigned(__builtin_ctz(e.act))];
    for (uint32_t m = e.act; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      uint32_t same = 0;
      for (uint32_t k = e.act; k; k &= k - 1)
        if (v[unsigned(__builtin_ctz(k))] == v[l]) same |= 1u << __builtin_ctz(k);
      if (in.mods.match == isa::MatchMode::ALL) {
        e.setDst(rd, l, all ? e.act : 0);
        e.setDst(pd, l, all);
      } else {
        e.setDst(rd, l, same);
      }
    }
    return true;
  }
  case Opcode::VOTE: case Opcode::VOTEU: {
    // VOTE{U}.{ALL|ANY|EQ} Rd, Pd, Ps: Rd = ballot of Ps over the executing lanes; Pd = all /
    // any / all-equal.
    bool uni = in.op == Opcode::VOTEU;
    const Operand &rd = e.defOf(uni ? OperandKind::UReg : OperandKind::Reg);
    const Operand &pd = e.defOf(uni ? OperandKind::UPred : OperandKind::Pred);
    uint32_t ballot = 0;
    for (uint32_t m = e.act; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      if (e.psrc(e.S(0), l)) ballot |= 1u << l;
    }
    bool r;
    switch (in.mods.vote) {
    case isa::VoteMode::ALL: r = ballot == e.act; break;
    case isa::VoteMode::ANY: r = ballot != 0; break;
    default: r = ballot == 0 || ballot == e.act; break;
    }
    if (uni) {
      if (e.act) {
        e.setDst(rd, 0, ballot);
        e.setDst(pd, 0, r);
      }
      return true;
    }
    for (uint32_t m = e.act; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      e.setDst(rd, l, ballot);
      e.setDst(pd, l, r);
    }
    return true;
  }
  default:
    return false;
  }
}

} // namespace optxas::sim::sasssim
