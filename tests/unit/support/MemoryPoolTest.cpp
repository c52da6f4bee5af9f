// The accounted memory pool behind --stat=phase-wise.
#include <gtest/gtest.h>

#include "optxas/support/MemoryPool.h"

using namespace optxas;

namespace {

TEST(MemoryPool, AccountsReservedLiveAndFreeable) {
  MemoryAccount acct;
  {
    MemoryPool pool(&acct, 64 * 1024);
    void *a = pool.allocate(40);    // size class 48
    EXPECT_EQ(acct.reserved, 64u * 1024);
    EXPECT_EQ(acct.live, 48u);
    EXPECT_EQ(acct.unused, 64u * 1024 - 48);
    pool.deallocate(a, 40);
    EXPECT_EQ(acct.live, 0u);
    EXPECT_EQ(acct.unused, 64u * 1024);
    // The freed block is reused for the same size class: nothing new is reserved.
    void *b = pool.allocate(33);
    EXPECT_EQ(b, a);
    EXPECT_EQ(acct.reserved, 64u * 1024);
    EXPECT_EQ(acct.allocations, 2u);
  }
  // Destroying the pool takes its share out of the shared account.
  EXPECT_EQ(acct.reserved, 0u);
  EXPECT_EQ(acct.live, 0u);
  EXPECT_EQ(acct.unused, 0u);
  EXPECT_EQ(acct.peakReserved, 64u * 1024);
}

TEST(MemoryPool, LargeBlocksGoToTheSystemAndBack) {
  MemoryAccount acct;
  MemoryPool pool(&acct);
  void *big = pool.allocate(100000);
  EXPECT_GE(acct.reserved, 100000u);
  EXPECT_GE(acct.live, 100000u);
  pool.deallocate(big, 100000);
  EXPECT_EQ(acct.reserved, 0u);
  EXPECT_EQ(acct.live, 0u);
}

TEST(MemoryPool, AlignmentIsHonoured) {
  MemoryPool pool;
  for (size_t align : {1u, 8u, 16u, 64u, 256u}) {
    void *p = pool.allocate(24, align);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u) << align;
  }
}

TEST(MemoryPool, ManyChunks) {
  MemoryAccount acct;
  MemoryPool pool(&acct, 4096);
  for (int i = 0; i < 1000; ++i) pool.allocate(512);
  EXPECT_EQ(acct.live, 512u * 1000);
  EXPECT_EQ(acct.reserved % 4096, 0u);
  EXPECT_GE(acct.reserved, acct.live);
  EXPECT_EQ(acct.reserved, acct.live + acct.unused);
}

TEST(MemoryPool, LeakReports) {
  MemoryAccount acct;
  MemoryPool pool(&acct);
  pool.adjustLeaked(96);
  EXPECT_EQ(acct.leaked, 96u);
  pool.adjustLeaked(-96);
  EXPECT_EQ(acct.leaked, 0u);
}

TEST(MemoryPool, SizeFormatMatchesPtxas) {
  EXPECT_EQ(formatMemorySize(0), "0");
  EXPECT_EQ(formatMemorySize(1023), "1023");
  EXPECT_EQ(formatMemorySize(1024), "1.000 KB");
  EXPECT_EQ(formatMemorySize(1536), "1.500 KB");
  EXPECT_EQ(formatMemorySize(10 * 1024 * 1024 - 1), "10239.999 KB");
  EXPECT_EQ(formatMemorySize(10 * 1024 * 1024), "10.000 MB");
  EXPECT_EQ(formatMemorySize(15 * 1024 * 1024 + 512 * 1024), "15.500 MB");
}

} // namespace
