#include "optxas/ori/Stats.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "optxas/ori/CFG.h"
#include "optxas/ori/Liveness.h"

namespace optxas::ori {
namespace {

constexpr double kRegsPerSM = 65536, kMaxWarpsPerSM = 64, kRegAllocGranule = 256;
constexpr double kSharedPerSM = 228 * 1024;
constexpr double kRegReadsPerCycle = 3;   // register-file read ports per SMSP per cycle

size_t unitIndex(Unit u) { return static_cast<size_t>(u); }

unsigned memBytes(const Instr &i) {
  switch (i.mods().memType) {
  case isa::MemType::U8:
  case isa::MemType::S8: return 1;
  case isa::MemType::U16:
  case isa::MemType::S16: return 2;
  case isa::MemType::B64: return 8;
  case isa::MemType::B128: return 16;
  default: return 4;
  }
}

unsigned regBytes(const Function &f, const Operand &o) {
  if (o.kind != OperandKind::Reg) return 0;
  return 4u * (o.subWidth ? o.subWidth : f.vreg(o.reg).width);
}

// Longest chain of dependent latencies inside one block (values from other blocks are ready).
unsigned blockCriticalPath(const Function &f, const BasicBlock *bb) {
  std::vector<unsigned> ready(f.numVRegs(), 0);
  unsigned longest = 0;
  for (const Instr *i : *bb) {
    unsigned start = 0;
    Liveness::forEachUse(*i, [&](VRegId r) { start = std::max(start, ready[r]); });
    unsigned finish = start + opcodeCost(i->opcode()).latency;
    Liveness::forEachDef(*i, [&](VRegId r) { ready[r] = finish; });
    longest = std::max(longest, finish);
  }
  return longest;
}

unsigned highestPhys(const Function &f, RegClass c) {
  unsigned top = 0;
  std::vector<bool> used(f.numVRegs(), false);
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      for (const Operand &o : i->operands())
        if (o.refersToVReg()) used[o.reg] = true;
      if (i->guard().kind == OperandKind::Reg) used[i->guard().reg] = true;
    }
  for (VRegId r = 0; r < f.numVRegs(); ++r) {
    const VReg &v = f.vreg(r);
    if (used[r] && v.cls == c && v.phys >= 0) top = std::max(top, static_cast<unsigned>(v.phys + v.width));
  }
  return top;
}

} // namespace

FunctionStats computeStats(Function &f) {
  FunctionStats s;
  ControlFlowInfo &cfg = ensureControlFlow(f);
  const bool post = f.isAllocated();
  std::array<double, 16> unitBusy{};
  double fpBusy = 0, halfBusy = 0, transBusy = 0, ipaBusy = 0, sharedBusy = 0, cfBusy = 0, lsBusy = 0,
         texBusy = 0, regReads = 0;
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      const OpcodeCost &c = opcodeCost(i->opcode());
      ++s.instructions;
      if (!i->isPseudo()) ++s.realInstructions;
      ++s.unitCount[unitIndex(c.unit)];
      unitBusy[unitIndex(c.unit)] += c.issue;
      switch (c.category) {
      case Category::Fp: ++s.fp; fpBusy += c.issue; break;
      case Category::Half: ++s.half; halfBusy += c.issue; break;
      case Category::Trans: ++s.trans; transBusy += c.issue; break;
      case Category::Ipa: ++s.ipa; ipaBusy += c.issue; break;
      case Category::Shared: ++s.shared; sharedBusy += c.issue; break;
      case Category::Control: ++s.controlFlow; cfBusy += c.issue; break;
      case Category::LoadStore: ++s.loadStore; lsBusy += c.issue; break;
      case Category::Tex: ++s.tex; texBusy += c.issue; break;
      case Category::Uniform: ++s.udpInst; break;
      default: break;
      }
      bool halfTyped = isHalfType(i->type()) || c.category == Category::Half;
      if (halfTyped) {
        ++s.fp16Inst;
        if (c.category == Category::Half || i->type() == DataType::F16x2 || i->type() == DataType::BF16x2)
          ++s.fp16VectInst;
      }
      if (c.category == Category::Tex) {
        ++s.texInst;
        if (bb->loopDepth() > 0) ++s.tepid;
        bool cb = false, ur = false;
        for (const Operand &o : i->uses()) {
          cb |= o.kind == OperandKind::CBank;
          ur |= o.kind == OperandKind::Reg && isUniformClass(o.cls);
        }
        if (cb) ++s.cbBoundTex;
        else if (ur) ++s.urBoundTex;
        else ++s.bindlessTex;
      }
      for (const Operand &o : i->uses())
        if (o.kind == OperandKind::Reg && o.cls == RegClass::R) regReads += 1;
      if (std::any_of(i->defs().begin(), i->defs().end(), [&](const Operand &o) {
            return o.kind == OperandKind::Reg && (o.subWidth ? o.subWidth : f.vreg(o.reg).width) == 2;
          }))
        ++s.pairs;
      using isa::Opcode;
      switch (i->opcode()) {
      case Opcode::PSEUDO_SPILL:
        for (const Operand &o : i->uses()) s.lSpillB += regBytes(f, o);
        break;
      case Opcode::PSEUDO_FILL:
        for (const Operand &o : i->defs()) s.lRefillB += regBytes(f, o);
        break;
      case Opcode::STL: s.lNonSpillB += memBytes(*i); break;
      case Opcode::LDL: s.lNonRefillB += memBytes(*i); break;
      case Opcode::R2UR: ++s.vecToURConverts; break;
      default: break;
      }
      bool branch = i->opcode() == Opcode::BRA || i->opcode() == Opcode::BRX || i->opcode() == Opcode::JMX;
      if (branch && ((i->isPredicated() && i->guard().cls == RegClass::P) || i->opcode() != Opcode::BRA))
        ++s.divergentBranches;
      if (c.category == Category::Fp && i->mods().round != isa::Round::None) ++s.preciseInst;
    }

  // Registers: pressure before allocation, the highest assigned register after.
  s.rregs = post ? highestPhys(f, RegClass::R) : maxPressure(f, RegClass::R);
  s.urregs = post ? highestPhys(f, RegClass::UR) : maxPressure(f, RegClass::UR);

  // Latency over the acyclic CFG (back edges ignored): longest path and branch-weighted average.
  std::vector<double> lat(f.blockIdLimit(), 0), longest(f.blockIdLimit(), 0), prob(f.blockIdLimit(), 0);
  double sumLat = 0;
  for (BasicBlock *bb : cfg.rpo()) {
    lat[bb->id()] = blockCriticalPath(f, bb);
    sumLat += lat[bb->id()];
  }
  if (!cfg.rpo().empty()) prob[cfg.rpo().front()->id()] = 1.0;
  for (BasicBlock *bb : cfg.rpo()) {
    longest[bb->id()] += lat[bb->id()];
    s.worstCaseLat = std::max(s.worstCaseLat, longest[bb->id()]);
    s.avgCaseLat += prob[bb->id()] * lat[bb->id()];
    std::vector<BasicBlock *> forward;
    for (BasicBlock *succ : bb->succs())
      if (succ->rpoIndex() > bb->rpoIndex()) forward.push_back(succ);
    for (BasicBlock *succ : forward) {
      longest[succ->id()] = std::max(longest[succ->id()], longest[bb->id()]);
      prob[succ->id()] += prob[bb->id()] / static_cast<double>(forward.size());
    }
  }
  s.estLatency = static_cast<unsigned>(std::lround(sumLat));

  // Loops.
  for (const auto &l : cfg.loops()) {
    if (l->header->partiallyUnrolled()) ++s.partiallyUnrolledLoops;
    else ++s.nonUnrolledLoops;
  }

  // Live values across calls (values a callee must preserve).
  if (std::any_of(f.blocks().begin(), f.blocks().end(), [](BasicBlock *bb) {
        return std::any_of(bb->begin(), bb->end(), [](Instr *i) { return i->opcode() == isa::Opcode::CALL; });
      })) {
    Liveness lv(f);
    for (BasicBlock *bb : f.blocks())
      lv.walkBlock(bb, [&](const Instr &i, const llvm::BitVector &after) {
        if (i.opcode() != isa::Opcode::CALL) return;
        llvm::BitVector across = after;
        Liveness::forEachDef(i, [&](VRegId r) { across.reset(r); });
        s.maxLiveAtSuspend = std::max(s.maxLiveAtSuspend, static_cast<unsigned>(across.count()));
      });
  }

  // Frame.
  s.lowLmemSpillSize = f.lowSpillBytes;
  s.frameLmemSpillSize = f.spillBytes;
  s.nonSpillSize = f.localBytes;
  s.programSize = f.sassCode.empty() ? 16 * s.realInstructions : static_cast<unsigned>(f.sassCode.size());

  // Occupancy from the register count alone (CTA shape and shared memory are not known here).
  double regsPerWarp = std::ceil(std::max(1u, s.rregs) * 32.0 / kRegAllocGranule) * kRegAllocGranule;
  s.occupancy = std::min(kMaxWarpsPerSM, std::floor(kRegsPerSM / regsPerWarp)) / kMaxWarpsPerSM;
  s.warpThru = s.occupancy;

  // Throughputs: the fraction of the busiest-resource time each resource is busy.
  double t = s.realInstructions;
  for (double b : unitBusy) t = std::max(t, b);
  t = std::max(t, regReads / kRegReadsPerCycle);
  if (t > 0) {
    s.issueThru = s.realInstructions / t;
    s.fpThru = fpBusy / t;
    s.halfThru = halfBusy / t;
    s.transThru = transBusy / t;
    s.ipaThru = ipaBusy / t;
    s.sharedThru = sharedBusy / t;
    s.controlFlowThru = cfBusy / t;
    s.texLoadStoreThru = (texBusy + lsBusy) / t;
    s.regThru = regReads / kRegReadsPerCycle / t;
    for (size_t u = 0; u < unitBusy.size(); ++u) s.unitThru[u] = unitBusy[u] / t;
  }
  s.instHint = s.realInstructions;
  s.instPairs = s.pairs;
  s.sharedMemAllocThru = f.sharedBytes / kSharedPerSM;
  return s;
}

std::string formatStatsHeader(const FunctionStats &s, bool postRA) {
  std::string o;
  auto out = std::back_inserter(o);
  auto unit = [&](Unit u) { return s.unitCount[unitIndex(u)]; };
  auto thru = [&](Unit u) { return s.unitThru[unitIndex(u)]; };
  fmt::format_to(out, "# {} instructions, {} R-regs", s.instructions, s.rregs);
  if (s.urregs) fmt::format_to(out, " [urregs={}]", s.urregs);
  o += '\n';
  fmt::format_to(out, "# [inst={}] [texInst={}] [tepid={}] [rregs={}]\n", s.instructions, s.texInst, s.tepid, s.rregs);
  double vect = s.fp16Inst ? 100.0 * s.fp16VectInst / s.fp16Inst : 0.0;
  fmt::format_to(out, "# [FP16 inst={}] [FP16 VectInst={}] [Percentage Vectorized={:.2f}]\n", s.fp16Inst,
                 s.fp16VectInst, vect);
  if (!postRA) {
    fmt::format_to(out,
                   "# [est latency = {}] [LSpillB={}] [LRefillB={}], [SSpillB={}], [SRefillB={}], "
                   "[LowLmemSpillSize={}] [FrameLmemSpillSize={}]\n",
                   s.estLatency, s.lSpillB, s.lRefillB, s.sSpillB, s.sRefillB, s.lowLmemSpillSize,
                   s.frameLmemSpillSize);
    fmt::format_to(out, "# [LNonSpillB={}] [LNonRefillB={}], [NonSpillSize={}]\n", s.lNonSpillB, s.lNonRefillB,
                   s.nonSpillSize);
    fmt::format_to(out,
                   "# [Occupancy = {:f}], [est numDivergentBranches={}] [attributeMemUsage={}], [programSize={}]\n",
                   s.occupancy, s.divergentBranches, s.attributeMemUsage, s.programSize);
    fmt::format_to(out,
                   "# [est fp={}] [est half={}], [est trancedental={}], [est ipa={}], [est shared={}], "
                   "[est controlFlow={}], [est loadStore={}] \n",
                   s.fp, s.half, s.trans, s.ipa, s.shared, s.controlFlow, s.loadStore);
    fmt::format_to(out, "# [est tex={}] [est pairs={}] \n", s.tex, s.pairs);
    fmt::format_to(out,
                   "# [issue thru={:f}] [fp thru={:f}] [half thru={:f}], [trancedental thru={:f}], [ipa thru={:f}]\n",
                   s.issueThru, s.fpThru, s.halfThru, s.transThru, s.ipaThru);
    fmt::format_to(out,
                   "# [shared thru={:f}] [controlFlow thru={:f}] [texLoadStore thru={:f}], [reg thru={:f}], "
                   "[warp thru={:f}]\n",
                   s.sharedThru, s.controlFlowThru, s.texLoadStoreThru, s.regThru, s.warpThru);
  } else {
    fmt::format_to(out,
                   "# [est latency = {}] [LSpillB={}] [LRefillB={}] [SSpillB={}] [SRefillB={}] [SpillSize={}]\n",
                   s.estLatency, s.lSpillB, s.lRefillB, s.sSpillB, s.sRefillB, s.frameLmemSpillSize);
    fmt::format_to(out, "# [LNonSpillB={}] [LNonRefillB={}] [NonSpillSize={}]\n", s.lNonSpillB, s.lNonRefillB,
                   s.nonSpillSize);
    fmt::format_to(out, "# [Occupancy = {:f}] [est numDivergentBranches={}] [attributeMemUsage={}] [programSize={}]\n",
                   s.occupancy, s.divergentBranches, s.attributeMemUsage, s.programSize);
    // fma2x, schedDisp and the MMA shapes have no opcode in our ISA table yet: they stay 0.
    fmt::format_to(out, "# [est adu={}] [est alu={}] [est cbu={}] [est fma2x={}] [est fma={}] [est half={}]\n",
                   unit(Unit::ADU), unit(Unit::ALU), unit(Unit::CBU), 0, unit(Unit::FMA), unit(Unit::Half));
    fmt::format_to(out, "# [est trancedental={}] [est ipa={}] [est lsu={}] [est redux={}]\n", unit(Unit::XU),
                   unit(Unit::IPA), unit(Unit::LSU) + unit(Unit::Shared), unit(Unit::Redux));
    fmt::format_to(out, "# [est schedDisp={}] [est tex={}] [est ttu={}] [est udp={}]\n", 0, unit(Unit::Tex),
                   unit(Unit::TTU), unit(Unit::UDP));
    fmt::format_to(out, "# [est imma16816={}] [est imma16832={}] [est immaSp8832={}] [est immaSp16832={}]\n", 0, 0, 0, 0);
    fmt::format_to(out, "# [est dmma={}] [est fma64={}] [est hmma16816={}] [est hmma16816f16={}]\n", 0,
                   unit(Unit::FMA64), 0, 0);
    fmt::format_to(out, "# [est hmma1688={}] [est hmma1688f16={}] [est hmmaSp1688={}] [est hmmaSp1688f16={}]\n", 0, 0,
                   0, 0);
    fmt::format_to(out,
                   "# [issue thru={:f}] [adu thru={:f}] [alu thru={:f}] [cbu thru={:f}] [fma2x thru={:f}] "
                   "[fma thru={:f}]\n",
                   s.issueThru, thru(Unit::ADU), thru(Unit::ALU), thru(Unit::CBU), 0.0, thru(Unit::FMA));
    fmt::format_to(out, "# [trancedental thru={:f}] [ipa thru={:f}] [lsu thru={:f}] [redux thru={:f}]\n",
                   thru(Unit::XU), thru(Unit::IPA), thru(Unit::LSU) + thru(Unit::Shared), thru(Unit::Redux));
    fmt::format_to(out, "# [schedDisp thru={:f}] [tex thru={:f}] [ttu thru={:f}] [udp thru={:f}]\n", 0.0,
                   thru(Unit::Tex), thru(Unit::TTU), thru(Unit::UDP));
    fmt::format_to(out,
                   "# [imma16816 thru={:f}] [imma16832 thru={:f}] [immaSp8832 thru={:f}] [immaSp16832 thru={:f}]\n",
                   0.0, 0.0, 0.0, 0.0);
    fmt::format_to(out, "# [dmma thru={:f}] [fma64 thru={:f}] [hmma16816 thru={:f}] [hmma16816f16 thru={:f}]\n", 0.0,
                   thru(Unit::FMA64), 0.0, 0.0);
    fmt::format_to(out,
                   "# [hmma1688 thru={:f}] [hmma1688f16 thru={:f}] [hmmaSp1688 thru={:f}] [hmmaSp1688f16 thru={:f}]\n",
                   0.0, 0.0, 0.0, 0.0);
    fmt::format_to(out, "# [reg thru={:f}] [warp thru={:f}]\n", s.regThru, s.warpThru);
  }
  fmt::format_to(out, "# [partially unrolled loops={}] [non-unrolled loops={}]\n", s.partiallyUnrolledLoops,
                 s.nonUnrolledLoops);
  fmt::format_to(out, "# [CB-Bound Tex={}] [UR-Bound Tex={}] [Bindless Tex={}] [Partially Bound Tex={}]\n",
                 s.cbBoundTex, s.urBoundTex, s.bindlessTex, s.partiallyBoundTex);
  fmt::format_to(out, "# [UDP inst={}] [numVecToURConverts inst={}]\n", s.udpInst, s.vecToURConverts);
  fmt::format_to(out, "# [maxNumLiveValuesAtSuspend={}]\n", s.maxLiveAtSuspend);
  fmt::format_to(out, "# [instHint={}] [instPairs={}]\n", s.instHint, s.instPairs);
  fmt::format_to(out, "# [worstcaseLat={:f}] \n", s.worstCaseLat);
  fmt::format_to(out, "# [avgcaseLat={:f}] \n", s.avgCaseLat);
  fmt::format_to(out, "# [SharedMem Alloc thru={:f}]\n", s.sharedMemAllocThru);
  fmt::format_to(out, "# [Precise inst={}]\n", s.preciseInst);
  return o;
}

} // namespace optxas::ori
