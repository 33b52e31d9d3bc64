#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "common/time_util.h"
#include "connectors/builtin_connectors.h"
#include "connectors/connector.h"
#include "connectors/print/print_connector.h"
#include "connectors/values/values_connector.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {
namespace {

const ConnectorFactory& Factory(const std::string& id) { return **ConnectorRegistry::Builtin().Find(id); }

Schema StoreSchema() {
  return Schema({{"store_id", LogicalType::String()},
                 {"baskets", LogicalType::BigInt()},
                 {"window_end", LogicalType::Timestamp(3)}});
}

Chunk StoreRows() {
  Chunk c(StoreSchema());
  int64_t ts = *ParseTimestamp("2026-08-15 05:00:00");
  c.AppendValues({Value::String("SG-0042"), Value::BigInt(1), Value::Int(LogicalType::Timestamp(3), ts)},
                 RowKind::kInsert);
  c.AppendValues({Value::String("SG-0042"), Value::BigInt(1), Value::Int(LogicalType::Timestamp(3), ts)},
                 RowKind::kUpdateBefore);
  c.AppendValues({Value::String("SG-0042"), Value::BigInt(2), Value::Null(LogicalType::Timestamp(3))},
                 RowKind::kUpdateAfter);
  c.AppendValues({Value::String("SG-7"), Value::BigInt(5), Value::Int(LogicalType::Timestamp(3), ts)},
                 RowKind::kDelete);
  return c;
}

ConnectorContext PrintContext(std::map<std::string, std::string> options, std::ostream* out, std::ostream* err) {
  ConnectorContext ctx;
  ctx.table_name = "console";
  ctx.physical_schema = StoreSchema();
  ctx.options = std::move(options);
  ctx.options["connector"] = "print";
  ctx.out = out;
  ctx.err = err;
  return ctx;
}

TEST(PrintConnectorTest, PrintsEveryChangeAsFlinkDoes) {
  std::ostringstream out, err;
  auto sink = Factory("print").CreateSink(PrintContext({}, &out, &err));
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  EXPECT_EQ((*sink)->accepted_changelog_mode(), ChangelogMode::All());
  auto writer = (*sink)->CreateWriter();
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write(StoreRows()).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_EQ(out.str(),
            "+I[SG-0042, 1, 2026-08-15 05:00:00.000]\n"
            "-U[SG-0042, 1, 2026-08-15 05:00:00.000]\n"
            "+U[SG-0042, 2, NULL]\n"
            "-D[SG-7, 5, 2026-08-15 05:00:00.000]\n");
  EXPECT_EQ(err.str(), "");
}

TEST(PrintConnectorTest, IdentifierPrefixAndStandardError) {
  std::ostringstream out, err;
  auto sink = Factory("print").CreateSink(
      PrintContext({{"print-identifier", "stores"}, {"standard-error", "true"}, {"sink.parallelism", "1"}}, &out, &err));
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  auto writer = (*sink)->CreateWriter();
  ASSERT_TRUE(writer.ok());
  Chunk rows = StoreRows();
  ASSERT_TRUE((*writer)->Write(rows).ok());
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(err.str().substr(0, err.str().find('\n')), "stores> +I[SG-0042, 1, 2026-08-15 05:00:00.000]");
  std::string one;
  AppendPrintRow(rows, 2, &one);
  EXPECT_EQ(one, "+U[SG-0042, 2, NULL]");
  auto bad = Factory("print").CreateSink(PrintContext({{"print-identifer", "x"}}, &out, &err));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Did you mean 'print-identifier'?"), std::string::npos);
  auto bad_bool = Factory("print").CreateSink(PrintContext({{"standard-error", "maybe"}}, &out, &err));
  ASSERT_FALSE(bad_bool.ok());
  EXPECT_NE(bad_bool.status().message().find("Invalid value for option 'standard-error' of table 'console'"),
            std::string::npos);
}

// Flink's blackhole takes every kind of change except update-before, so the planner never asks an
// updating query for -U rows on its behalf.
TEST(BlackholeConnectorTest, AcceptsAllButUpdateBeforeAndIsNoSource) {
  ConnectorContext ctx;
  ctx.table_name = "bh";
  ctx.physical_schema = StoreSchema();
  ctx.options = {{"connector", "blackhole"}};
  auto sink = Factory("blackhole").CreateSink(ctx);
  ASSERT_TRUE(sink.ok());
  EXPECT_EQ((*sink)->accepted_changelog_mode(), ChangelogMode::Upsert());
  auto writer = (*sink)->CreateWriter();
  ASSERT_TRUE(writer.ok());
  EXPECT_TRUE((*writer)->Write(StoreRows()).ok());
  EXPECT_TRUE((*writer)->Finish().ok());
  auto src = Factory("blackhole").CreateSource(ctx);
  ASSERT_FALSE(src.ok());
  EXPECT_NE(src.status().message().find("cannot be used as a source"), std::string::npos);
}

ConnectorContext ValuesContext(ValuesDataRegistry* registry, std::map<std::string, std::string> options) {
  ConnectorContext ctx;
  ctx.table_name = "changes";
  ctx.physical_schema = Schema({{"k", LogicalType::String()}, {"v", LogicalType::BigInt()}});
  ctx.options = std::move(options);
  ctx.options["connector"] = "values";
  ctx.values_registry = registry;
  return ctx;
}

ValuesRow Row(RowKind kind, const std::string& k, int64_t v) { return ValuesRow{kind, {Value::String(k), Value::BigInt(v)}}; }

TEST(ValuesConnectorTest, ReadsRegisteredSplitsWithKindsAndKeepsUpdatePairsTogether) {
  ValuesDataRegistry registry;
  std::string id = registry.RegisterData({{Row(RowKind::kInsert, "a", 1), Row(RowKind::kUpdateBefore, "a", 1),
                                           Row(RowKind::kUpdateAfter, "a", 2), Row(RowKind::kDelete, "a", 2)},
                                          {Row(RowKind::kInsert, "b", 7)}});
  ConnectorContext ctx = ValuesContext(&registry, {{"data-id", id}, {"changelog-mode", "I,UB,UA,D"}});
  ctx.projection = {1, 0};
  auto source = Factory("values").CreateSource(ctx);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ((*source)->changelog_mode(), ChangelogMode::All());
  EXPECT_TRUE((*source)->bounded());
  auto splits = (*source)->CreateSplits();
  ASSERT_TRUE(splits.ok());
  ASSERT_EQ(splits->size(), 2u);
  std::vector<size_t> chunk_sizes;
  std::vector<std::string> rows;
  for (auto& split : *splits) {
    while (true) {
      Chunk chunk(ProjectedSchema(ctx));
      auto more = split->Read(2, &chunk);
      ASSERT_TRUE(more.ok());
      if (!*more) break;
      chunk_sizes.push_back(chunk.size());
      for (size_t r = 0; r < chunk.size(); ++r) {
        rows.push_back(ValuesRowToString(ValuesRow{chunk.kind(r), chunk.GetRow(r)}));
      }
    }
  }
  // A chunk of 2 would split the -U/+U pair, so the first chunk stops before it.
  EXPECT_EQ(chunk_sizes, (std::vector<size_t>{1, 2, 1, 1}));
  EXPECT_EQ(rows, (std::vector<std::string>{"+I[1, a]", "-U[1, a]", "+U[2, a]", "-D[2, a]", "+I[7, b]"}));
}

TEST(ValuesConnectorTest, RejectsKindsOutsideTheModeAndBadRows) {
  ValuesDataRegistry registry;
  registry.Register("d1", {{Row(RowKind::kInsert, "a", 1), Row(RowKind::kDelete, "a", 1)}});
  auto src = Factory("values").CreateSource(ValuesContext(&registry, {{"data-id", "d1"}}));
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.status().message(),
            "Unable to create a source for reading table 'changes': row 2 of split 0 is a -D change, which "
            "'changelog-mode' = 'I' does not allow");
  registry.Register("d2", {{ValuesRow{RowKind::kInsert, {Value::String("a"), Value::Double(1.5)}}}});
  auto typed = Factory("values").CreateSource(ValuesContext(&registry, {{"data-id", "d2"}}));
  ASSERT_FALSE(typed.ok());
  EXPECT_NE(typed.status().message().find("does not fit column 'v' of type BIGINT"), std::string::npos)
      << typed.status().message();
  auto missing = Factory("values").CreateSource(ValuesContext(&registry, {{"data-id", "nope"}}));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no rows are registered under 'data-id' = 'nope'"), std::string::npos);
  auto mode = Factory("values").CreateSource(ValuesContext(&registry, {{"changelog-mode", "I,X"}}));
  ASSERT_FALSE(mode.ok());
  EXPECT_NE(mode.status().message().find("'X' is not a change kind"), std::string::npos);
  auto empty = Factory("values").CreateSource(ValuesContext(&registry, {{"bounded", "false"}}));
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE((*empty)->bounded());
  EXPECT_TRUE((*empty)->CreateSplits()->empty());
}

TEST(ValuesConnectorTest, SinkCollectsChangesPerTable) {
  ValuesDataRegistry registry;
  auto insert_only = Factory("values").CreateSink(ValuesContext(&registry, {}));
  ASSERT_TRUE(insert_only.ok());
  EXPECT_TRUE((*insert_only)->accepted_changelog_mode().IsInsertOnly());
  auto sink = Factory("values").CreateSink(ValuesContext(&registry, {{"sink-insert-only", "false"}}));
  ASSERT_TRUE(sink.ok());
  EXPECT_EQ((*sink)->accepted_changelog_mode(), ChangelogMode::All());
  auto writer = (*sink)->CreateWriter();
  ASSERT_TRUE(writer.ok());
  Chunk c(Schema({{"k", LogicalType::String()}, {"v", LogicalType::BigInt()}}));
  c.AppendValues({Value::String("a"), Value::BigInt(1)}, RowKind::kInsert);
  c.AppendValues({Value::String("a"), Value::BigInt(1)}, RowKind::kDelete);
  ASSERT_TRUE((*writer)->Write(c).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  auto results = registry.Results("changes");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(ValuesRowToString(results[1]), "-D[a, 1]");
  registry.ClearResults();
  EXPECT_TRUE(registry.Results("changes").empty());
  auto no_registry = Factory("values").CreateSink(ValuesContext(nullptr, {}));
  EXPECT_FALSE(no_registry.ok());
}

}  // namespace
}  // namespace sluice
