// sm_90 asynchronous units: mbarrier operations (SYNCS), bulk and tensor copies (UBLKCP,
// UTMALDG, UTMACMDFLUSH, UTMACCTL) and warpgroup MMA (WARPGROUP, HGMMA).
//
// The flavour of each opcode is in Modifiers::extra (see the values below); bit positions were
// read from ptxas 13.0's sm_90a output and probed one bit at a time with nvdisasm.
#include "sm90/Sm90.h"

#include "optxas/isa/Syncs.h"

#include <string>

namespace optxas::sass::sm90 {

#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}

namespace {

using U = MemLayout::UrUse;

// [URn] with the uniform register at `pos` and nothing else.
MemLayout urAddress(int pos) {
  MemLayout l;
  l.ur = bits(pos, 6);
  l.urUse = U::Add;
  return l;
}

// [Ra+URb]: a register base at 24 and a uniform register at 64 (nvdisasm hides RZ / URZ).
MemLayout regUrAddress() {
  MemLayout l;
  l.base = bits(24, 8);
  l.ur = bits(64, 6);
  l.urUse = U::Add;
  return l;
}

void addSyncs(Builder &b) {
  // SYNCS.EXCH.64 URd, [URa], URb:URb+1   (mbarrier.init: stores the initial 64-bit state)
  b.form(Op::SYNCS, 0x5b2, {fixed(S::extra, 1, ".EXCH.64"), UR(16).def(), Mem(urAddress(24)), UR(32).w(2)});
  b.fix(bits(72, 1), 1);
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  // SYNCS.ARRIVE.TRANS64 Rd:Rd+1, [Ra+URb], Rc   (mbarrier.arrive.expect_tx: Rc = bytes)
  // SYNCS.ARRIVE.TRANS64.A1T0 Rd:Rd+1, [Ra+URb], RZ   (mbarrier.arrive: one arrival, no bytes)
  b.form(Op::SYNCS, 0x9a7, {fixed(S::extra, 2, ".ARRIVE.TRANS64"), R(16).def().w(2), Mem(regUrAddress()), R(32)});
  b.fix(bits(84, 1), 0);
  b.fix(bits(91, 1), 1);
  b.form(Op::SYNCS, 0x9a7,
         {fixed(S::extra, 3, ".ARRIVE.TRANS64.A1T0"), R(16).def().w(2), Mem(regUrAddress()), R(32)});
  b.fix(bits(75, 1), 0);
  b.fix(bits(84, 1), 1);
  b.fix(bits(91, 1), 1);
  // SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0 Rd:Rd+1, [Ra+URb], RZ   (mbarrier.arrive_drop)
  b.form(Op::SYNCS, 0x9a7,
         {fixed(S::extra, 6, ".ARRIVE.TRANS64.OPTOUT.A1T0"), R(16).def().w(2), Mem(regUrAddress()), R(32)});
  b.fix(bits(75, 1), 1);
  b.fix(bits(84, 1), 1);
  b.fix(bits(91, 1), 1);
  // SYNCS.PHASECHK.TRANS64 Pd, [Ra+URb], Rc   (mbarrier.test_wait: Rc = the state's high word)
  b.form(Op::SYNCS, 0x5a7,
         {fixed(S::extra, 5, ".PHASECHK.TRANS64"), P(81).def(), Mem(regUrAddress()), R(32)});
  b.fix(bits(70, 1), 1);
  b.fix(bits(72, 1), 0);
  b.fix(bits(91, 1), 1);
  // SYNCS.CCTL.IV [Ra+URb]   (mbarrier.inval)
  b.form(Op::SYNCS, 0x9b1, {fixed(S::extra, 7, ".CCTL.IV"), Mem(regUrAddress())});
  b.fix(bits(91, 1), 1);
  // SYNCS.PHASECHK.TRANS64.TRYWAIT Pd, [Ra+URb], Rc   (mbarrier.try_wait.parity: Rc = parity << 31)
  b.form(Op::SYNCS, 0x5a7,
         {fixed(S::extra, 4, ".PHASECHK.TRANS64.TRYWAIT"), P(81).def(), Mem(regUrAddress()), R(32)});
  b.fix(bits(70, 1), 1);
  b.fix(bits(72, 1), 1);
  b.fix(bits(91, 1), 1);
  addCpAsyncArriveForms(b, false);
}

// [Ra.64] where the pair is {shared::cluster address, mbarrier address} (st.async/red.async); the
// uniform register at 64 stays URZ (nvdisasm hides it).
MemLayout asyncPairAddress() {
  MemLayout l;
  l.base = bits(24, 8);
  l.base64Const = true;
  l.ur = bits(64, 6);
  l.urUse = U::Add;
  l.hideUrz = true;
  l.offset = bits(40, 24);
  return l;
}

void addAsyncStores(Builder &b) {
  // STAS{.64|.128} [Ra.64+imm], Rb   (st.async)
  b.form(Op::STAS, 0xdbd,
         {mod(S::memType, bits(73, 3),
              {V(4, isa::MemType::B32, ""), V(4, isa::MemType::None, ""), V(5, isa::MemType::B64, ".64"),
               V(6, isa::MemType::B128, ".128")}),
          Mem(asyncPairAddress()), R(32).wslot(S::memType)});
  b.fix(bits(77, 4), 0);
  b.fix(bits(90, 2), 3);
  // REDAS.op{.S32|.64} [Ra.64+imm], Rb   (red.async; the operation bits are ATOMG's)
  b.form(Op::REDAS, 0xdbe,
         {mod(S::atom, bits(87, 4),
              {V(0, isa::AtomOp::ADD, ".ADD"), V(1, isa::AtomOp::MIN, ".MIN"), V(2, isa::AtomOp::MAX, ".MAX"),
               V(3, isa::AtomOp::INC, ".INC"), V(4, isa::AtomOp::DEC, ".DEC"), V(5, isa::AtomOp::AND, ".AND"),
               V(6, isa::AtomOp::OR, ".OR"), V(7, isa::AtomOp::XOR, ".XOR")}),
          mod(S::atomType, bits(73, 3),
              {V(0, isa::AtomType::None, ""), V(0, isa::AtomType::U32, ""), V(1, isa::AtomType::S32, ".S32"),
               V(2, isa::AtomType::U64, ".64")}),
          Mem(asyncPairAddress()), R(32).wslot(S::atomType)});
  b.fix(bits(72, 1), 1);
  b.fix(bits(77, 4), 0);
  b.fix(bits(91, 1), 1);
  // They write no register: no write scoreboard.
  b.scoreboardsOf(Op::STAS, false, true);
  b.scoreboardsOf(Op::REDAS, false, true);
}

void addTma(Builder &b) {
  // UBLKCP.S.G [URdst:URmbar], [URsrc:URsrc+1], URsize   (global -> shared::cluster)
  // UBLKCP.G.S [URdst:URdst+1], [URsrc], URsize          (shared::cta -> global)
  // The size register holds bytes / 16.
  b.form(Op::UBLKCP, 0x3ba,
         {mod(S::extra, bits(73, 2), {V(1, 1, ".S.G"), V(2, 2, ".G.S")}), Mem(urAddress(32)),
          Mem(urAddress(24)), UR(64)});
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  // UTMALDG.nD [URdst:URmbar:URc0..], [URtmap:URtmap+1]   (tensor copy global -> shared)
  b.form(Op::UTMALDG, 0x5b4,
         {mod(S::extra, bits(79, 3),
              {V(0, 1, ".1D"), V(1, 2, ".2D"), V(2, 3, ".3D"), V(3, 4, ".4D"), V(4, 5, ".5D")}),
          Mem(urAddress(32)), Mem(urAddress(24))});
  b.fix(bits(76, 3), 0);
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  // UTMALDG.nD.IM2COL.MULTICAST [URdst:URmbar:URc0..], [URtmap:URtmap+1], URo   (extra 0x4n;
  // URo = the im2col offset in its low half, the CTA mask in its high half; 75 = .MULTICAST,
  // 82 = .IM2COL, 76 = a desc[UR] cache-policy operand, not used)
  b.form(Op::UTMALDG, 0x3b4,
         {mod(S::extra, bits(79, 3),
              {V(0, 0x41, ".1D"), V(1, 0x42, ".2D"), V(2, 0x43, ".3D"), V(3, 0x44, ".4D"), V(4, 0x45, ".5D")}),
          text(".IM2COL.MULTICAST"), Mem(urAddress(32)), Mem(urAddress(24)), UR(64)});
  b.fix(bits(75, 2), 1);
  b.fix(bits(77, 2), 0);
  b.fix(bits(82, 1), 1);
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  // UBLKPF.L2 [URsrc:URsrc+1], URsize   (cp.async.bulk.prefetch.L2: bytes / 16)
  Form &pf = b.form(Op::UBLKCP, 0x3bc, {fixed(S::extra, 3, ".L2"), Mem(urAddress(24)), UR(64)});
  pf.mnemonic = "UBLKPF";
  b.fix(bits(76, 1), 0);
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  // UBLKRED.G.S.op{.type} [URdst:URdst+1], [URsrc], URsize   (cp.reduce.async.bulk shared::cta ->
  // global; the operation and type bits are ATOMG's)
  Form &red = b.form(Op::UBLKCP, 0x3bb,
                     {mod(S::extra, bits(73, 2), {V(2, 4, ".G.S")}),
                      mod(S::atom, bits(87, 4),
                          {V(0, isa::AtomOp::ADD, ".ADD"), V(1, isa::AtomOp::MIN, ".MIN"),
                           V(2, isa::AtomOp::MAX, ".MAX"), V(3, isa::AtomOp::INC, ".INC"),
                           V(4, isa::AtomOp::DEC, ".DEC"), V(5, isa::AtomOp::AND, ".AND"),
                           V(6, isa::AtomOp::OR, ".OR"), V(7, isa::AtomOp::XOR, ".XOR")}),
                      mod(S::atomType, bits(81, 2),
                          {V(0, isa::AtomType::None, ""), V(1, isa::AtomType::S32, ".S32"),
                           V(2, isa::AtomType::U64, ".U64")}),
                      Mem(urAddress(32)), Mem(urAddress(24)), UR(64)});
  red.mnemonic = "UBLKRED";
  b.fix(bits(76, 5), 0);
  b.fix(bits(83, 2), 0);
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  // UTMASTG.nD [URsrc:URc0..], [URtmap:URtmap+1]   (tensor copy shared::cta -> global; extra 0x1n)
  Form &st = b.form(Op::UTMALDG, 0x3b5,
                    {mod(S::extra, bits(79, 3),
                         {V(0, 0x11, ".1D"), V(1, 0x12, ".2D"), V(2, 0x13, ".3D"), V(3, 0x14, ".4D"),
                          V(4, 0x15, ".5D")}),
                     Mem(urAddress(32)), Mem(urAddress(24))});
  st.mnemonic = "UTMASTG";
  b.fix(bits(76, 1), 0);
  b.fix(bits(82, 1), 0);
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  // UTMAPF.L2.nD [URc0..], [URtmap:URtmap+1]   (cp.async.bulk.prefetch.tensor; extra 0x2n)
  Form &tpf = b.form(Op::UTMALDG, 0x5b8,
                     {text(".L2"),
                      mod(S::extra, bits(79, 3),
                          {V(0, 0x21, ".1D"), V(1, 0x22, ".2D"), V(2, 0x23, ".3D"), V(3, 0x24, ".4D"),
                           V(4, 0x25, ".5D")}),
                      Mem(urAddress(32)), Mem(urAddress(24))});
  tpf.mnemonic = "UTMAPF";
  b.fix(bits(76, 1), 0);
  b.fix(bits(82, 1), 0);
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  // UTMACMDFLUSH: closes a bulk-async group (cp.async.bulk.commit_group); groups count on SB0.
  b.form(Op::UTMACMDFLUSH, 0x9b7, {});
  b.uniformGuard();
  // UTMACCTL.IV [URtmap]   (invalidates the tensor-map cache line: fence.proxy.tensormap)
  b.form(Op::UTMACCTL, 0x9b9, {fixed(S::extra, 1, ".IV"), Mem(urAddress(24))});
  b.fix(bits(82, 1), 0);
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  // UTMACCTL.PF [URtmap]   (prefetches the tensor map: prefetch.tensormap)
  b.form(Op::UTMACCTL, 0x9b9, {fixed(S::extra, 2, ".PF"), Mem(urAddress(24))});
  b.fix(bits(82, 1), 1);
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
}

// ".64xNxK" for N = 8 (raw + 1) for raw 0..31 (f16/bf16 inputs: K = 16, tf32: K = 8).
ModMap hgmmaShapes(unsigned k) {
  static std::vector<std::string> names[2];
  std::vector<std::string> &v = names[k == 8];
  if (v.empty())
    for (unsigned n = 0; n < 32; ++n) v.push_back(".64x" + std::to_string(8 * (n + 1)) + "x" + std::to_string(k));
  ModMap m;
  for (unsigned n = 0; n < 32; ++n) m.push_back(V(n, n + 1, v[n]));
  return m;
}

// IGMMA's N (the PTX shapes of 8-bit inputs: 8..32 by 8, then 48..256 by 16): raw 3 * index.
ModMap igmmaShapes() {
  static const std::vector<unsigned> ns = [] {
    std::vector<unsigned> v = {8, 16, 24};
    for (unsigned n = 32; n <= 256; n += 16) v.push_back(n);
    return v;
  }();
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (unsigned n : ns) v.push_back(".64x" + std::to_string(n) + "x32");
    return v;
  }();
  ModMap m;
  for (unsigned i = 0; i < ns.size(); ++i) m.push_back(V(3 * i, ns[i] / 8, names[i]));
  return m;
}

// The operand-matrix transposes (tnsp slot: 1 = A, 2 = B; bits 61, 62), printed after gdesc.
const char *const kTnspEnd[4] = {"]", "].tnspA", "].tnspB", "].tnspA.tnspB"};

void addWarpgroup(Builder &b) {
  // WARPGROUP.ARRIVE (wgmma.fence) / WARPGROUP.DEPBAR.LE gsb0, n (wgmma.wait_group n)
  b.form(Op::WARPGROUP, 0x9c5, {fixed(S::extra, 1, ".ARRIVE")});
  b.fix(bits(47, 1), 0);
  b.fix(bits(80, 1), 0);
  b.form(Op::WARPGROUP, 0x9c5, {fixed(S::extra, 2, ".DEPBAR.LE"), lit("gsb0"), Imm(bits(72, 3))});
  b.fix(bits(47, 1), 1);
  b.fix(bits(80, 1), 1);
  b.formAt(b.size() - 1).allowWait = false;   // nvdisasm rejects a wait mask on it
  // HGMMA.64xNxK.{F32,F16}{.BF16|.TF32} Rd, {Ra,} gdesc[URa]{.tnspA}{.tnspB}, Rc|RZ, {!}UPp {, gsb0}
  // extra = N / 8; gdesc[URa] is A's descriptor in URa:URa+1 and B's in URa+2:URa+3 (with A in
  // registers Ra..Ra+3, 0xdf0, gdesc at 32 holds B's only); the predicate is scale-d (accumulate
  // into Rc when true); barrierId 1 = gsb0 (this HGMMA closes the wgmma group WARPGROUP.DEPBAR
  // waits for). 58..59 = 1 for tf32's K = 8; 63 / 72 negate B / A (not used).
  // IGMMA.64xNx32.{U8,S8}.{U8,S8}{.SAT} (0x9f1): the 8-bit integer form, N in 53..58 (igmmaShapes),
  // A's type at 76..77, B's at 82..83; its instructions carry floatType F32 (N / 2 accumulators).
  enum Kind { F16, TF32, F16RegA, I8 };
  for (Kind kind : {F16, TF32, F16RegA, I8})
    for (unsigned tnsp = 0; tnsp < 4; ++tnsp) {
      if ((kind == I8 || kind == F16RegA) && (tnsp & 1)) continue;   // A in registers: no tnspA
      if (kind == I8 && tnsp) continue;
      for (bool gsb : {false, true}) {
        std::vector<E> elems;
        if (kind == I8) {
          elems = {mod(S::extra, bits(53, 6), igmmaShapes()),
                   mod(S::intType, bits(76, 2), {V(0, isa::IntType::U8, ".U8"), V(1, isa::IntType::S8, ".S8")}),
                   mod(S::srcIntType, bits(82, 2), {V(0, isa::IntType::U8, ".U8"), V(1, isa::IntType::S8, ".S8")}),
                   flag(S::sat, 75, ".SAT"), fixed(S::floatType, static_cast<uint8_t>(isa::FloatType::F32), "")};
        } else if (kind == TF32) {
          elems = {mod(S::extra, bits(53, 5), hgmmaShapes(8)),
                   mod(S::floatType, bits(75, 1), {V(1, isa::FloatType::F32, ".F32")}),
                   mod(S::srcFloatType, bits(76, 2), {V(2, isa::FloatType::TF32, ".TF32")})};
        } else {
          elems = {mod(S::extra, bits(53, 5), hgmmaShapes(16)),
                   mod(S::floatType, bits(75, 1),
                       {V(0, isa::FloatType::F16, ".F16"), V(1, isa::FloatType::F32, ".F32")}),
                   mod(S::srcFloatType, bits(76, 2),
                       {V(0, isa::FloatType::F16, ""), V(1, isa::FloatType::BF16, ".BF16")})};
        }
        if (tnsp) elems.push_back(fixed(S::tnsp, static_cast<uint8_t>(tnsp), ""));
        elems.push_back(R(16).def().wslot(S::extra));
        if (kind == F16RegA) {
          elems.push_back(R(24).w(4));
          elems.push_back(UR(32).w(2).wrapped("gdesc[", kTnspEnd[tnsp]));
        } else {
          elems.push_back(UR(24).w(4).wrapped("gdesc[", kTnspEnd[tnsp]));
        }
        elems.push_back(R(64).wslot(S::extra));
        elems.push_back(UP(87).xored(7).inv(90).opt(1, upt()));
        if (gsb) {
          elems.push_back(fixed(S::barrierId, 1, ""));
          elems.push_back(lit("gsb0"));
        }
        Form &f = b.form(kind == I8 ? Op::HGMMA : Op::HGMMA, kind == I8 ? 0x9f1 : kind == F16RegA ? 0xdf0 : 0x9f0, elems);
        if (kind == I8) f.mnemonic = "IGMMA";
        b.fix(bits(84, 3), gsb ? 0 : 7);
        if (kind != I8) b.fix(bits(58, 2), kind == TF32 ? 1 : 0);
        b.fix(bits(61, 2), tnsp);
        b.fix(bits(63, 1), 0);
        b.fix(bits(72, 2), 0);
        if (kind == I8) b.fix(bits(74, 1), 0);
        b.fix(bits(91, 1), 1);
      }
    }
}

// ELECT Pd, URd, Pmask   (elect.sync: Pd true in one lane, URd its lane number)
void addElect(Builder &b) {
  b.form(Op::ELECT, 0x82f, {P(81).def(), UR(16).def(), P(87).inv(90)});
  b.scoreboards(false, false);
}

} // namespace

// cp.async.mbarrier.arrive (ptxas 13.0; src/lower/HopperAsync.cpp, lowerCpAsyncArrive):
// SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [RZ+URb], RZ   (no arrival, one expected transaction)
// ARRIVES.LDGSTSBAR.64.{TRANSCNT|ARVCNT} [URb+imm24]: completes one transaction / one arrival on
// the mbarrier once this thread's earlier LDGSTS have landed (sm_90: 70 = ARVCNT, 71 = TRANSCNT;
// sm_100/120, whose UR fields reach bit 71: 76 and 77). A SYNCS flavour spelled ARRIVES, as UBLKPF
// is one of UBLKCP. nvdisasm accepts no register base (bits 24..31 stay RZ).
void addCpAsyncArriveForms(Builder &b, bool blackwell) {
  b.form(Op::SYNCS, 0x9a7,
         {fixed(S::extra, isa::kSyncsArriveRedA0T1, ".ARRIVE.TRANS64.RED.A0T1"), R(16).def().w(2), Mem(regUrAddress()), R(32)});
  b.fix(bits(74, 1), 1);
  b.fix(bits(75, 1), 0);
  b.fix(bits(84, 2), 2);
  b.fix(bits(91, 1), 1);
  MemLayout arrives = urAddress(64);
  arrives.offset = bits(40, 24);
  for (bool trans : {true, false}) {
    Form &f = b.form(Op::SYNCS, 0x9b0,
                     {fixed(S::extra, trans ? isa::kArrivesTransCnt : isa::kArrivesArvCnt,
                            trans ? ".LDGSTSBAR.64.TRANSCNT" : ".LDGSTSBAR.64.ARVCNT"),
                      Mem(arrives)});
    f.mnemonic = "ARRIVES";
    b.fix(bits(24, 8), 0xff);
    if (blackwell) b.fix(bits(76, 2), trans ? 2 : 1);
    else b.fix(bits(70, 2), trans ? 2 : 1);
    b.fix(bits(73, 1), 1);
    b.fix(bits(75, 1), 1);
    b.fix(bits(91, 1), 1);
    b.noWriteScoreboard();   // (nvdisasm rejects one: ARRIVES writes no register)
  }
}

void addAsyncForms(Builder &b) {
  addElect(b);
  addSyncs(b);
  addTma(b);
  addAsyncStores(b);
  addWarpgroup(b);
  // Scoreboards as ptxas sets them: SYNCS releases a write scoreboard for its result and a read
  // one for its sources; the copies and UTMACCTL only read; HGMMA and WARPGROUP take none
  // (WARPGROUP.DEPBAR is the wait); UTMACMDFLUSH counts bulk groups on a read scoreboard.
  b.scoreboardsOf(Op::UBLKCP, false, true);
  b.scoreboardsOf(Op::UTMALDG, false, true);
  b.scoreboardsOf(Op::UTMACCTL, false, true);
  b.scoreboardsOf(Op::UTMACMDFLUSH, false, true);
  b.scoreboardsOf(Op::WARPGROUP, false, false);
  b.scoreboardsOf(Op::HGMMA, false, false);
}

#undef V
} // namespace optxas::sass::sm90
