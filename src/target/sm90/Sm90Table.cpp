// Assembles the sm_90 table from its families and registers it for Target::SM90. The
// Blackwell tables (src/target/sm100) start from the same forms.
#include "sm90/Sm90.h"

namespace optxas::sass {

namespace sm90 {

void addAllForms(FormTable &t) {
  Builder b(t);
  addIntegerForms(b);
  addFloatForms(b);
  addDoubleHalfForms(b);
  addConversionForms(b);
  addMemoryForms(b);
  addUniformForms(b);
  addControlForms(b);
  addWarpForms(b);
  addSpecialRegisters(t);
  t.noSpacingOps_ = {Op::I2I, Op::R2UR};
}

const FormTable &table() {
  static const FormTable *t = [] {
    auto *ft = new FormTable(Target::SM90);
    addAllForms(*ft);
    // Hopper's asynchronous units (mbarrier, bulk copies, wgmma) and the tensor-core forms:
    // sm_90 only; the Blackwell tables do not inherit them until their encodings are checked there.
    Builder b(*ft);
    addAsyncForms(b);
    addTensorForms(b);
    addTextureForms(b);
    ft->spacingOps_ = {Op::HMMA, Op::IMMA, Op::BMMA};
    ft->finalize();
    return ft;
  }();
  return *t;
}

} // namespace sm90

namespace sm90::maps {

using isa::BoolOp;
using isa::Cmp;
using isa::MemType;
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}

const ModMap &intCmp() {
  static const ModMap m = {V(0, Cmp::F, ".F"),  V(1, Cmp::LT, ".LT"), V(2, Cmp::EQ, ".EQ"),
                           V(3, Cmp::LE, ".LE"), V(4, Cmp::GT, ".GT"), V(5, Cmp::NE, ".NE"),
                           V(6, Cmp::GE, ".GE"), V(7, Cmp::T, ".T")};
  return m;
}

const ModMap &boolOp() {
  static const ModMap m = {V(0, BoolOp::AND, ".AND"), V(1, BoolOp::OR, ".OR"),
                           V(2, BoolOp::XOR, ".XOR")};
  return m;
}

const ModMap &floatCmp() {
  static const ModMap m = {
      V(0, Cmp::F, ".F"),      V(1, Cmp::LT, ".LT"),    V(2, Cmp::EQ, ".EQ"),
      V(3, Cmp::LE, ".LE"),    V(4, Cmp::GT, ".GT"),    V(5, Cmp::NE, ".NE"),
      V(6, Cmp::GE, ".GE"),    V(7, Cmp::NUM, ".NUM"),  V(8, Cmp::NAN_, ".NAN"),
      V(9, Cmp::LTU, ".LTU"),  V(10, Cmp::EQU, ".EQU"), V(11, Cmp::LEU, ".LEU"),
      V(12, Cmp::GTU, ".GTU"), V(13, Cmp::NEU, ".NEU"), V(14, Cmp::GEU, ".GEU"),
      V(15, Cmp::T, ".T")};
  return m;
}

const ModMap &memSize() {
  static const ModMap m = {V(0, MemType::U8, ".U8"),   V(1, MemType::S8, ".S8"),
                           V(2, MemType::U16, ".U16"), V(3, MemType::S16, ".S16"),
                           V(4, MemType::B32, ""),     V(4, MemType::None, ""),
                           V(5, MemType::B64, ".64"),  V(6, MemType::B128, ".128")};
  return m;
}

#undef V
} // namespace sm90::maps

} // namespace optxas::sass
