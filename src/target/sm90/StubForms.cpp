// Families not yet filled in (temporary).
#include "sm90/Sm90.h"
namespace optxas::sass::sm90 {
void addConversionForms(Builder &) {}
void addWarpForms(Builder &) {}
} // namespace optxas::sass::sm90
