#include "common/time_util.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(TimeUtilTest, CivilRoundTrip) {
  for (int64_t d = -800000; d < 800000; d += 37) {
    CivilDate c = CivilFromDays(d);
    ASSERT_EQ(DaysFromCivil(c.year, c.month, c.day), d);
  }
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(FormatDate(static_cast<int32_t>(DaysFromCivil(2026, 8, 15))), "2026-08-15");
}

TEST(TimeUtilTest, TimestampsFormatWithPrecision) {
  auto ts = ParseTimestamp("2026-08-15 05:00:00.123456");
  ASSERT_TRUE(ts.has_value());
  EXPECT_EQ(FormatTimestamp(*ts, 3), "2026-08-15 05:00:00.123");
  EXPECT_EQ(FormatTimestamp(*ts, 0), "2026-08-15 05:00:00");
  EXPECT_EQ(FormatTimestamp(*ts, 9), "2026-08-15 05:00:00.123456000");
  EXPECT_EQ(FormatTimestamp(-1, 3), "1969-12-31 23:59:59.999");
  EXPECT_EQ(*ParseTimestamp("2026-08-15T05:00:00Z"), *ParseTimestamp("2026-08-15 05:00:00"));
  EXPECT_FALSE(ParseTimestamp("2026-02-30 00:00:00").has_value());
  EXPECT_FALSE(ParseTimestamp("2026-08-15 05:00:00", false).has_value() == false);
  EXPECT_FALSE(ParseTimestamp("2026-08-15T05:00:00", false).has_value());
  EXPECT_EQ(*ParseTime("05:00:01.5"), 5 * 3600000 + 1500);
}

// Found by csv_fuzz: a nine-digit year made the microseconds overflow 64 bits (undefined behaviour).
// Years are Flink's 0000 to 9999; others are not dates.
TEST(TimeUtilTest, YearsOutsideFlinksRangeAreNotDates) {
  EXPECT_FALSE(ParseTimestamp("322026-08-15 05:00:00.123").has_value());
  EXPECT_FALSE(ParseTimestamp("999999999-12-31 23:59:59").has_value());
  EXPECT_FALSE(ParseTimestamp("10000-01-01 00:00:00").has_value());
  EXPECT_FALSE(ParseTimestamp("-0001-01-01 00:00:00").has_value());
  EXPECT_FALSE(ParseDate("99999-01-01").has_value());
  EXPECT_FALSE(ParseDate("-0001-01-01").has_value());
  ASSERT_TRUE(ParseTimestamp("9999-12-31 23:59:59.999999").has_value());
  EXPECT_EQ(FormatTimestamp(*ParseTimestamp("9999-12-31 23:59:59.999999"), 6), "9999-12-31 23:59:59.999999");
  ASSERT_TRUE(ParseDate("0000-01-01").has_value());
  EXPECT_EQ(FormatDate(*ParseDate("0000-01-01")), "0000-01-01");
}

// Fields are zero-padded to their width; a sign counts in it (as printf's "%04lld"), and wider values
// keep every digit: dates computed outside Flink's years still print.
TEST(TimeUtilTest, FieldsArePaddedToTheirWidth) {
  EXPECT_EQ(FormatDate(static_cast<int32_t>(DaysFromCivil(5, 1, 2))), "0005-01-02");
  EXPECT_EQ(FormatDate(static_cast<int32_t>(DaysFromCivil(-12, 3, 4))), "-012-03-04");
  EXPECT_EQ(FormatDate(static_cast<int32_t>(DaysFromCivil(-1234, 3, 4))), "-1234-03-04");
  EXPECT_EQ(FormatDate(static_cast<int32_t>(DaysFromCivil(12345, 11, 30))), "12345-11-30");
  EXPECT_EQ(FormatTimestamp(DaysFromCivil(2026, 1, 1) * 86400000000LL + 3723000001LL, 6), "2026-01-01 01:02:03.000001");
  EXPECT_EQ(FormatTime(0, 0), "00:00:00");
}

}  // namespace
}  // namespace sluice
