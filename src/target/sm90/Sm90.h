// The sm_90 (Hopper) SASS encoding table, split by instruction family. Every fact in these files
// was established by encoding candidate bits and reading them back with nvdisasm (see
// docs/sass-encoding.md and tests/encoding/probe.py).
#pragma once

#include "sass/TableBuilder.h"

namespace optxas::sass::sm90 {

using namespace tbl;
using namespace tbl::dsl;

// The finished table (built on first use).
const FormTable &table();
// Adds every sm_90 form and the special registers to `t` (not finalized): the base that the
// derived Blackwell tables edit.
void addAllForms(FormTable &t);

void addIntegerForms(Builder &b);
void addUniformIntegerForms(Builder &b);
void addFloatForms(Builder &b);
void addDoubleHalfForms(Builder &b);
void addConversionForms(Builder &b);
void addMemoryForms(Builder &b);
void addUniformForms(Builder &b);
void addControlForms(Builder &b);
void addWarpForms(Builder &b);
void addAsyncForms(Builder &b);
// cp.async.mbarrier.arrive's SYNCS.ARRIVE.TRANS64.RED.A0T1 and ARRIVES.LDGSTSBAR.64 forms (part of
// addAsyncForms; the Blackwell tables add them alone, ARRIVES's TRANSCNT/ARVCNT at 77/76).
void addCpAsyncArriveForms(Builder &b, bool blackwell);
void addTensorForms(Builder &b);
void addTextureForms(Builder &b);
// Ampere's bound texture/surface forms (the handle a constant-bank-0 word index).
void addBoundTextureForms(Builder &b);
void addSpecialRegisters(FormTable &t);

// Value maps shared by several families.
namespace maps {
// ISETP-style integer compare, 3 bits: F LT EQ LE GT NE GE T.
const ModMap &intCmp();
// .AND/.OR/.XOR, 2 bits.
const ModMap &boolOp();
// Floating-point compare, 4 bits (FSETP/DSETP/HSETP2/FSET).
const ModMap &floatCmp();
// Memory access size of LDG/STG/LDS/... (3 bits: U8 S8 U16 S16 32 64 128).
const ModMap &memSize();
} // namespace maps

} // namespace optxas::sass::sm90
