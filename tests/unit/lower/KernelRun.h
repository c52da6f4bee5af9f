// Lowers a test kernel and runs it with OriEval: kernel (.param .u64 out, .param .u64 pa,
// .param .u64 pb) whose body finds %rd0 = out, %rd1 = pa, %rd2 = pb and %r1/%r2 = the low words
// of pa/pb, and stores its results at out.
#pragma once

#include <memory>

#include "LowerTest.h"
#include "OriEval.h"

namespace optxas::lower::test {

constexpr uint64_t kOut = 0x10000;

// Lowers a kernel (.param .u64 out, .param .u64 a, .param .u64 b) whose body reads %rd1 = a and
// %rd2 = b (and %r1/%r2 = their low words), runs it, and returns memory at out.
struct Exec {
  Lowered l;
  std::unique_ptr<OriEval> ev;
  Exec(const std::string &body, uint64_t a, uint64_t b)
      : l(kernel(".param .u64 out, .param .u64 pa, .param .u64 pb",
                 "  ld.param.u64 %rd0, [out];\n  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n"
                 "  cvt.u32.u64 %r1, %rd1;\n  cvt.u32.u64 %r2, %rd2;\n" + body)) {
    if (!l.module) return;
    ev = std::make_unique<OriEval>(l.fn());
    ev->setParamU64(0, kOut);
    ev->setParamU64(8, a);
    ev->setParamU64(16, b);
    EXPECT_TRUE(ev->run()) << l.text();
  }
  uint64_t u64(unsigned off = 0) const { return ev ? ev->load(kOut + off, 8) : 0xdeadbeef; }
  uint32_t u32(unsigned off = 0) const { return ev ? static_cast<uint32_t>(ev->load(kOut + off, 4)) : 0xdeadbeef; }
};

} // namespace optxas::lower::test
