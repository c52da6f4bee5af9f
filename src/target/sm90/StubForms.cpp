// Families not yet filled in (temporary).
#include "sm90/Sm90.h"
namespace optxas::sass::sm90 {
} // namespace optxas::sass::sm90
