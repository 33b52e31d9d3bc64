#include <gtest/gtest.h>

#include "function_test_util.h"

namespace sluice::testing {
namespace {

ExprPtr Ts(const std::string& s, int p = 3) { return Lit(Value::Int(LogicalType::Timestamp(p), *ParseTimestamp(s))); }
ExprPtr Date(const std::string& s) { return Lit(Value::Int(LogicalType::Date(), *ParseDate(s))); }
std::string T(const std::string& name, std::vector<ExprPtr> args, EvalContext* ctx = nullptr) {
  return EvalText(Call(name, std::move(args)), ctx);
}

TEST(TemporalTest, ConvertTz) {
  EXPECT_EQ(T("CONVERT_TZ", {LitStr("2026-08-15 05:00:00"), LitStr("UTC"), LitStr("Asia/Singapore")}), "2026-08-15 13:00:00");
  EXPECT_EQ(T("CONVERT_TZ", {LitStr("1970-01-01 00:00:00"), LitStr("UTC"), LitStr("America/Los_Angeles")}),
            "1969-12-31 16:00:00");
  EXPECT_EQ(T("CONVERT_TZ", {LitStr("2026-07-01 12:00:00"), LitStr("Europe/Berlin"), LitStr("GMT+08:00")}),
            "2026-07-01 18:00:00");
  auto bad = TryCall("CONVERT_TZ", {LitStr("2026-07-01 12:00:00"), LitStr("Mars/Olympus"), LitStr("UTC")});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Mars/Olympus"), std::string::npos);
}

TEST(TemporalTest, DateFormat) {
  EXPECT_EQ(T("DATE_FORMAT", {Ts("2026-08-15 05:06:07.089"), LitStr("yyyy-MM-dd HH:mm:ss")}), "2026-08-15 05:06:07");
  EXPECT_EQ(T("DATE_FORMAT", {Ts("2026-08-15 05:06:07.089"), LitStr("yyyyMMdd'T'HHmmss.SSS")}), "20260815T050607.089");
  EXPECT_EQ(T("DATE_FORMAT", {Ts("2026-08-15 17:06:07"), LitStr("MMM d, yy hh:mm a EEE")}), "Aug 15, 26 05:06 PM Sat");
  EXPECT_EQ(T("DATE_FORMAT", {LitStr("2026-08-15 05:06:07"), LitStr("dd/MM/yyyy")}), "15/08/2026");
}

TEST(TemporalTest, ToTimestampFormats) {
  EXPECT_EQ(T("TO_TIMESTAMP", {LitStr("2026-08-15 05:00:00")}), "2026-08-15 05:00:00.000");
  EXPECT_EQ(T("TO_TIMESTAMP", {LitStr("2026-08-15 05:00:00.123456")}), "2026-08-15 05:00:00.123");
  EXPECT_EQ(T("TO_TIMESTAMP", {LitStr("15/08/2026 05:00"), LitStr("dd/MM/yyyy HH:mm")}), "2026-08-15 05:00:00.000");
  EXPECT_EQ(T("TO_TIMESTAMP", {LitStr("20260815050607"), LitStr("yyyyMMddHHmmss")}), "2026-08-15 05:06:07.000");
  EXPECT_EQ(T("TO_TIMESTAMP", {LitStr("not a time")}), "NULL");
  EXPECT_EQ(T("TO_TIMESTAMP", {LitStr("2026-08-15"), LitStr("yyyy-MM-dd HH:mm:ss")}), "NULL");
  EXPECT_EQ(T("TO_DATE", {LitStr("2026-08-15")}), "2026-08-15");
  EXPECT_EQ(T("TO_DATE", {LitStr("08/15/2026"), LitStr("MM/dd/yyyy")}), "2026-08-15");
}

TEST(TemporalTest, ToTimestampLtzAndUnixTime) {
  auto ctx = EvalContext::Make("Asia/Singapore", nullptr);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(T("TO_TIMESTAMP_LTZ", {LitBig(1786770000000), LitInt(3)}, ctx->get()), "2026-08-15 05:00:00.000");
  auto ltz = Call("TO_TIMESTAMP_LTZ", {LitBig(1786770000), LitInt(0)});
  EXPECT_EQ(EvalText(MakeCast(ltz, LogicalType::String(), false), ctx->get()), "2026-08-15 13:00:00.000");
  EXPECT_FALSE(TryCall("TO_TIMESTAMP_LTZ", {LitBig(1), LitInt(5)}).ok());
  EXPECT_EQ(T("FROM_UNIXTIME", {LitBig(1786770000)}, ctx->get()), "2026-08-15 13:00:00");
  EXPECT_EQ(T("FROM_UNIXTIME", {LitBig(0), LitStr("yyyy")}), "1970");
  EXPECT_EQ(T("UNIX_TIMESTAMP", {LitStr("2026-08-15 13:00:00")}, ctx->get()), "1786770000");
  EXPECT_EQ(T("UNIX_TIMESTAMP", {LitStr("2026-08-15 05:00:00 +0000"), LitStr("yyyy-MM-dd HH:mm:ss Z")}, ctx->get()),
            "1786770000");
  EXPECT_EQ(T("UNIX_TIMESTAMP", {LitStr("garbage")}), "-9223372036854775808");
}

TEST(TemporalTest, Extract) {
  auto ts = Ts("2026-08-15 05:06:07.089");
  EXPECT_EQ(T("EXTRACT", {LitStr("YEAR"), ts}), "2026");
  EXPECT_EQ(T("EXTRACT", {LitStr("QUARTER"), ts}), "3");
  // Flink 2.2.1: the fraction of the second only.
  EXPECT_EQ(T("EXTRACT", {LitStr("MILLISECOND"), ts}), "89");
  EXPECT_EQ(T("MONTH", {ts}), "8");
  EXPECT_EQ(T("DAYOFMONTH", {ts}), "15");
  EXPECT_EQ(T("DAYOFWEEK", {ts}), "7");  // Saturday (1 = Sunday)
  EXPECT_EQ(T("DAYOFYEAR", {ts}), "227");
  EXPECT_EQ(T("WEEK", {ts}), "33");
  EXPECT_EQ(T("HOUR", {ts}), "5");
  EXPECT_EQ(T("MINUTE", {ts}), "6");
  EXPECT_EQ(T("SECOND", {ts}), "7");
  EXPECT_EQ(T("YEAR", {Date("2026-01-01")}), "2026");
  EXPECT_EQ(T("WEEK", {Date("2027-01-01")}), "53");  // ISO week of 2026
  EXPECT_FALSE(TryCall("EXTRACT", {LitStr("FORTNIGHT"), ts}).ok());
}

TEST(TemporalTest, ExtractFromLtzUsesTheSessionZone) {
  auto ctx = EvalContext::Make("Asia/Singapore", nullptr);
  ASSERT_TRUE(ctx.ok());
  auto ltz = Lit(Value::Int(LogicalType::TimestampLtz(3), *ParseTimestamp("2026-08-15 20:00:00")));
  EXPECT_EQ(T("HOUR", {ltz}, ctx->get()), "4");
  EXPECT_EQ(T("DAYOFMONTH", {ltz}, ctx->get()), "16");
}

TEST(TemporalTest, FloorAndCeilToUnit) {
  auto ts = Ts("2026-08-15 05:36:07.089");
  EXPECT_EQ(T("FLOOR_TO", {ts, LitStr("HOUR")}), "2026-08-15 05:00:00.000");
  EXPECT_EQ(T("CEIL_TO", {ts, LitStr("HOUR")}), "2026-08-15 06:00:00.000");
  EXPECT_EQ(T("FLOOR_TO", {ts, LitStr("MONTH")}), "2026-08-01 00:00:00.000");
  EXPECT_EQ(T("CEIL_TO", {ts, LitStr("YEAR")}), "2027-01-01 00:00:00.000");
  EXPECT_EQ(T("FLOOR_TO", {ts, LitStr("WEEK")}), "2026-08-09 00:00:00.000");
  EXPECT_EQ(T("CEIL_TO", {Ts("2026-08-15 05:00:00"), LitStr("HOUR")}), "2026-08-15 05:00:00.000");
  EXPECT_EQ(T("FLOOR_TO", {Date("2026-08-15"), LitStr("MONTH")}), "2026-08-01");
}

TEST(TemporalTest, TimestampAddAndDiff) {
  EXPECT_EQ(T("TIMESTAMPADD", {LitStr("HOUR"), LitInt(3), Ts("2026-08-15 22:00:00")}), "2026-08-16 01:00:00.000");
  EXPECT_EQ(T("TIMESTAMPADD", {LitStr("MONTH"), LitInt(1), Ts("2026-01-31 00:00:00")}), "2026-02-28 00:00:00.000");
  EXPECT_EQ(T("TIMESTAMPADD", {LitStr("DAY"), LitInt(-1), Date("2026-03-01")}), "2026-02-28");
  EXPECT_EQ(T("TIMESTAMPDIFF", {LitStr("DAY"), Ts("2026-08-15 05:00:00"), Ts("2026-08-18 04:00:00")}), "2");
  EXPECT_EQ(T("TIMESTAMPDIFF", {LitStr("HOUR"), Ts("2026-08-18 04:00:00"), Ts("2026-08-15 05:00:00")}), "-71");
  // Flink 2.2.1 (Calcite's subtractMonths): a month added to Jan 31 clamps to Feb 28, so one month
  // (tests/flink/cases/random_timestampdiff_months).
  EXPECT_EQ(T("TIMESTAMPDIFF", {LitStr("MONTH"), Ts("2026-01-31 00:00:00"), Ts("2026-02-28 00:00:00")}), "1");
  EXPECT_EQ(T("TIMESTAMPDIFF", {LitStr("MONTH"), Ts("2026-01-31 00:00:00"), Ts("2026-02-27 23:59:59")}), "0");
  EXPECT_EQ(T("TIMESTAMPDIFF", {LitStr("MONTH"), Ts("2026-01-31 10:00:00"), Ts("2026-02-28 09:00:00")}), "0");
  EXPECT_EQ(T("TIMESTAMPDIFF", {LitStr("MONTH"), Ts("2026-01-15 00:00:00"), Ts("2026-03-15 00:00:00")}), "2");
  EXPECT_EQ(T("TIMESTAMPDIFF", {LitStr("YEAR"), Date("2020-02-29"), Date("2026-02-28")}), "6");
}

TEST(TemporalTest, InvalidTimeZoneIsRejected) {
  auto ctx = EvalContext::Make("Not/AZone", nullptr);
  ASSERT_FALSE(ctx.ok());
  EXPECT_NE(ctx.status().message().find("Not/AZone"), std::string::npos);
  auto def = EvalContext::Make("default", nullptr);
  ASSERT_TRUE(def.ok());
  EXPECT_EQ((*def)->time_zone_name, "UTC");
}

TEST(TemporalTest, DaylightSavingGapAndOverlap) {
  auto ctx = EvalContext::Make("Europe/Berlin", nullptr);
  ASSERT_TRUE(ctx.ok());
  EvalContext& c = **ctx;
  // 2026-03-29 02:30 does not exist in Berlin: shifted forward to 03:30 CEST = 01:30 UTC.
  EXPECT_EQ(FormatTimestamp(c.LocalToUtc(*ParseTimestamp("2026-03-29 02:30:00")), 0), "2026-03-29 01:30:00");
  // 2026-10-25 02:30 happens twice: the earlier instant (CEST) = 00:30 UTC.
  EXPECT_EQ(FormatTimestamp(c.LocalToUtc(*ParseTimestamp("2026-10-25 02:30:00")), 0), "2026-10-25 00:30:00");
  EXPECT_EQ(FormatTimestamp(c.UtcToLocal(*ParseTimestamp("2026-07-01 00:00:00")), 0), "2026-07-01 02:00:00");
}

}  // namespace
}  // namespace sluice::testing
