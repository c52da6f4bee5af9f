// A readable text form of the Cubin model (one fact per line), for tools and test failures.
#pragma once

#include "optxas/elf/Cubin.h"

#include <string>

namespace optxas::elf {

std::string formatAttribute(const Attribute &a);           // "EIATTR_MAXREG_COUNT 0xff"
std::string formatRelocation(const Relocation &r);         // "0x44 R_CUDA_64 sym+0 (rela)"
std::string formatKernelParam(const KernelParam &p);       // "#1 offset 0x8 size 8 ..."
std::string printCubin(const Cubin &c, bool withCode = false);

} // namespace optxas::elf
