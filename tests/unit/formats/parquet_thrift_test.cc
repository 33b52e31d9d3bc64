#include <gtest/gtest.h>

#include <random>

#include "formats/parquet/thrift_compact.h"

namespace sluice::parquet {
namespace {

TEST(ParquetThriftTest, RoundTripsEveryKind) {
  std::string buf;
  ThriftWriter w(&buf);
  w.BeginStruct();
  w.FieldBool(1, true);
  w.FieldBool(2, false);
  w.FieldI8(3, -7);
  w.FieldI16(4, -300);
  w.FieldI32(5, INT32_MIN);
  w.FieldI64(20, INT64_MAX);  // delta 15
  w.FieldDouble(40, 2.5);     // delta > 15: long header
  w.FieldBinary(39, std::string("a\0b", 3));  // negative delta: long header
  w.FieldListBegin(41, ThriftType::kI32, 20);
  for (int i = 0; i < 20; ++i) w.ElementI32(i - 10);
  w.FieldStructBegin(42);
  w.FieldI64(1, -1);
  w.EndStruct();
  w.FieldListBegin(43, ThriftType::kBoolTrue, 2);
  w.ElementBool(true);
  w.ElementBool(false);
  w.FieldI32(44, 99);
  w.EndStruct();

  ThriftReader r(buf);
  ASSERT_TRUE(r.BeginStruct().ok());
  int16_t id;
  ThriftType t;
  bool b;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(id, 1);
  ASSERT_TRUE(r.ReadBool(t, &b).ok());
  EXPECT_TRUE(b);
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  ASSERT_TRUE(r.ReadBool(t, &b).ok());
  EXPECT_FALSE(b);
  int8_t i8;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  ASSERT_TRUE(r.ReadI8(t, &i8).ok());
  EXPECT_EQ(i8, -7);
  int16_t i16;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  ASSERT_TRUE(r.ReadI16(t, &i16).ok());
  EXPECT_EQ(i16, -300);
  int32_t i32;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  ASSERT_TRUE(r.ReadI32(t, &i32).ok());
  EXPECT_EQ(i32, INT32_MIN);
  int64_t i64;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(id, 20);
  ASSERT_TRUE(r.ReadI64(t, &i64).ok());
  EXPECT_EQ(i64, INT64_MAX);
  double d;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(id, 40);
  ASSERT_TRUE(r.ReadDouble(t, &d).ok());
  EXPECT_EQ(d, 2.5);
  std::string s;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(id, 39);
  ASSERT_TRUE(r.ReadBinary(t, &s).ok());
  EXPECT_EQ(s, std::string("a\0b", 3));
  ThriftType et;
  size_t n;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  ASSERT_TRUE(r.ReadListBegin(t, &et, &n).ok());
  EXPECT_EQ(n, 20u);
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(r.ReadElementI32(&i32).ok());
    EXPECT_EQ(i32, i - 10);
  }
  // Skip the struct and the bool list as unknown fields.
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(id, 42);
  ASSERT_TRUE(r.Skip(t).ok());
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(id, 43);
  ASSERT_TRUE(r.Skip(t).ok());
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(id, 44);  // the delta continues from the skipped fields
  ASSERT_TRUE(r.ReadI32(t, &i32).ok());
  EXPECT_EQ(i32, 99);
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  EXPECT_EQ(t, ThriftType::kStop);
  ASSERT_TRUE(r.EndStruct().ok());
  EXPECT_EQ(r.position(), buf.size());
}

TEST(ParquetThriftTest, MalformedInputFailsCleanly) {
  // A list claiming more elements than bytes.
  std::string buf = "\x19\xF5\xFF\xFF\xFF\x0F";
  ThriftReader r(buf);
  ASSERT_TRUE(r.BeginStruct().ok());
  int16_t id;
  ThriftType t;
  ASSERT_TRUE(r.ReadFieldHeader(&id, &t).ok());
  Status st = r.Skip(t);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("longer than the data"), std::string::npos) << st.message();

  // Deep nesting of structs is bounded.
  std::string deep(10000, '\x1C');  // field 1, type struct, over and over
  ThriftReader r2(deep);
  ASSERT_TRUE(r2.BeginStruct().ok());
  ASSERT_TRUE(r2.ReadFieldHeader(&id, &t).ok());
  st = r2.Skip(t);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("nested deeper"), std::string::npos) << st.message();

  // A truncated binary.
  std::string bin = "\x18\x10" "abc";
  ThriftReader r3(bin);
  ASSERT_TRUE(r3.BeginStruct().ok());
  ASSERT_TRUE(r3.ReadFieldHeader(&id, &t).ok());
  std::string s;
  EXPECT_FALSE(r3.ReadBinary(t, &s).ok());

  // Random garbage never crashes Skip.
  std::mt19937 rng(7);
  for (int iter = 0; iter < 2000; ++iter) {
    std::string junk(rng() % 64, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    ThriftReader rj(junk);
    rj.Skip(ThriftType::kStruct).IgnoreError();
  }
}

}  // namespace
}  // namespace sluice::parquet
