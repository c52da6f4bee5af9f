// Modifiers::extra values of the SYNCS flavours shared by lowering, the tables and the
// attribute writer (1..7, the mbarrier.* forms, are spelled out in src/target/sm90/AsyncForms.cpp).
#pragma once

#include <cstdint>

namespace optxas::isa {

// cp.async.mbarrier.arrive (src/lower/AsyncCopy.cpp)
constexpr uint8_t kSyncsArriveRedA0T1 = 8;   // SYNCS.ARRIVE.TRANS64.RED.A0T1: one expected transaction
constexpr uint8_t kArrivesTransCnt = 9;      // ARRIVES.LDGSTSBAR.64.TRANSCNT: completes it
constexpr uint8_t kArrivesArvCnt = 10;       // ARRIVES.LDGSTSBAR.64.ARVCNT: one arrival (.noinc)
// mbarrier.arrive on sm_8x (src/lower/AmpereMbarrier.cpp)
constexpr uint8_t kAtomsArrive64 = 11;       // ATOMS.ARRIVE.64 Rd, [a]: one arrival, the old state
// Modifiers::extra flags (stripped before encoding) on the sm_8x mbarrier.init STS.64 and the
// test_wait LDS of the phase word, for their MBARRIER_INSTR_OFFSETS records (kinds 0, 5 and,
// with kMbarrierParity too, 6 for test_wait.parity).
constexpr uint8_t kMbarrierAccess = 0x40;
constexpr uint8_t kMbarrierParity = 0x20;

} // namespace optxas::isa
