// Aggregate function library: accumulate/retract sequences, NULL handling, result types, Flink's
// explain names and resolution errors. Each test drives a function exactly as an operator does:
// aligned state slot, init, update per row (some rows batched in one vector), finalize, destroy.
#include "function/aggregate/aggregate_function.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <list>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

using Row = std::vector<Value>;

Value I32(int32_t v) { return Value::Int(LogicalType::Integer(), v); }
Value I64(int64_t v) { return Value::BigInt(v); }
Value Str(const std::string& s) { return Value::String(s); }
Value Dbl(double v) { return Value::Double(v); }
Value Dec(int p, int s, __int128 unscaled) { return Value::Decimal(p, s, unscaled); }

// Drives one resolved aggregate over one group's state slot.
class Harness {
 public:
  Harness(const std::string& name, std::vector<LogicalType> types, bool retract,
          std::vector<const Value*> constants = {})
      : types_(std::move(types)) {
    if (constants.empty()) constants.assign(types_.size(), nullptr);
    auto r = ResolveAggregate(name, types_, constants, retract);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return;
    fn_ = *r;
    EXPECT_EQ(fn_->state_align & (fn_->state_align - 1), 0u);
    size_t size = (fn_->state_size + fn_->state_align - 1) / fn_->state_align * fn_->state_align;
    state_ = static_cast<uint8_t*>(std::aligned_alloc(fn_->state_align, size == 0 ? fn_->state_align : size));
    // Garbage in the slot must not matter: init sets everything.
    std::memset(state_, 0xAB, size);
    fn_->init(state_);
  }
  ~Harness() {
    if (state_ != nullptr) {
      fn_->destroy(state_);
      std::free(state_);
    }
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  const AggregateFunction& fn() const { return *fn_; }
  const uint8_t* state() const { return state_; }

  // Folds another harness's state (rows that arrived later) into this one.
  void MergeFrom(const Harness& other) {
    ASSERT_TRUE(static_cast<bool>(fn_->merge)) << fn_->name;
    fn_->merge(state_, other.state_);
  }
  size_t HeapBytes() const { return fn_->heap_bytes ? fn_->heap_bytes(state_) : 0; }

  // Feeds rows (each a list of argument values) in one batch of vectors; `retract[i]` marks -U/-D.
  void Feed(const std::vector<Row>& rows, const std::vector<bool>& retract) {
    std::vector<Vector> cols;
    for (const LogicalType& t : types_) cols.emplace_back(t, 0);
    for (const Row& row : rows) {
      for (size_t c = 0; c < types_.size(); ++c) cols[c].AppendValue(row[c]);
    }
    std::vector<const Vector*> ptrs;
    for (const Vector& v : cols) ptrs.push_back(&v);
    for (size_t r = 0; r < rows.size(); ++r) fn_->update(state_, ptrs.data(), r, retract[r]);
  }
  void Add(Row row) { Feed({std::move(row)}, {false}); }
  void Retract(Row row) { Feed({std::move(row)}, {true}); }
  void AddAll(const std::vector<Row>& rows) { Feed(rows, std::vector<bool>(rows.size(), false)); }
  void Add(Value v) { Add(Row{std::move(v)}); }
  void Retract(Value v) { Retract(Row{std::move(v)}); }

  // The current result as text ("NULL" for SQL NULL). Writes into row 1 of a 3-row vector whose
  // rows start null, to check that finalize sets validity both ways.
  std::string Result() {
    Vector out(fn_->result_type, 3);
    for (size_t i = 0; i < 3; ++i) out.SetNull(i, true);
    fn_->finalize(state_, &out, 1);
    EXPECT_TRUE(out.IsNull(0));
    EXPECT_TRUE(out.IsNull(2));
    Value v = out.GetValue(1);
    // A second finalize must give the same answer (finalize does not consume state).
    Vector again(fn_->result_type, 1);
    fn_->finalize(state_, &again, 0);
    EXPECT_EQ(again.GetValue(0).is_null(), v.is_null());
    return v.is_null() ? "NULL" : v.ToString();
  }

 private:
  std::vector<LogicalType> types_;
  std::shared_ptr<const AggregateFunction> fn_;
  uint8_t* state_ = nullptr;
};

Status ResolveError(const std::string& name, std::vector<LogicalType> types, bool retract = false,
                    std::vector<const Value*> constants = {}) {
  if (constants.empty()) constants.assign(types.size(), nullptr);
  auto r = ResolveAggregate(name, types, constants, retract);
  EXPECT_FALSE(r.ok()) << name;
  return r.ok() ? Status::OK() : r.status();
}

// ------------------------------------------------------------------------------------------------
// COUNT

TEST(AggregateCount, CountStarCountsEveryRowAndRetracts) {
  Harness h("COUNT", {}, /*retract=*/true);
  EXPECT_EQ(h.fn().result_type.ToString(), "BIGINT NOT NULL");
  EXPECT_EQ(h.fn().explain_name, "COUNT_RETRACT");
  EXPECT_EQ(h.Result(), "0");
  h.Feed({{}, {}, {}}, {false, false, false});
  EXPECT_EQ(h.Result(), "3");
  h.Feed({{}}, {true});
  EXPECT_EQ(h.Result(), "2");
}

TEST(AggregateCount, CountColumnSkipsNulls) {
  Harness h("count", {LogicalType::Integer()}, false);
  EXPECT_EQ(h.fn().name, "COUNT");
  EXPECT_EQ(h.fn().explain_name, "COUNT");
  h.AddAll({{I32(1)}, {Value::Null(LogicalType::Integer())}, {I32(3)}});
  EXPECT_EQ(h.Result(), "2");
}

TEST(AggregateCount, CountSeveralColumnsNeedsAllNonNull) {
  Harness h("COUNT", {LogicalType::Integer(), LogicalType::String()}, true);
  h.AddAll({{I32(1), Str("a")},
            {Value::Null(LogicalType::Integer()), Str("b")},
            {I32(3), Value::Null(LogicalType::String())},
            {I32(4), Str("d")}});
  EXPECT_EQ(h.Result(), "2");
  h.Retract(Row{I32(1), Str("a")});
  h.Retract(Row{I32(3), Value::Null(LogicalType::String())});  // was not counted; not uncounted
  EXPECT_EQ(h.Result(), "1");
}

// ------------------------------------------------------------------------------------------------
// SUM

TEST(AggregateSum, IntSumIsIntAndNullWhenEmpty) {
  Harness h("SUM", {LogicalType::Integer().WithNullable(false)}, false);
  EXPECT_EQ(h.fn().result_type.ToString(), "INT");
  EXPECT_EQ(h.fn().explain_name, "SUM");
  EXPECT_EQ(h.Result(), "NULL");
  h.AddAll({{I32(5)}, {I32(-2)}, {I32(10)}});
  EXPECT_EQ(h.Result(), "13");
}

TEST(AggregateSum, NullsOnlyGiveNull) {
  Harness h("SUM", {LogicalType::BigInt()}, false);
  EXPECT_EQ(h.fn().result_type.ToString(), "BIGINT");
  h.AddAll({{Value::Null(LogicalType::BigInt())}, {Value::Null(LogicalType::BigInt())}});
  EXPECT_EQ(h.Result(), "NULL");
  h.Add(I64(7));
  EXPECT_EQ(h.Result(), "7");
}

TEST(AggregateSum, RetractingEverythingGivesNullAgain) {
  Harness h("SUM", {LogicalType::BigInt()}, true);
  EXPECT_EQ(h.fn().explain_name, "SUM_RETRACT");
  h.AddAll({{I64(4)}, {I64(6)}, {Value::Null(LogicalType::BigInt())}});
  EXPECT_EQ(h.Result(), "10");
  h.Retract(I64(4));
  EXPECT_EQ(h.Result(), "6");
  h.Retract(I64(6));
  // Sum is 0 but no value is left: NULL, as SumWithRetractAggFunction.
  EXPECT_EQ(h.Result(), "NULL");
  h.Add(I64(0));
  EXPECT_EQ(h.Result(), "0");
}

TEST(AggregateSum, IntOverflowWrapsAsJava) {
  Harness h("SUM", {LogicalType::Integer()}, false);
  h.AddAll({{I32(2147483647)}, {I32(1)}});
  EXPECT_EQ(h.Result(), "-2147483648");
  Harness t("SUM", {LogicalType::TinyInt()}, false);
  EXPECT_EQ(t.fn().result_type.ToString(), "TINYINT");
  t.AddAll({{Value::Int(LogicalType::TinyInt(), 100)}, {Value::Int(LogicalType::TinyInt(), 100)}});
  EXPECT_EQ(t.Result(), "-56");
  Harness b("SUM", {LogicalType::BigInt()}, true);
  b.AddAll({{I64(INT64_MAX)}, {I64(1)}});
  EXPECT_EQ(b.Result(), std::to_string(INT64_MIN));
  b.Retract(I64(1));
  EXPECT_EQ(b.Result(), std::to_string(INT64_MAX));
}

TEST(AggregateSum, DecimalSumIsDecimal38) {
  Harness h("SUM", {LogicalType::Decimal(10, 2)}, true);
  EXPECT_EQ(h.fn().result_type.ToString(), "DECIMAL(38, 2)");
  h.AddAll({{Dec(10, 2, 1050)}, {Dec(10, 2, 249)}, {Value::Null(LogicalType::Decimal(10, 2))}});
  EXPECT_EQ(h.Result(), "12.99");
  h.Retract(Dec(10, 2, 1050));
  EXPECT_EQ(h.Result(), "2.49");
}

TEST(AggregateSum, DecimalOverflowBeyond38DigitsIsNull) {
  const __int128 big = static_cast<__int128>(6e37);  // 6 * 10^37 fits DECIMAL(38, 0); twice it does not
  Harness h("SUM", {LogicalType::Decimal(38, 0)}, true);
  h.Add(Dec(38, 0, big));
  EXPECT_NE(h.Result(), "NULL");
  h.Add(Dec(38, 0, big));
  EXPECT_EQ(h.Result(), "NULL");
  h.Retract(Dec(38, 0, big));
  EXPECT_EQ(h.Result(), Value::Decimal(38, 0, big).ToString());
}

TEST(AggregateSum, DoubleSum) {
  Harness h("SUM", {LogicalType::Double()}, false);
  EXPECT_EQ(h.fn().result_type.ToString(), "DOUBLE");
  h.AddAll({{Dbl(1.5)}, {Dbl(2.25)}});
  EXPECT_EQ(h.Result(), "3.75");
}

TEST(AggregateSum, Sum0IsZeroWhenEmpty) {
  Harness h("$SUM0", {LogicalType::Integer()}, true);
  EXPECT_EQ(h.fn().result_type.ToString(), "INT NOT NULL");
  EXPECT_EQ(h.fn().explain_name, "$SUM0_RETRACT");
  EXPECT_EQ(h.Result(), "0");
  h.Add(I32(3));
  h.Retract(I32(3));
  EXPECT_EQ(h.Result(), "0");
}

// ------------------------------------------------------------------------------------------------
// AVG

TEST(AggregateAvg, IntegerAvgTruncatesAndKeepsType) {
  Harness h("AVG", {LogicalType::Integer()}, true);
  EXPECT_EQ(h.fn().result_type.ToString(), "INT");
  EXPECT_EQ(h.fn().explain_name, "AVG_RETRACT");
  EXPECT_EQ(h.Result(), "NULL");
  h.AddAll({{I32(1)}, {I32(2)}, {Value::Null(LogicalType::Integer())}});
  EXPECT_EQ(h.Result(), "1");  // 3 / 2
  h.Add(I32(4));
  EXPECT_EQ(h.Result(), "2");  // 7 / 3
  h.AddAll({{I32(-20)}});
  EXPECT_EQ(h.Result(), "-3");  // -13 / 4 truncates toward zero
  h.Feed({{I32(1)}, {I32(2)}, {I32(4)}, {I32(-20)}}, {true, true, true, true});
  EXPECT_EQ(h.Result(), "NULL");
}

TEST(AggregateAvg, BigIntAvgUsesBigIntSum) {
  Harness h("AVG", {LogicalType::SmallInt()}, false);
  EXPECT_EQ(h.fn().result_type.ToString(), "SMALLINT");
  h.AddAll({{Value::Int(LogicalType::SmallInt(), 30000)}, {Value::Int(LogicalType::SmallInt(), 30000)}});
  EXPECT_EQ(h.Result(), "30000");  // the sum does not wrap at 16 bits
}

TEST(AggregateAvg, DoubleAvg) {
  Harness h("AVG", {LogicalType::Double()}, false);
  EXPECT_EQ(h.fn().result_type.ToString(), "DOUBLE");
  h.AddAll({{Dbl(1)}, {Dbl(2)}});
  EXPECT_EQ(h.Result(), "1.5");
}

TEST(AggregateAvg, DecimalAvgScaleAtLeastSixRoundedHalfUp) {
  Harness h("AVG", {LogicalType::Decimal(10, 2)}, true);
  EXPECT_EQ(h.fn().result_type.ToString(), "DECIMAL(38, 6)");
  h.AddAll({{Dec(10, 2, 100)}, {Dec(10, 2, 100)}, {Dec(10, 2, 200)}});  // 4.00 / 3
  EXPECT_EQ(h.Result(), "1.333333");
  h.Add(Dec(10, 2, 267));  // 6.67 / 4 = 1.6675
  EXPECT_EQ(h.Result(), "1.667500");
  Harness n("AVG", {LogicalType::Decimal(10, 2)}, false);
  n.AddAll({{Dec(10, 2, -100)}, {Dec(10, 2, -100)}, {Dec(10, 2, 0)}});  // -2.00 / 3
  EXPECT_EQ(n.Result(), "-0.666667");
  Harness w("AVG", {LogicalType::Decimal(20, 8)}, false);
  EXPECT_EQ(w.fn().result_type.ToString(), "DECIMAL(38, 8)");
  w.AddAll({{Dec(20, 8, 1)}, {Dec(20, 8, 2)}});  // 0.00000003 / 2 = 0.000000015 -> 0.00000002
  EXPECT_EQ(w.Result(), "0.00000002");
}

// ------------------------------------------------------------------------------------------------
// MIN / MAX

TEST(AggregateMinMax, AppendOnlyIntegers) {
  Harness mn("MIN", {LogicalType::Integer()}, false);
  Harness mx("MAX", {LogicalType::Integer()}, false);
  EXPECT_FALSE(mn.fn().supports_retract);
  EXPECT_EQ(mx.fn().result_type.ToString(), "INT");
  EXPECT_EQ(mn.Result(), "NULL");
  std::vector<Row> rows = {{I32(5)}, {Value::Null(LogicalType::Integer())}, {I32(-3)}, {I32(9)}};
  mn.AddAll(rows);
  mx.AddAll(rows);
  EXPECT_EQ(mn.Result(), "-3");
  EXPECT_EQ(mx.Result(), "9");
}

TEST(AggregateMinMax, AppendOnlyStringsAreCopied) {
  Harness mx("MAX", {LogicalType::String()}, false);
  Harness mn("MIN", {LogicalType::String()}, false);
  {
    // The input vector dies after Feed; the state must own the bytes.
    mx.AddAll({{Str("pear")}, {Str("apple")}, {Str("zebra-with-a-long-name-beyond-sso")}});
    mn.AddAll({{Str("pear")}, {Str("apple")}, {Str("zebra-with-a-long-name-beyond-sso")}});
  }
  EXPECT_EQ(mx.Result(), "zebra-with-a-long-name-beyond-sso");
  EXPECT_EQ(mn.Result(), "apple");
  mx.Add(Str("zz"));
  EXPECT_EQ(mx.Result(), "zz");
}

TEST(AggregateMinMax, RetractingCurrentMaxRevealsNext) {
  Harness h("MAX", {LogicalType::BigInt()}, true);
  EXPECT_EQ(h.fn().explain_name, "MAX_RETRACT");
  EXPECT_TRUE(h.fn().supports_retract);
  h.AddAll({{I64(3)}, {I64(10)}, {I64(7)}, {I64(10)}});
  EXPECT_EQ(h.Result(), "10");
  h.Retract(I64(10));
  EXPECT_EQ(h.Result(), "10");  // a second 10 is still there
  h.Retract(I64(10));
  EXPECT_EQ(h.Result(), "7");
  h.Retract(I64(3));
  EXPECT_EQ(h.Result(), "7");
  h.Retract(I64(7));
  EXPECT_EQ(h.Result(), "NULL");
  h.Add(I64(1));
  EXPECT_EQ(h.Result(), "1");
}

TEST(AggregateMinMax, RetractingCurrentMinStrings) {
  Harness h("MIN", {LogicalType::VarChar(20)}, true);
  EXPECT_EQ(h.fn().result_type.ToString(), "VARCHAR(20)");
  h.AddAll({{Value::Typed(LogicalType::VarChar(20), "m")},
            {Value::Typed(LogicalType::VarChar(20), "b")},
            {Value::Typed(LogicalType::VarChar(20), "x")}});
  EXPECT_EQ(h.Result(), "b");
  h.Retract(Value::Typed(LogicalType::VarChar(20), "b"));
  EXPECT_EQ(h.Result(), "m");
  h.Retract(Value::Typed(LogicalType::VarChar(20), "m"));
  EXPECT_EQ(h.Result(), "x");
}

TEST(AggregateMinMax, RetractBeforeAccumulateCancels) {
  Harness h("MIN", {LogicalType::Integer()}, true);
  h.Retract(I32(1));  // out-of-order retraction: a negative count, not a value
  EXPECT_EQ(h.Result(), "NULL");
  h.Add(I32(5));
  EXPECT_EQ(h.Result(), "5");
  h.Add(I32(1));  // cancels the earlier retraction
  EXPECT_EQ(h.Result(), "5");
  h.Add(I32(1));
  EXPECT_EQ(h.Result(), "1");
}

TEST(AggregateMinMax, TimestampsDecimalsDoubles) {
  Harness ts("MAX", {LogicalType::Timestamp(3)}, true);
  EXPECT_EQ(ts.fn().result_type.ToString(), "TIMESTAMP(3)");
  const int64_t t0 = 1786770000000000;  // microseconds
  ts.AddAll({{Value::Int(LogicalType::Timestamp(3), t0)}, {Value::Int(LogicalType::Timestamp(3), t0 + 1000)}});
  ts.Retract(Value::Int(LogicalType::Timestamp(3), t0 + 1000));
  EXPECT_EQ(ts.Result(), Value::Int(LogicalType::Timestamp(3), t0).ToString());

  Harness dec("MIN", {LogicalType::Decimal(5, 1)}, false);
  EXPECT_EQ(dec.fn().result_type.ToString(), "DECIMAL(5, 1)");
  dec.AddAll({{Dec(5, 1, 25)}, {Dec(5, 1, -15)}});
  EXPECT_EQ(dec.Result(), "-1.5");

  Harness d("MAX", {LogicalType::Double()}, true);
  d.AddAll({{Dbl(-0.5)}, {Dbl(2.5)}, {Dbl(1.0)}});
  d.Retract(Dbl(2.5));
  EXPECT_EQ(d.Result(), "1.0");
}

TEST(AggregateMinMax, TimeAttributeIsDropped) {
  Harness h("MAX", {LogicalType::Timestamp(3).WithTimeAttribute(TimeAttribute::kRowtime)}, false);
  EXPECT_EQ(h.fn().result_type.time_attribute(), TimeAttribute::kNone);
}

// ------------------------------------------------------------------------------------------------
// FIRST_VALUE / LAST_VALUE

TEST(AggregateFirstLast, AppendOnlySkipsNulls) {
  Harness first("FIRST_VALUE", {LogicalType::String()}, false);
  Harness last("LAST_VALUE", {LogicalType::String()}, false);
  std::vector<Row> rows = {
      {Value::Null(LogicalType::String())}, {Str("a")}, {Str("b")}, {Value::Null(LogicalType::String())}};
  first.AddAll(rows);
  last.AddAll(rows);
  EXPECT_EQ(first.Result(), "a");
  EXPECT_EQ(last.Result(), "b");
  EXPECT_EQ(first.fn().explain_name, "FIRST_VALUE");
  Harness n("LAST_VALUE", {LogicalType::Integer()}, false);
  EXPECT_EQ(n.Result(), "NULL");
  n.AddAll({{I32(1)}, {I32(2)}});
  EXPECT_EQ(n.Result(), "2");
}

TEST(AggregateFirstLast, RetractingFirstRevealsNextByArrival) {
  Harness h("FIRST_VALUE", {LogicalType::Integer()}, true);
  EXPECT_EQ(h.fn().explain_name, "FIRST_VALUE_RETRACT");
  h.AddAll({{I32(7)}, {I32(3)}, {I32(7)}, {I32(9)}});
  EXPECT_EQ(h.Result(), "7");
  h.Retract(I32(7));  // removes the earliest 7; the next live value by arrival is 3
  EXPECT_EQ(h.Result(), "3");
  h.Retract(I32(3));
  EXPECT_EQ(h.Result(), "7");
  h.Retract(I32(42));  // never accumulated: ignored
  EXPECT_EQ(h.Result(), "7");
  h.Feed({{I32(7)}, {I32(9)}}, {true, true});
  EXPECT_EQ(h.Result(), "NULL");
}

TEST(AggregateFirstLast, RetractingLastRevealsPrevious) {
  Harness h("LAST_VALUE", {LogicalType::String()}, true);
  h.AddAll({{Str("a")}, {Str("b")}, {Str("c")}});
  EXPECT_EQ(h.Result(), "c");
  h.Retract(Str("c"));
  EXPECT_EQ(h.Result(), "b");
  h.Add(Str("a"));
  EXPECT_EQ(h.Result(), "a");
  h.Retract(Str("a"));  // the earliest "a" goes; the latest live value is still "a"
  EXPECT_EQ(h.Result(), "a");
  h.Retract(Str("a"));
  EXPECT_EQ(h.Result(), "b");
}

// ------------------------------------------------------------------------------------------------
// LISTAGG

TEST(AggregateListAgg, DefaultSeparatorKeepsArrivalOrder) {
  Harness h("LISTAGG", {LogicalType::String()}, false);
  EXPECT_EQ(h.fn().result_type.ToString(), "STRING");
  EXPECT_EQ(h.Result(), "NULL");
  h.AddAll({{Str("b")}, {Value::Null(LogicalType::String())}, {Str("a")}, {Str("c")}});
  EXPECT_EQ(h.Result(), "b,a,c");
}

TEST(AggregateListAgg, ConstantSeparator) {
  Value sep = Value::Typed(LogicalType::Char(2).WithNullable(false), "; ");
  Harness h("LISTAGG", {LogicalType::String(), sep.type()}, false, {nullptr, &sep});
  h.AddAll({{Str("x"), sep}, {Str(""), sep}, {Str("y"), sep}});
  EXPECT_EQ(h.Result(), "x; ; y");
}

TEST(AggregateListAgg, RetractionRemovesFirstEqualValue) {
  Value sep = Value::Typed(LogicalType::Char(1).WithNullable(false), "|");
  Harness h("LISTAGG", {LogicalType::String(), sep.type()}, true, {nullptr, &sep});
  EXPECT_EQ(h.fn().explain_name, "LISTAGG_RETRACT");
  h.AddAll({{Str("a"), sep}, {Str("b"), sep}, {Str("a"), sep}, {Str("c"), sep}});
  EXPECT_EQ(h.Result(), "a|b|a|c");
  h.Retract(Row{Str("a"), sep});
  EXPECT_EQ(h.Result(), "b|a|c");
  h.Retract(Row{Str("c"), sep});
  EXPECT_EQ(h.Result(), "b|a");
  h.Feed({{Str("b"), sep}, {Str("a"), sep}}, {true, true});
  EXPECT_EQ(h.Result(), "NULL");
  h.Add(Row{Str("z"), sep});
  EXPECT_EQ(h.Result(), "z");
}

TEST(AggregateListAgg, EmptyFirstValueStillSeparated) {
  Harness h("LISTAGG", {LogicalType::String()}, true);
  h.AddAll({{Str("")}, {Str("q")}});
  EXPECT_EQ(h.Result(), ",q");
}

// ------------------------------------------------------------------------------------------------
// Variance family

// Flink's STDDEV/VAR have their argument's type (Calcite reduces them to SUM/COUNT arithmetic in that
// type): over INT the results are INT, computed with integer division.
TEST(AggregateVariance, PopulationAndSample) {
  std::vector<Row> rows = {{I32(2)}, {I32(4)}, {I32(4)}, {I32(4)}, {I32(5)}, {I32(5)}, {I32(7)}, {I32(9)}};
  Harness vp("VAR_POP", {LogicalType::Integer()}, true);
  Harness sp("STDDEV_POP", {LogicalType::Integer()}, true);
  Harness vs("VAR_SAMP", {LogicalType::Integer()}, true);
  Harness ss("STDDEV_SAMP", {LogicalType::Integer()}, true);
  EXPECT_EQ(vp.fn().result_type.ToString(), "INT");
  for (Harness* h : {&vp, &sp, &vs, &ss}) h->AddAll(rows);
  EXPECT_EQ(vp.Result(), "4");
  EXPECT_EQ(sp.Result(), "2");
  EXPECT_EQ(vs.Result(), "4");  // (232 - 40 * 40 / 8) / 7 in INT
  // One value left: population variance 0, sample variance NULL.
  for (int v : {2, 4, 4, 4, 5, 5, 7}) {
    vp.Retract(I32(v));
    vs.Retract(I32(v));
  }
  EXPECT_EQ(vp.Result(), "0");
  EXPECT_EQ(vs.Result(), "NULL");
  vp.Retract(I32(9));
  EXPECT_EQ(vp.Result(), "NULL");
}

TEST(AggregateVariance, DoubleArgumentsKeepFractions) {
  Harness vp("VAR_POP", {LogicalType::Double()}, true);
  Harness vs("VAR_SAMP", {LogicalType::Double()}, true);
  EXPECT_EQ(vp.fn().result_type.ToString(), "DOUBLE");
  for (double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) {
    vp.Add(Value::Double(v));
    vs.Add(Value::Double(v));
  }
  EXPECT_EQ(vp.Result(), "4.0");
  EXPECT_EQ(vs.Result(), Value::Double(32.0 / 7).ToString());
}

// ------------------------------------------------------------------------------------------------
// Resolution

TEST(AggregateResolve, UnknownFunction) {
  Status st = ResolveError("MEDIAN", {LogicalType::Integer()});
  EXPECT_EQ(st.code(), StatusCode::kBindError);
  EXPECT_EQ(st.message(), "No match found for function signature MEDIAN(<NUMERIC>)");
}

TEST(AggregateResolve, WrongArgumentTypes) {
  Status st = ResolveError("SUM", {LogicalType::String()});
  EXPECT_EQ(st.code(), StatusCode::kBindError);
  EXPECT_NE(st.message().find("Cannot apply 'SUM' to arguments of type 'SUM(<STRING>)'"), std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("SUM(<NUMERIC>)"), std::string::npos);
  EXPECT_EQ(ResolveError("AVG", {LogicalType::Boolean()}).code(), StatusCode::kBindError);
  Status mm = ResolveError("MAX", {LogicalType::Array(LogicalType::Integer())});
  EXPECT_NE(mm.message().find("Max aggregate function does not support type: 'ARRAY<INT>'"), std::string::npos)
      << mm.message();
  EXPECT_EQ(ResolveError("LISTAGG", {LogicalType::Integer()}).code(), StatusCode::kBindError);
  EXPECT_EQ(ResolveError("FIRST_VALUE", {LogicalType::Row({"a"}, {LogicalType::Integer()})}).code(),
            StatusCode::kBindError);
}

TEST(AggregateResolve, WrongArgumentCounts) {
  Status st = ResolveError("SUM", {LogicalType::Integer(), LogicalType::Integer()});
  EXPECT_EQ(st.message(), "Invalid number of arguments to function 'SUM'. Was expecting 1 arguments");
  EXPECT_EQ(ResolveError("MIN", {}).code(), StatusCode::kBindError);
  EXPECT_EQ(ResolveError("LISTAGG", {}).code(), StatusCode::kBindError);
}

TEST(AggregateResolve, ListAggSeparatorMustBeLiteral) {
  Status st = ResolveError("LISTAGG", {LogicalType::String(), LogicalType::String()});
  EXPECT_NE(st.message().find("LISTAGG(<CHARACTER>, <CHARACTER_LITERAL>)"), std::string::npos) << st.message();
}

TEST(AggregateResolve, NullLiteralArgument) {
  Status st = ResolveError("SUM", {LogicalType::Null()});
  EXPECT_NE(st.message().find("Illegal use of 'NULL'"), std::string::npos) << st.message();
}

TEST(AggregateResolve, StateLayoutIsSmallForHotAggregates) {
  for (const char* name : {"COUNT", "SUM", "MIN", "MAX", "AVG"}) {
    auto r = ResolveAggregate(name, {LogicalType::BigInt()}, {nullptr}, false);
    ASSERT_TRUE(r.ok()) << name;
    EXPECT_LE((*r)->state_size, 16u) << name;
    EXPECT_EQ((*r)->state_align, 8u) << name;
  }
  auto dec = ResolveAggregate("SUM", {LogicalType::Decimal(10, 2)}, {nullptr}, false);
  ASSERT_TRUE(dec.ok());
  EXPECT_EQ((*dec)->state_align, 16u);
}

// ------------------------------------------------------------------------------------------------
// Merge (local/global aggregation) and heap accounting

TEST(AggregateMerge, CountSumAvgAddUpIncludingRetractions) {
  for (const char* name : {"COUNT", "SUM", "AVG"}) {
    Harness global(name, {LogicalType::BigInt()}, true);
    Harness local(name, {LogicalType::BigInt()}, true);
    global.AddAll({{I64(10)}, {I64(20)}});
    local.Retract(I64(10));  // a retraction of a row only the global side has seen
    local.AddAll({{I64(5)}, {Value::Null(LogicalType::BigInt())}});
    global.MergeFrom(local);
    const std::string expected = std::string(name) == "COUNT" ? "2" : std::string(name) == "SUM" ? "25" : "12";
    EXPECT_EQ(global.Result(), expected) << name;
    // The partial alone has a net count of 0 non-null values: SUM and AVG are NULL there, as Flink's.
    EXPECT_EQ(local.Result(), std::string(name) == "COUNT" ? "0" : "NULL") << name;
  }
  Harness v1("VAR_POP", {LogicalType::Double()}, true);
  Harness v2("VAR_POP", {LogicalType::Double()}, true);
  v1.AddAll({{Dbl(1)}, {Dbl(3)}});
  v2.AddAll({{Dbl(5)}, {Dbl(7)}});
  v1.MergeFrom(v2);
  EXPECT_EQ(v1.Result(), "5.0");
}

TEST(AggregateMerge, MinMaxAppendOnlyAndRetracting) {
  Harness a("MAX", {LogicalType::String()}, false);
  Harness b("MAX", {LogicalType::String()}, false);
  a.Add(Str("kiwi"));
  a.MergeFrom(b);  // an empty partial changes nothing
  EXPECT_EQ(a.Result(), "kiwi");
  b.Add(Str("lime"));
  a.MergeFrom(b);
  EXPECT_EQ(a.Result(), "lime");

  Harness g("MIN", {LogicalType::Integer()}, true);
  Harness l("MIN", {LogicalType::Integer()}, true);
  g.AddAll({{I32(1)}, {I32(4)}});
  l.Retract(I32(1));  // negative count in the partial cancels the global 1
  l.Add(I32(3));
  g.MergeFrom(l);
  EXPECT_EQ(g.Result(), "3");
  g.Retract(I32(3));
  EXPECT_EQ(g.Result(), "4");
}

TEST(AggregateMerge, FirstLastAppendOnlyTakeArrivalOrder) {
  Harness first("FIRST_VALUE", {LogicalType::Integer()}, false);
  Harness last("LAST_VALUE", {LogicalType::Integer()}, false);
  Harness later_first("FIRST_VALUE", {LogicalType::Integer()}, false);
  Harness later_last("LAST_VALUE", {LogicalType::Integer()}, false);
  later_first.Add(I32(9));
  later_last.Add(I32(9));
  first.MergeFrom(later_first);
  EXPECT_EQ(first.Result(), "9");
  first.Add(I32(1));
  EXPECT_EQ(first.Result(), "9");
  last.Add(I32(1));
  last.MergeFrom(later_last);
  EXPECT_EQ(last.Result(), "9");
  auto r = ResolveAggregate("FIRST_VALUE", {LogicalType::Integer()}, {nullptr}, true);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(static_cast<bool>((*r)->merge));  // as Flink: no two-phase FIRST_VALUE with retraction
}

TEST(AggregateMerge, ListAggKeepsOrderAndPendingRetractions) {
  Harness a("LISTAGG", {LogicalType::String()}, false);
  Harness b("LISTAGG", {LogicalType::String()}, false);
  a.AddAll({{Str("x")}, {Str("y")}});
  b.Add(Str("z"));
  a.MergeFrom(b);
  EXPECT_EQ(a.Result(), "x,y,z");

  Harness g("LISTAGG", {LogicalType::String()}, true);
  Harness l("LISTAGG", {LogicalType::String()}, true);
  g.AddAll({{Str("a")}, {Str("b")}});
  l.Retract(Str("a"));  // nothing to remove locally: pending until merged
  l.Add(Str("c"));
  EXPECT_EQ(l.Result(), "c");
  g.MergeFrom(l);
  EXPECT_EQ(g.Result(), "b,c");
}

TEST(AggregateHeapBytes, OnlyHeapStatesReportBytes) {
  Harness count("COUNT", {LogicalType::BigInt()}, true);
  EXPECT_FALSE(static_cast<bool>(count.fn().heap_bytes));
  Harness mx("MAX", {LogicalType::BigInt()}, true);
  EXPECT_EQ(mx.HeapBytes(), 0u);
  mx.AddAll({{I64(1)}, {I64(2)}});
  const size_t two = mx.HeapBytes();
  EXPECT_GT(two, 0u);
  mx.Add(I64(3));
  EXPECT_GT(mx.HeapBytes(), two);
  Harness la("LISTAGG", {LogicalType::String()}, true);
  la.Add(Str(std::string(100, 'q')));
  EXPECT_GE(la.HeapBytes(), 100u);
  Harness fv("LAST_VALUE", {LogicalType::String()}, true);
  fv.Add(Str(std::string(64, 'w')));
  EXPECT_GE(fv.HeapBytes(), 64u);
}

// ------------------------------------------------------------------------------------------------
// Float types and randomized retraction against a brute-force model

TEST(AggregateFloat, FloatSumAndAvgStayFloat) {
  Harness sum("SUM", {LogicalType::Float()}, true);
  Harness avg("AVG", {LogicalType::Float()}, true);
  EXPECT_EQ(sum.fn().result_type.ToString(), "FLOAT");
  EXPECT_EQ(avg.fn().result_type.ToString(), "FLOAT");
  for (Harness* h : {&sum, &avg}) h->AddAll({{Value::Float(1.5f)}, {Value::Float(2.0f)}});
  EXPECT_EQ(sum.Result(), Value::Float(3.5f).ToString());
  EXPECT_EQ(avg.Result(), Value::Float(1.75f).ToString());
}

TEST(AggregateRandomized, RetractingFunctionsMatchBruteForce) {
  std::mt19937_64 rng(20261129);
  const std::vector<std::string> pool = {"", "a", "b", "ab", "ba", "zz", "a-long-string-that-needs-the-heap"};
  for (int round = 0; round < 20; ++round) {
    Harness mn("MIN", {LogicalType::String()}, true);
    Harness mx("MAX", {LogicalType::String()}, true);
    Harness first("FIRST_VALUE", {LogicalType::String()}, true);
    Harness last("LAST_VALUE", {LogicalType::String()}, true);
    Harness list("LISTAGG", {LogicalType::String()}, true);
    Harness cnt("COUNT", {LogicalType::String()}, true);
    std::list<std::string> live;  // arrival order
    for (int step = 0; step < 200; ++step) {
      const bool retract = !live.empty() && rng() % 3 == 0;
      std::string v;
      if (retract) {
        auto it = live.begin();
        std::advance(it, static_cast<long>(rng() % live.size()));
        v = *it;
        live.erase(std::find(live.begin(), live.end(), v));  // the earliest equal value goes
      } else {
        v = pool[rng() % pool.size()];
        live.push_back(v);
      }
      for (Harness* h : {&mn, &mx, &first, &last, &list, &cnt}) h->Feed({{Str(v)}}, {retract});
      if (live.empty()) {
        for (Harness* h : {&mn, &mx, &first, &last, &list}) EXPECT_EQ(h->Result(), "NULL");
        EXPECT_EQ(cnt.Result(), "0");
        continue;
      }
      std::string joined;
      for (const std::string& x : live) joined += (&x == &live.front() ? "" : ",") + x;
      ASSERT_EQ(mn.Result(), *std::min_element(live.begin(), live.end())) << round << "/" << step;
      ASSERT_EQ(mx.Result(), *std::max_element(live.begin(), live.end())) << round << "/" << step;
      ASSERT_EQ(first.Result(), live.front()) << round << "/" << step;
      ASSERT_EQ(last.Result(), live.back()) << round << "/" << step;
      ASSERT_EQ(list.Result(), joined) << round << "/" << step;
      ASSERT_EQ(cnt.Result(), std::to_string(live.size()));
    }
  }
}

}  // namespace
}  // namespace sluice
