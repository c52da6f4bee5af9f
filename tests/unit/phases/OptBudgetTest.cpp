// The OptBudget gate on its own.
#include <gtest/gtest.h>

#include "optxas/phases/OptBudget.h"

using namespace optxas::phases;

namespace {

TEST(OptBudget, FlipsAtExactlyTheLimit) {
  for (int64_t limit : {0, 1, 2, 5, 17}) {
    OptBudget b(limit);
    for (int64_t n = 1; n <= limit; ++n) {
      EXPECT_FALSE(b.exhausted());
      EXPECT_EQ(b.gate(3, 22, "f"), 3) << "consultation " << n << " of " << limit;
    }
    EXPECT_TRUE(b.exhausted());
    EXPECT_EQ(b.gate(3, 18, "g"), OptBudget::kForcedO0) << "consultation " << limit + 1;
    EXPECT_EQ(b.gate(2, 18, "g"), 1);
    EXPECT_EQ(b.granted(), static_cast<uint64_t>(limit));
    EXPECT_EQ(b.refused(), 2u);
    ASSERT_TRUE(b.firstRefused());
    EXPECT_EQ(b.firstRefused()->number, static_cast<uint64_t>(limit + 1));
    EXPECT_EQ(b.firstRefused()->phase, 18);
    EXPECT_EQ(b.firstRefused()->function, "g");
    if (limit > 0) {
      ASSERT_TRUE(b.lastGranted());
      EXPECT_EQ(b.lastGranted()->number, static_cast<uint64_t>(limit));
      EXPECT_EQ(b.lastGranted()->phase, 22);
    } else {
      EXPECT_FALSE(b.lastGranted());
    }
  }
}

TEST(OptBudget, UnlimitedByDefault) {
  OptBudget b;
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(b.gate(3), 3);
  EXPECT_FALSE(b.exhausted());
  EXPECT_EQ(b.granted(), 1000u);
  EXPECT_FALSE(b.firstRefused());
}

TEST(OptBudget, ReturnsTheEffectiveLevel) {
  OptBudget b(3);
  EXPECT_EQ(b.gate(0), 0);   // an -O0 compile stays at 0 (phases treat <= 1 as "do not optimize")
  EXPECT_EQ(b.gate(2), 2);
  EXPECT_EQ(b.gate(4), 4);
  EXPECT_EQ(b.gate(4), 1);
}

} // namespace
