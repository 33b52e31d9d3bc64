#include <gtest/gtest.h>

#include "connectors/iceberg/partition_router.h"
#include "connectors/iceberg/partition_transforms.h"
#include "types/value.h"

namespace sluice {
namespace {

IcebergType T(IcebergTypeId id) { return IcebergType::Primitive(id); }

// The spec's Appendix B test values.
TEST(IcebergTransformsTest, HashesMatchTheSpecTable) {
  EXPECT_EQ(IcebergHashLong(34), 2017239379);
  EXPECT_EQ(IcebergHashDecimal(1420), -500754589);
  EXPECT_EQ(IcebergHashLong(17486), -653330422);  // date 2017-11-16
  EXPECT_EQ(IcebergHashLong(81068000000LL), -662762989);  // time 22:31:08
  EXPECT_EQ(IcebergHashLong(1510871468000000LL), -2047944441);
  EXPECT_EQ(IcebergHashLong(1510871468000001LL), -1207196810);
  EXPECT_EQ(IcebergHashBytes("iceberg"), 1210000089);
  EXPECT_EQ(IcebergHashBytes(*ParseUuid("f79c3e09-677c-4bbd-a479-3f349cb785e7")), 1488055340);
  EXPECT_EQ(IcebergHashBytes(std::string("\x00\x01\x02\x03", 4)), -188683207);
  // timestamp_ns hashes its micros.
  auto ns = ApplyTransform(Transform::Bucket(1 << 30), T(IcebergTypeId::kTimestampNs),
                           IcebergLiteral::TimestampNs(1510871468000001001LL));
  ASSERT_TRUE(ns.ok());
  EXPECT_EQ((*ns)->int_value(), BucketOf(-1207196810, 1 << 30));
}

TEST(IcebergTransformsTest, ColumnsMatchTheValuePath) {
  // One column per type, transformed as a whole, agrees with the per-value definition.
  Vector ints(LogicalType::Integer(), 4);
  int32_t raw[] = {34, -1, 0, 7};
  for (int i = 0; i < 4; ++i) ints.data<int32_t>()[i] = raw[i];
  ints.SetNull(3, true);
  Vector out;
  ASSERT_TRUE(ApplyTransform(Transform::Bucket(16), T(IcebergTypeId::kInt), ints, &out).ok());
  EXPECT_EQ(out.type().id(), TypeId::kInteger);
  EXPECT_EQ(out.data<int32_t>()[0], BucketOf(2017239379, 16));
  EXPECT_TRUE(out.IsNull(3));
  ASSERT_TRUE(ApplyTransform(Transform::Truncate(10), T(IcebergTypeId::kInt), ints, &out).ok());
  EXPECT_EQ(out.data<int32_t>()[0], 30);
  EXPECT_EQ(out.data<int32_t>()[1], -10);
  EXPECT_EQ(out.data<int32_t>()[2], 0);

  Vector tiny(LogicalType::TinyInt(), 2);
  tiny.data<int8_t>()[0] = -128;
  tiny.data<int8_t>()[1] = 127;
  ASSERT_TRUE(ApplyTransform(Transform::Truncate(10), T(IcebergTypeId::kInt), tiny, &out).ok());
  EXPECT_EQ(out.type().id(), TypeId::kInteger);
  EXPECT_EQ(out.data<int32_t>()[0], -130);
  EXPECT_EQ(out.data<int32_t>()[1], 120);
  Vector times(LogicalType::Time(0), 1);
  times.data<int32_t>()[0] = 81068000;  // 22:31:08 in ms; hashed as micros
  ASSERT_TRUE(ApplyTransform(Transform::Bucket(1 << 30), T(IcebergTypeId::kTime), times, &out).ok());
  EXPECT_EQ(out.data<int32_t>()[0], BucketOf(-662762989, 1 << 30));

  Vector strings(LogicalType::String(), 3);
  strings.SetString(0, "iceberg");
  strings.SetString(1, "h\xC3\xA9llo");
  strings.SetString(2, "ab");
  ASSERT_TRUE(ApplyTransform(Transform::Truncate(3), T(IcebergTypeId::kString), strings, &out).ok());
  EXPECT_EQ(out.GetString(0), "ice");
  EXPECT_EQ(out.GetString(1), "h\xC3\xA9l");  // code points, not bytes
  EXPECT_EQ(out.GetString(2), "ab");
  ASSERT_TRUE(ApplyTransform(Transform::Bucket(100), T(IcebergTypeId::kString), strings, &out).ok());
  EXPECT_EQ(out.data<int32_t>()[0], BucketOf(1210000089, 100));

  Vector decimals(LogicalType::Decimal(9, 2), 2);
  decimals.data<__int128>()[0] = 1065;  // 10.65
  decimals.data<__int128>()[1] = -1;
  ASSERT_TRUE(ApplyTransform(Transform::Truncate(50), IcebergType::Decimal(9, 2), decimals, &out).ok());
  EXPECT_EQ(static_cast<int64_t>(out.data<__int128>()[0]), 1050);
  EXPECT_EQ(static_cast<int64_t>(out.data<__int128>()[1]), -50);
  ASSERT_TRUE(ApplyTransform(Transform::Bucket(1 << 30), IcebergType::Decimal(9, 2), decimals, &out).ok());
  decimals.data<__int128>()[0] = 1420;
  ASSERT_TRUE(ApplyTransform(Transform::Bucket(1 << 30), IcebergType::Decimal(9, 2), decimals, &out).ok());
  EXPECT_EQ(out.data<int32_t>()[0], BucketOf(-500754589, 1 << 30));
}

TEST(IcebergTransformsTest, TimeTransforms) {
  // 2026-08-15 05:00:00 and one microsecond before the epoch.
  Vector ts(LogicalType::Timestamp(6), 2);
  ts.data<int64_t>()[0] = 1786770000000000LL;
  ts.data<int64_t>()[1] = -1;
  Vector out;
  ASSERT_TRUE(ApplyTransform(Transform::Year(), T(IcebergTypeId::kTimestamp), ts, &out).ok());
  EXPECT_EQ(out.data<int32_t>()[0], 56);
  EXPECT_EQ(out.data<int32_t>()[1], -1);
  ASSERT_TRUE(ApplyTransform(Transform::Month(), T(IcebergTypeId::kTimestamp), ts, &out).ok());
  EXPECT_EQ(out.data<int32_t>()[0], 56 * 12 + 7);
  EXPECT_EQ(out.data<int32_t>()[1], -1);
  ASSERT_TRUE(ApplyTransform(Transform::Day(), T(IcebergTypeId::kTimestamp), ts, &out).ok());
  EXPECT_EQ(out.type().id(), TypeId::kDate);
  EXPECT_EQ(out.data<int32_t>()[0], 20680);
  EXPECT_EQ(out.data<int32_t>()[1], -1);
  ASSERT_TRUE(ApplyTransform(Transform::Hour(), T(IcebergTypeId::kTimestamp), ts, &out).ok());
  EXPECT_EQ(out.data<int32_t>()[0], 20680 * 24 + 5);
  EXPECT_EQ(out.data<int32_t>()[1], -1);
  EXPECT_EQ(PartitionValueHumanString(Transform::Hour(), IcebergLiteral::Int(20680 * 24 + 5)), "2026-08-15-05");
  EXPECT_EQ(PartitionValueHumanString(Transform::Month(), IcebergLiteral::Int(56 * 12 + 7)), "2026-08");
  EXPECT_EQ(PartitionValueHumanString(Transform::Year(), IcebergLiteral::Int(56)), "2026");
  EXPECT_EQ(PartitionValueHumanString(Transform::Month(), IcebergLiteral::Int(-1)), "1969-12");

  Vector dates(LogicalType::Date(), 1);
  dates.data<int32_t>()[0] = 20680;
  EXPECT_FALSE(ApplyTransform(Transform::Hour(), T(IcebergTypeId::kDate), dates, &out).ok());
  ASSERT_TRUE(ApplyTransform(Transform::Month(), T(IcebergTypeId::kDate), dates, &out).ok());
  EXPECT_EQ(out.data<int32_t>()[0], 56 * 12 + 7);
  Vector doubles(LogicalType::Double(), 1);
  auto refused = ApplyTransform(Transform::Bucket(4), T(IcebergTypeId::kDouble), doubles, &out);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("bucket[4] cannot be applied to a column of type double"), std::string::npos);
}

TEST(IcebergTransformsTest, PartitionPathsAsJavaWritesThem) {
  Schema schema;
  schema.Add("business_date", LogicalType::Date());
  schema.Add("ts", LogicalType::TimestampLtz(3));
  schema.Add("store id", LogicalType::String());
  auto iceberg = ToIcebergSchema(schema);
  ASSERT_TRUE(iceberg.ok());
  auto spec = BuildPartitionSpec(*iceberg, {{"business_date", Transform::Identity(), ""},
                                            {"ts", Transform::Day(), ""},
                                            {"store id", Transform::Identity(), ""},
                                            {"ts", Transform::Hour(), ""}});
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  std::string path = PartitionPath(*spec, {IcebergLiteral::Date(20680), IcebergLiteral::Date(20680),
                                           IcebergLiteral::String("SG/42 a"), std::nullopt});
  EXPECT_EQ(path, "business_date=2026-08-15/ts_day=2026-08-15/store+id=SG%2F42+a/ts_hour=null");

  Vector col(LogicalType::TimestampLtz(3), 1);
  col.data<int64_t>()[0] = 1786770000000000LL;
  auto lit = LiteralFromVector(col, 0, IcebergType::Primitive(IcebergTypeId::kTimestampTz));
  ASSERT_TRUE(lit.ok());
  EXPECT_EQ((*lit)->ToHumanString(), "2026-08-15T05:00Z");
  EXPECT_FALSE(BuildPartitionSpec(*iceberg, {{"nope", Transform::Identity(), ""}}).ok());
  auto clash = BuildPartitionSpec(*iceberg, {{"ts", Transform::Day(), "business_date"}});
  ASSERT_FALSE(clash.ok());
  EXPECT_EQ(clash.status().message(), "Cannot create partition from name that exists in schema: business_date");
  auto twice = BuildPartitionSpec(*iceberg, {{"ts", Transform::Day(), ""}, {"ts", Transform::Day(), "d2"}});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("partitioned by day twice"), std::string::npos);
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(IcebergPartitionRouterTest, RoutesRowsOfChunksToPartitions) {
  Schema schema;
  schema.Add("store", LogicalType::String());
  schema.Add("ts", LogicalType::Timestamp(3));
  schema.Add("qty", LogicalType::Integer());
  auto iceberg = ToIcebergSchema(schema);
  ASSERT_TRUE(iceberg.ok());
  auto spec = BuildPartitionSpec(*iceberg, {{"ts", Transform::Day(), ""}, {"store", Transform::Identity(), ""}});
  ASSERT_TRUE(spec.ok());
  auto router = PartitionRouter::ForSchema(*spec, *iceberg, schema);
  ASSERT_TRUE(router.ok()) << router.status().ToString();

  auto chunk_of = [&](std::vector<std::pair<const char*, int64_t>> rows) {
    Chunk chunk(schema, rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].first == nullptr) {
        chunk.column(0).SetNull(i, true);
      } else {
        chunk.column(0).SetString(i, rows[i].first);
      }
      chunk.column(1).data<int64_t>()[i] = rows[i].second;
    }
    return chunk;
  };
  const int64_t day = 86400000000LL;
  std::vector<uint32_t> parts;
  ASSERT_TRUE(router->Route(chunk_of({{"a", 20680 * day}, {"b", 20680 * day + 5}, {"a", 20680 * day + 7},
                                      {nullptr, 20681 * day}}),
                            &parts)
                  .ok());
  EXPECT_EQ(parts, (std::vector<uint32_t>{0, 1, 0, 2}));
  ASSERT_TRUE(router->Route(chunk_of({{"b", 20680 * day}, {"a", 20681 * day}}), &parts).ok());
  EXPECT_EQ(parts, (std::vector<uint32_t>{1, 3}));
  ASSERT_EQ(router->num_partitions(), 4u);
  EXPECT_EQ(router->partition(0).path, "ts_day=2026-08-15/store=a");
  EXPECT_EQ(router->partition(2).path, "ts_day=2026-08-16/store=null");
  EXPECT_EQ(router->partition(3).values[0]->type().id(), IcebergTypeId::kDate);
  EXPECT_EQ(router->partition(3).values[1]->bytes(), "a");
  EXPECT_FALSE(router->partition(2).values[1].has_value());
}

}  // namespace
}  // namespace sluice
