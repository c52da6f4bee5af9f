// Families not yet filled in (temporary).
#include "sm90/Sm90.h"
namespace optxas::sass::sm90 {
void addFloatForms(Builder &) {}
void addDoubleHalfForms(Builder &) {}
void addConversionForms(Builder &) {}
void addUniformForms(Builder &) {}
void addWarpForms(Builder &) {}
} // namespace optxas::sass::sm90
