// Tests of the 'datagen' connector: sequences, random ranges, lengths, null rate, nested types,
// bounds, determinism, throttling on an injected clock, and option errors.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/clock.h"
#include "common/time_util.h"
#include "connectors/datagen/datagen_connector.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

constexpr int64_t kNowMicros = 1767225600000000LL + 12 * kMicrosPerHour;  // 2026-01-01 12:00:00

struct Harness {
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>(kNowMicros);
  int64_t slept = 0;
  std::unique_ptr<ConnectorFactory> factory;

  Harness() {
    GeneratorTiming timing;
    timing.clock = clock;
    timing.sleep_micros = [this](int64_t us) {
      slept += us;
      clock->Advance(us);
    };
    factory = MakeDatagenConnectorFactory(timing);
  }

  Result<std::unique_ptr<TableSource>> Create(const Schema& schema, std::map<std::string, std::string> options,
                                              std::vector<int> projection = {}) {
    ConnectorContext ctx;
    ctx.table_name = "gen";
    ctx.physical_schema = schema;
    ctx.projection = std::move(projection);
    options["connector"] = "datagen";
    ctx.options = std::move(options);
    return factory->CreateSource(ctx);
  }

  // Reads all rows of a table that ends (bounded, or with a sequence field).
  Chunk ReadAll(const Schema& schema, std::map<std::string, std::string> options, std::vector<int> projection = {},
                size_t chunk_size = 1024) {
    Schema out_schema;
    if (projection.empty()) {
      out_schema = schema;
    } else {
      for (int i : projection) out_schema.Add(schema.field(i).name, schema.field(i).type);
    }
    auto source = Create(schema, std::move(options), projection);
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    Chunk all(out_schema);
    if (!source.ok()) return all;
    auto splits = (*source)->CreateSplits();
    auto& split = (*splits)[0];
    for (;;) {
      Chunk c(out_schema);
      auto more = split->Read(chunk_size, &c);
      EXPECT_TRUE(more.ok());
      if (!*more) break;
      all.AppendFrom(c, nullptr, 0, c.size());
    }
    return all;
  }
};

Schema Cols(std::vector<std::pair<std::string, LogicalType>> cols) {
  Schema s;
  for (auto& [n, t] : cols) s.Add(n, t);
  return s;
}

TEST(DatagenTest, SequenceBoundsTheTableAndCountsUp) {
  Harness h;
  Schema s = Cols({{"id", LogicalType::BigInt()}, {"code", LogicalType::String()}, {"n", LogicalType::Integer()}});
  Chunk c = h.ReadAll(s, {{"fields.id.kind", "sequence"},
                          {"fields.id.start", "5"},
                          {"fields.id.end", "2504"},
                          {"fields.code.kind", "sequence"},
                          {"fields.code.start", "100"},
                          {"fields.code.end", "100000"}},
                      {}, 300);
  ASSERT_EQ(c.size(), 2500u);  // the shortest sequence ends the table
  for (size_t r = 0; r < c.size(); ++r) {
    ASSERT_EQ(c.column(0).data<int64_t>()[r], static_cast<int64_t>(r) + 5);
    ASSERT_EQ(c.column(1).GetString(r), std::to_string(100 + r));
  }
  // As in Flink, a bounded table is still emitted at 'rows-per-second' (10000 by default): after
  // the first chunk (300 rows) the other 2200 rows take 0.22 s of the injected clock.
  EXPECT_EQ(h.slept, 220000);
}

TEST(DatagenTest, OnlyNumberOfRowsMakesTheTableBounded) {
  // As Flink's DataGenTableSource: a sequence ends the table, but only 'number-of-rows' declares it
  // bounded (what batch mode and a lookup join ask for).
  Harness h;
  Schema s = Cols({{"id", LogicalType::BigInt()}});
  auto seq = h.Create(s, {{"fields.id.kind", "sequence"}, {"fields.id.start", "1"}, {"fields.id.end", "3"}});
  ASSERT_TRUE(seq.ok());
  EXPECT_FALSE((*seq)->bounded());
  auto rows = h.Create(s, {{"number-of-rows", "5"}, {"fields.id.kind", "sequence"}, {"fields.id.start", "1"},
                           {"fields.id.end", "3"}});
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE((*rows)->bounded());
}

TEST(DatagenTest, NumberOfRowsBoundsBeforeASequenceEnds) {
  Harness h;
  Schema s = Cols({{"id", LogicalType::Integer()}});
  Chunk c = h.ReadAll(s, {{"number-of-rows", "10"},
                          {"fields.id.kind", "sequence"},
                          {"fields.id.start", "1"},
                          {"fields.id.end", "1000"}});
  ASSERT_EQ(c.size(), 10u);
  EXPECT_EQ(c.column(0).data<int32_t>()[9], 10);
  EXPECT_EQ(h.Create(s, {{"number-of-rows", "0"}}).ok(), true);
  EXPECT_EQ(h.ReadAll(s, {{"number-of-rows", "0"}}).size(), 0u);
}

TEST(DatagenTest, RandomNumbersStayInTheirRanges) {
  Harness h;
  Schema s = Cols({{"a", LogicalType::Integer()},
                   {"b", LogicalType::TinyInt()},
                   {"c", LogicalType::Double()},
                   {"d", LogicalType::Decimal(10, 2)},
                   {"e", LogicalType::BigInt()},
                   {"f", LogicalType::Boolean()}});
  Chunk c = h.ReadAll(s, {{"number-of-rows", "5000"},
                          {"fields.a.min", "-3"},
                          {"fields.a.max", "3"},
                          {"fields.c.min", "1.5"},
                          {"fields.c.max", "2.5"},
                          {"fields.d.min", "0"},
                          {"fields.d.max", "10"}});
  ASSERT_EQ(c.size(), 5000u);
  std::set<int32_t> seen_a;
  int64_t trues = 0;
  bool e_negative = false, e_positive = false;
  for (size_t r = 0; r < c.size(); ++r) {
    int32_t a = c.column(0).data<int32_t>()[r];
    EXPECT_GE(a, -3);
    EXPECT_LE(a, 3);
    seen_a.insert(a);
    double x = c.column(2).data<double>()[r];
    EXPECT_GE(x, 1.5);
    EXPECT_LE(x, 2.5);
    __int128 d = c.column(3).data<__int128>()[r];
    EXPECT_GE(d, 0);
    EXPECT_LE(d, 1000);
    int64_t e = c.column(4).data<int64_t>()[r];
    e_negative |= e < 0;
    e_positive |= e > 0;
    trues += c.column(5).data<uint8_t>()[r];
  }
  EXPECT_EQ(seen_a.size(), 7u);  // every value of [-3, 3] appears
  EXPECT_TRUE(e_negative && e_positive);  // BIGINT defaults to the whole range
  EXPECT_GT(trues, 2000);
  EXPECT_LT(trues, 3000);
}

TEST(DatagenTest, StringLengthsAndVarLen) {
  Harness h;
  Schema s = Cols({{"s", LogicalType::String()},
                   {"v", LogicalType::VarChar(20)},
                   {"w", LogicalType::String()},
                   {"ch", LogicalType::Char(4)},
                   {"b", LogicalType::Bytes()}});
  Chunk c = h.ReadAll(s, {{"number-of-rows", "2000"},
                          {"fields.w.length", "30"},
                          {"fields.w.var-len", "true"},
                          {"fields.b.length", "9"}});
  std::set<size_t> w_lengths;
  for (size_t r = 0; r < c.size(); ++r) {
    std::string_view str = c.column(0).GetString(r);
    ASSERT_EQ(str.size(), 100u);  // Flink's default length
    for (char ch : str) ASSERT_TRUE((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')) << str;
    EXPECT_EQ(c.column(1).GetString(r).size(), 20u);  // capped by VARCHAR(20)
    size_t w = c.column(2).GetString(r).size();
    EXPECT_GE(w, 1u);
    EXPECT_LE(w, 30u);
    w_lengths.insert(w);
    EXPECT_EQ(c.column(3).GetString(r).size(), 4u);
    EXPECT_EQ(c.column(4).GetString(r).size(), 9u);
  }
  EXPECT_GT(w_lengths.size(), 20u);
}

TEST(DatagenTest, NullRate) {
  Harness h;
  Schema s = Cols({{"a", LogicalType::Integer()}, {"b", LogicalType::Integer()}});
  Chunk c = h.ReadAll(s, {{"number-of-rows", "10000"}, {"fields.a.null-rate", "0.3"}});
  int nulls = 0;
  for (size_t r = 0; r < c.size(); ++r) {
    nulls += c.column(0).IsNull(r);
    EXPECT_FALSE(c.column(1).IsNull(r));
  }
  EXPECT_GT(nulls, 2700);
  EXPECT_LT(nulls, 3300);
  Chunk all_null = h.ReadAll(s, {{"number-of-rows", "100"}, {"fields.a.null-rate", "1"}});
  for (size_t r = 0; r < all_null.size(); ++r) EXPECT_TRUE(all_null.column(0).IsNull(r));
}

TEST(DatagenTest, TemporalTypesFollowTheClock) {
  Harness h;
  Schema s = Cols({{"ts", LogicalType::Timestamp(3)},
                   {"ltz", LogicalType::TimestampLtz(3)},
                   {"d", LogicalType::Date()},
                   {"t", LogicalType::Time()}});
  Chunk c = h.ReadAll(s, {{"number-of-rows", "1000"}, {"fields.ts.max-past", "5 s"}});
  bool some_past = false;
  for (size_t r = 0; r < c.size(); ++r) {
    int64_t ts = c.column(0).data<int64_t>()[r];
    EXPECT_LE(ts, kNowMicros);
    EXPECT_GE(ts, kNowMicros - 5 * kMicrosPerSecond);
    some_past |= ts < kNowMicros - kMicrosPerSecond;
    EXPECT_EQ(c.column(1).data<int64_t>()[r], kNowMicros);  // max-past 0: now
    EXPECT_EQ(c.column(2).data<int32_t>()[r], DaysFromCivil(2026, 1, 1));
    EXPECT_EQ(c.column(3).data<int32_t>()[r], 12 * 3600 * 1000);
  }
  EXPECT_TRUE(some_past);
}

TEST(DatagenTest, NestedTypes) {
  Harness h;
  Schema s = Cols({{"arr", LogicalType::Array(LogicalType::Integer())},
                   {"m", LogicalType::Map(LogicalType::Integer(), LogicalType::String())},
                   {"r", LogicalType::Row({"x", "y"}, {LogicalType::Integer(), LogicalType::String()})}});
  Chunk c = h.ReadAll(s, {{"number-of-rows", "500"},
                          {"fields.arr.length", "4"},
                          {"fields.arr.element.min", "1"},
                          {"fields.arr.element.max", "9"},
                          {"fields.m.length", "5"},
                          {"fields.m.key.min", "0"},
                          {"fields.m.key.max", "2"},
                          {"fields.m.value.length", "3"},
                          {"fields.r.x.kind", "sequence"},
                          {"fields.r.x.start", "0"},
                          {"fields.r.x.end", "10000"},
                          {"fields.r.y.length", "7"}});
  ASSERT_EQ(c.size(), 500u);
  for (size_t r = 0; r < c.size(); ++r) {
    Value arr = c.column(0).GetValue(r);
    ASSERT_EQ(arr.list_value().size(), 4u);
    for (const Value& e : arr.list_value()) {
      EXPECT_GE(e.int_value(), 1);
      EXPECT_LE(e.int_value(), 9);
    }
    // Keys are unique within a map: at most 3 distinct keys out of 5 draws.
    Value m = c.column(1).GetValue(r);
    std::set<int64_t> keys;
    for (size_t k = 0; k < m.list_value().size(); k += 2) {
      EXPECT_TRUE(keys.insert(m.list_value()[k].int_value()).second);
      EXPECT_EQ(m.list_value()[k + 1].string_value().size(), 3u);
    }
    EXPECT_GE(keys.size(), 1u);
    EXPECT_LE(keys.size(), 3u);
    Value row = c.column(2).GetValue(r);
    EXPECT_EQ(row.list_value()[0].int_value(), static_cast<int64_t>(r));
    EXPECT_EQ(row.list_value()[1].string_value().size(), 7u);
  }
}

TEST(DatagenTest, SameSeedSameRowsAndProjectionKeepsValues) {
  Harness h;
  Schema s = Cols({{"a", LogicalType::BigInt()}, {"b", LogicalType::String()}, {"c", LogicalType::Double()}});
  std::map<std::string, std::string> opts = {{"number-of-rows", "3000"}, {"fields.b.length", "8"}};
  Chunk x = h.ReadAll(s, opts, {}, 512);
  Chunk y = h.ReadAll(s, opts, {}, 1000);
  ASSERT_EQ(x.size(), y.size());
  for (size_t r = 0; r < x.size(); ++r) ASSERT_EQ(x.GetRow(r), y.GetRow(r));
  Chunk p = h.ReadAll(s, opts, {2, 0});
  for (size_t r = 0; r < x.size(); ++r) {
    ASSERT_EQ(p.column(0).GetValue(r), x.column(2).GetValue(r));
    ASSERT_EQ(p.column(1).GetValue(r), x.column(0).GetValue(r));
  }
  opts["sluice.seed"] = "99";
  Chunk z = h.ReadAll(s, opts);
  int same = 0;
  for (size_t r = 0; r < x.size(); ++r) same += x.column(0).GetValue(r) == z.column(0).GetValue(r);
  EXPECT_LT(same, 5);
}

TEST(DatagenTest, RowsPerSecondThrottlesOnTheInjectedClock) {
  Harness h;
  Schema s = Cols({{"a", LogicalType::Integer()}});
  auto source = h.Create(s, {{"rows-per-second", "100"}});
  ASSERT_TRUE(source.ok());
  EXPECT_FALSE((*source)->bounded());
  auto splits = (*source)->CreateSplits();
  auto& split = (*splits)[0];
  int64_t rows = 0;
  // The first read gets one burst (100 rows); 10 ms worth (1 row) comes every 10 ms after that.
  for (int i = 0; i < 50; ++i) {
    Chunk c(s);
    ASSERT_TRUE(*split->Read(1024, &c));
    rows += static_cast<int64_t>(c.size());
  }
  EXPECT_EQ(rows, 149);
  EXPECT_EQ(h.slept, 49 * 10000);
  // Rows emitted never run ahead of rate * elapsed + burst.
  EXPECT_LE(rows, 100 * (h.clock->NowMicros() - kNowMicros) / kMicrosPerSecond + 100);
}

TEST(DatagenTest, BadOptionsGiveClearErrors) {
  Harness h;
  Schema s = Cols({{"id", LogicalType::BigInt()}, {"name", LogicalType::String()}, {"c", LogicalType::Char(3)}});
  auto r = h.Create(s, {{"number-of-rows", "abc"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("'number-of-rows'"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("'gen'"), std::string::npos);
  r = h.Create(s, {{"fields.id.kind", "sequence"}, {"fields.id.start", "1"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("fields.id.end"), std::string::npos) << r.status().message();
  r = h.Create(s, {{"fields.idd.kind", "random"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Did you mean 'fields.id.kind'?"), std::string::npos) << r.status().message();
  r = h.Create(s, {{"fields.name.min", "1"}});  // min does not apply to strings
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("fields.name.min"), std::string::npos);
  r = h.Create(s, {{"fields.id.kind", "sequential"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("'sequential'"), std::string::npos);
  r = h.Create(s, {{"fields.id.min", "10"}, {"fields.id.max", "1"}});
  ASSERT_FALSE(r.ok());
  r = h.Create(s, {{"fields.c.length", "5"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("fixed-length"), std::string::npos);
  r = h.Create(s, {{"fields.id.null-rate", "1.5"}});
  ASSERT_FALSE(r.ok());
  r = h.Create(s, {{"rows-per-second", "0"}});
  ASSERT_FALSE(r.ok());
  Schema b = Cols({{"flag", LogicalType::Boolean()}});
  r = h.Create(b, {{"fields.flag.kind", "sequence"}, {"fields.flag.start", "0"}, {"fields.flag.end", "1"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("sequence generator does not support"), std::string::npos);
}

}  // namespace
}  // namespace sluice
