// Helpers shared by the floating-point semantics (ExecFloat.cpp, ExecHalfDouble.cpp,
// ExecConvert.cpp): source operands with |x| and -x applied, rounding modes, comparisons.
#pragma once

#include "Machine.h"
#include "optxas/sim/Float.h"

namespace optxas::sim::sasssim {

fp::Round toRound(isa::Round r);
uint32_t f32src(Exec &e, const sass::Operand &o, unsigned lane);
uint64_t f64src(Exec &e, const sass::Operand &o, unsigned lane);
// FSETP/DSETP/HSETP2 comparison (ordered, unordered, NUM, NAN) of two values.
bool compareFloat(isa::Cmp c, double a, double b);
bool combineBool(isa::BoolOp op, bool r, bool p);

} // namespace optxas::sim::sasssim
