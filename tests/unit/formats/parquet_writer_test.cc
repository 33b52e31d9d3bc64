#include "formats/parquet/parquet_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "formats/parquet/level_builder.h"
#include "types/value.h"

namespace sluice::parquet {
namespace {

namespace fs = std::filesystem;
using LT = LogicalType;

std::string TempPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(::testing::TempDir()) / (std::string("sluice_pq_") + info->name());
  fs::create_directories(dir);
  return (dir / name).string();
}

Chunk MakeChunk(const Schema& schema, const std::vector<std::vector<Value>>& rows) {
  Chunk c(schema);
  for (const auto& r : rows) c.AppendValues(r, RowKind::kInsert);
  return c;
}

Value Arr(const LT& t, std::vector<Value> items) { return Value::List(t, std::move(items)); }

TEST(ParquetLevelBuilderTest, ListLevels) {
  Schema s;
  LT arr = LT::Array(LT::Integer());
  s.Add("a", arr);
  auto ps = ParquetSchema::FromSluice(s, {});
  ASSERT_TRUE(ps.ok());
  Chunk c = MakeChunk(s, {{Arr(arr, {Value::Integer(1), Value::Integer(2)})},
                          {Value::Null(arr)},
                          {Arr(arr, {})},
                          {Arr(arr, {Value::Null(LT::Integer()), Value::Integer(3)})}});
  LevelBuilder lb;
  LeafBatch b;
  ASSERT_TRUE(lb.Build(*ps, 0, c.column(0), &b).ok());
  EXPECT_EQ(b.def_levels, (std::vector<int16_t>{3, 3, 0, 1, 2, 3}));
  EXPECT_EQ(b.rep_levels, (std::vector<int16_t>{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(b.positions, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(b.values, &c.column(0).child(0));
}

TEST(ParquetLevelBuilderTest, MapAndStructLevels) {
  Schema s;
  LT map = LT::Map(LT::String(), LT::Integer());
  LT row = LT::Row({"x", "y"}, {LT::Integer().WithNullable(false), LT::Array(LT::String())});
  s.Add("m", map);
  s.Add("r", row);
  auto ps = ParquetSchema::FromSluice(s, {});
  ASSERT_TRUE(ps.ok());
  LT sa = LT::Array(LT::String());
  Chunk c = MakeChunk(
      s, {{Arr(map, {Value::String("a"), Value::Integer(1), Value::String("b"), Value::Null(LT::Integer())}),
           Arr(row, {Value::Integer(7), Arr(sa, {Value::String("p")})})},
          {Value::Null(map), Value::Null(row)},
          {Arr(map, {}), Arr(row, {Value::Integer(8), Value::Null(sa)})}});
  LevelBuilder lb;
  LeafBatch b;
  // m.key_value.key: map OPTIONAL (1), key_value REPEATED (2), key REQUIRED.
  ASSERT_TRUE(lb.Build(*ps, 0, c.column(0), &b).ok());
  EXPECT_EQ(b.def_levels, (std::vector<int16_t>{2, 2, 0, 1}));
  EXPECT_EQ(b.rep_levels, (std::vector<int16_t>{0, 1, 0, 0}));
  EXPECT_EQ(b.positions, (std::vector<uint32_t>{0, 1}));
  // m.key_value.value: OPTIONAL (3).
  ASSERT_TRUE(lb.Build(*ps, 1, c.column(0), &b).ok());
  EXPECT_EQ(b.def_levels, (std::vector<int16_t>{3, 2, 0, 1}));
  EXPECT_EQ(b.positions, (std::vector<uint32_t>{0}));
  // r.x: r OPTIONAL (1), x REQUIRED.
  ASSERT_TRUE(lb.Build(*ps, 2, c.column(1), &b).ok());
  EXPECT_EQ(b.def_levels, (std::vector<int16_t>{1, 0, 1}));
  EXPECT_TRUE(b.rep_levels.empty());
  EXPECT_EQ(b.positions, (std::vector<uint32_t>{0, 2}));
  // r.y.list.element: r (1), y (2), list (3), element (4).
  ASSERT_TRUE(lb.Build(*ps, 3, c.column(1), &b).ok());
  EXPECT_EQ(b.def_levels, (std::vector<int16_t>{4, 0, 1}));
  EXPECT_EQ(b.rep_levels, (std::vector<int16_t>{0, 0, 0}));
}

TEST(ParquetLevelBuilderTest, NullsInRequiredNodesAreRefused) {
  Schema s;
  s.Add("id", LT::BigInt().WithNullable(false));
  LT map = LT::Map(LT::String(), LT::Integer());
  s.Add("m", map);
  auto ps = ParquetSchema::FromSluice(s, {});
  ASSERT_TRUE(ps.ok());
  Chunk c(s);
  c.AppendValues({Value::Null(LT::BigInt()), Arr(map, {Value::Null(LT::String()), Value::Integer(1)})},
                 RowKind::kInsert);
  LevelBuilder lb;
  LeafBatch b;
  Status st = lb.Build(*ps, 0, c.column(0), &b);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("Parquet column 'id': NULL in 'id', which is NOT NULL"), std::string::npos)
      << st.message();
  st = lb.Build(*ps, 1, c.column(1), &b);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("'m.key_value.key'"), std::string::npos) << st.message();
}

struct Written {
  FileMetaData footer;
  ParquetFileMetrics metrics;
  std::string bytes;
};

Written WriteFile(const Schema& schema, const std::vector<Chunk>& chunks, ParquetWriterOptions options,
                  std::vector<FieldIdTree> ids = {}) {
  Written w;
  auto io = NewLocalFileIO();
  std::string path = TempPath("f.parquet");
  auto file = io->Create(path);
  EXPECT_TRUE(file.ok());
  auto writer = ParquetWriter::Open(file->get(), schema, ids, std::move(options));
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  uint64_t estimate = 0;
  for (const Chunk& c : chunks) {
    Status st = (*writer)->Write(c);
    EXPECT_TRUE(st.ok()) << st.ToString();
    estimate = (*writer)->EstimatedFileSize();
  }
  auto m = (*writer)->Close();
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_TRUE((*file)->Close().ok());
  w.metrics = *m;
  // The estimate before Close is near the final size (the footer and page headers aside).
  EXPECT_LE(estimate, m->file_size * 2);
  EXPECT_GE(estimate * 2 + 4096, m->file_size);
  w.bytes = *io->ReadAll(path);
  EXPECT_EQ(w.bytes.substr(0, 4), "PAR1");
  EXPECT_EQ(w.bytes.substr(w.bytes.size() - 4), "PAR1");
  uint32_t len;
  std::memcpy(&len, w.bytes.data() + w.bytes.size() - 8, 4);
  auto footer = ParseFileMetaData(std::string_view(w.bytes).substr(w.bytes.size() - 8 - len, len));
  EXPECT_TRUE(footer.ok()) << footer.status().ToString();
  w.footer = *footer;
  return w;
}

template <typename T>
std::string Plain(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

TEST(ParquetWriterTest, StatisticsAndMetrics) {
  Schema s;
  s.Add("i", LT::Integer());
  s.Add("d", LT::Double());
  s.Add("s", LT::String());
  s.Add("dec", LT::Decimal(20, 2));
  s.Add("t", LT::Time(3));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Chunk c = MakeChunk(s, {{Value::Integer(-5), Value::Double(nan), Value::String("b\xc3\xa9"),
                           Value::Decimal(20, 2, -300), Value::Int(LT::Time(3), 1000)},
                          {Value::Integer(7), Value::Double(0.0), Value::String("a"), Value::Decimal(20, 2, 5),
                           Value::Int(LT::Time(3), 5)},
                          {Value::Null(LT::Integer()), Value::Double(-2.5), Value::String("\xff"),
                           Value::Null(LT::Decimal(20, 2)), Value::Null(LT::Time(3))}});
  std::vector<FieldIdTree> ids = {{11, {}}, {12, {}}, {13, {}}, {14, {}}, {15, {}}};
  Written w = WriteFile(s, {c}, ParquetWriterOptions(), ids);
  ASSERT_EQ(w.footer.num_rows, 3);
  ASSERT_EQ(w.footer.row_groups.size(), 1u);
  EXPECT_EQ(w.footer.created_by, std::string(kCreatedBy));
  EXPECT_EQ(w.footer.schema[1].field_id, 11);
  const auto& cols = w.footer.row_groups[0].columns;
  EXPECT_EQ(cols[0].meta_data->statistics->min_value, Plain<int32_t>(-5));
  EXPECT_EQ(cols[0].meta_data->statistics->max_value, Plain<int32_t>(7));
  EXPECT_EQ(cols[0].meta_data->statistics->null_count, 1);
  // NaN ignored; a zero upper bound is +0.0.
  EXPECT_EQ(cols[1].meta_data->statistics->min_value, Plain<double>(-2.5));
  EXPECT_EQ(cols[1].meta_data->statistics->max_value, Plain<double>(0.0));
  // Unsigned bytes: "\xff" sorts last.
  EXPECT_EQ(cols[2].meta_data->statistics->min_value, "a");
  EXPECT_EQ(cols[2].meta_data->statistics->max_value, "\xff");
  // DECIMAL(20, 2) is a 9-byte big-endian two's complement.
  EXPECT_EQ(cols[3].meta_data->statistics->min_value, std::string("\xff\xff\xff\xff\xff\xff\xff\xfe\xd4", 9));
  EXPECT_EQ(cols[3].meta_data->statistics->max_value, std::string("\0\0\0\0\0\0\0\0\x05", 9));
  // TIME in microseconds.
  EXPECT_EQ(cols[4].meta_data->statistics->min_value, Plain<int64_t>(5000));

  const auto& m = w.metrics;
  EXPECT_EQ(m.row_count, 3);
  EXPECT_EQ(m.file_size, w.bytes.size());
  EXPECT_EQ(m.split_offsets, (std::vector<int64_t>{4}));
  ASSERT_EQ(m.columns.size(), 5u);
  EXPECT_EQ(m.columns[0].field_id, 11);
  EXPECT_EQ(m.columns[0].value_count, 3);
  EXPECT_EQ(m.columns[0].null_count, 1);
  EXPECT_FALSE(m.columns[0].nan_count.has_value());
  EXPECT_EQ(m.columns[1].nan_count, 1);
  EXPECT_EQ(m.columns[1].min, Plain<double>(-2.5));
  EXPECT_EQ(m.columns[2].max, "\xff");
  EXPECT_EQ(m.columns[3].physical_type, Type::FIXED_LEN_BYTE_ARRAY);
  EXPECT_EQ(m.columns[4].min, Plain<int64_t>(5000));
  EXPECT_EQ(m.columns[4].max, Plain<int64_t>(1000000));
  EXPECT_EQ(m.columns[0].compressed_size, cols[0].meta_data->total_compressed_size);
  // Iceberg's decimal bounds: the fewest big-endian bytes.
  EXPECT_EQ(IcebergBoundBytes(m.columns[3], *m.columns[3].min), std::string("\xfe\xd4", 2));
  EXPECT_EQ(IcebergBoundBytes(m.columns[3], *m.columns[3].max), std::string("\x05", 1));
  EXPECT_EQ(IcebergBoundBytes(m.columns[0], *m.columns[0].min), Plain<int32_t>(-5));
  ParquetColumnMetrics small;
  small.sluice_type = LT::Decimal(9, 2);
  small.physical_type = Type::INT32;
  EXPECT_EQ(IcebergBoundBytes(small, Plain<int32_t>(128)), std::string("\x00\x80", 2));
  EXPECT_EQ(IcebergBoundBytes(small, Plain<int32_t>(-128)), std::string("\x80", 1));
  EXPECT_EQ(IcebergBoundBytes(small, Plain<int32_t>(0)), std::string("\x00", 1));
}

// Reads the page headers of a column chunk.
std::vector<PageHeader> Pages(const std::string& file, const ColumnMetaData& md) {
  std::vector<PageHeader> pages;
  int64_t pos = md.dictionary_page_offset.value_or(md.data_page_offset);
  int64_t end = pos + md.total_compressed_size;
  while (pos < end) {
    ThriftReader r(std::string_view(file).substr(pos, end - pos));
    PageHeader h;
    EXPECT_TRUE(Parse(&r, &h).ok());
    pages.push_back(h);
    pos += static_cast<int64_t>(r.position()) + h.compressed_page_size;
  }
  EXPECT_EQ(pos, end);
  return pages;
}

TEST(ParquetWriterTest, PagesRowGroupsAndDictionaryFallback) {
  Schema s;
  s.Add("id", LT::BigInt().WithNullable(false));
  s.Add("cat", LT::String());
  std::vector<Chunk> chunks;
  for (int c = 0; c < 50; ++c) {
    Chunk chunk(s, 1000);
    for (int i = 0; i < 1000; ++i) {
      int64_t id = c * 1000 + i;
      chunk.column(0).data<int64_t>()[i] = id;
      chunk.column(1).SetString(i, id < 25000 ? "cat" + std::to_string(id % 7) : "v" + std::to_string(id));
    }
    chunks.push_back(std::move(chunk));
  }
  ParquetWriterOptions o;
  o.row_group_size_bytes = 48 << 10;
  o.dict_size_bytes = 16 << 10;
  Written w = WriteFile(s, chunks, o);
  ASSERT_GE(w.footer.row_groups.size(), 2u);
  int64_t rows = 0;
  for (size_t g = 0; g < w.footer.row_groups.size(); ++g) {
    const RowGroup& rg = w.footer.row_groups[g];
    EXPECT_EQ(w.metrics.split_offsets[g], rg.file_offset);
    rows += rg.num_rows;
    for (const ColumnChunk& cc : rg.columns) {
      int64_t values = 0;
      for (const PageHeader& p : Pages(w.bytes, *cc.meta_data)) {
        if (p.type == PageType::DATA_PAGE) {
          EXPECT_LE(p.data_page_header->num_values, 20000);
          values += p.data_page_header->num_values;
        }
      }
      EXPECT_EQ(values, cc.meta_data->num_values);
      EXPECT_EQ(values, rg.num_rows);
    }
  }
  EXPECT_EQ(rows, 50000);
  // The first row group's 'cat' is dictionary-encoded; unique ids never pay for a dictionary.
  const auto& first = w.footer.row_groups[0].columns;
  EXPECT_TRUE(first[1].meta_data->dictionary_page_offset.has_value());
  EXPECT_FALSE(first[0].meta_data->dictionary_page_offset.has_value());
  // Where unique strings start, the dictionary outgrows 16 KB: dictionary and PLAIN pages mixed.
  bool mixed = false;
  for (const RowGroup& rg : w.footer.row_groups) {
    const auto& enc = rg.columns[1].meta_data->encodings;
    bool dict = std::find(enc.begin(), enc.end(), Encoding::RLE_DICTIONARY) != enc.end();
    bool plain_pages = false;
    for (const PageHeader& p : Pages(w.bytes, *rg.columns[1].meta_data)) {
      plain_pages |= p.type == PageType::DATA_PAGE && p.data_page_header->encoding == Encoding::PLAIN;
    }
    mixed |= dict && plain_pages;
  }
  EXPECT_TRUE(mixed);
}

TEST(ParquetWriterTest, DictionaryHashesOnlyTheStringsBytes) {
  // Equal 20-byte strings followed by different bytes: one dictionary entry (the hash once read
  // past the end of strings longer than 16 bytes).
  static const char kA[] = "0123456789abcdefghijXXXXXXXX";
  static const char kB[] = "0123456789abcdefghijYYYYYYYY";
  Schema s;
  s.Add("s", LT::String());
  Chunk c(s, 4);
  // Another value between them, so they are looked up rather than taken as a run.
  for (int i = 0; i < 4; ++i) c.column(0).SetStringView(i, i % 2 ? "x" : std::string_view(i % 4 ? kA : kB, 20));
  Written w = WriteFile(s, {c}, ParquetWriterOptions());
  auto pages = Pages(w.bytes, *w.footer.row_groups[0].columns[0].meta_data);
  ASSERT_EQ(pages[0].type, PageType::DICTIONARY_PAGE);
  EXPECT_EQ(pages[0].dictionary_page_header->num_values, 2);
}

TEST(ParquetWriterTest, UserErrorsNameTheColumn) {
  Schema s;
  s.Add("code", LT::Binary(2));
  Chunk c = MakeChunk(s, {{Value::Typed(LT::Binary(2), "abc")}});
  auto io = NewLocalFileIO();
  auto file = io->Create(TempPath("bad.parquet"));
  ASSERT_TRUE(file.ok());
  auto writer = ParquetWriter::Open(file->get(), s, {}, ParquetWriterOptions());
  ASSERT_TRUE(writer.ok());
  Status st = (*writer)->Write(c);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("Parquet column 'code': a value of 3 bytes does not fit BINARY(2)"), std::string::npos)
      << st.message();

  Schema iv;
  iv.Add("span", LT::IntervalDayTime());
  auto bad = ParquetWriter::Open(file->get(), iv, {}, ParquetWriterOptions());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("column 'span'"), std::string::npos);
}

TEST(ParquetWriterTest, OptionsFromTableProperties) {
  auto o = ParquetWriterOptions::FromTableProperties({{"write.parquet.compression-codec", "snappy"},
                                                      {"write.parquet.row-group-size-bytes", "1048576"},
                                                      {"write.parquet.page-size-bytes", "65536"},
                                                      {"write.parquet.dict-size-bytes", "4096"},
                                                      {"write.format.default", "parquet"}});
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->codec, CompressionCodec::SNAPPY);
  EXPECT_EQ(o->row_group_size_bytes, 1048576);
  EXPECT_EQ(o->page_size_bytes, 65536);
  EXPECT_EQ(o->dict_size_bytes, 4096);
  auto bad = ParquetWriterOptions::FromTableProperties({{"write.parquet.compression-codec", "brotli"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'write.parquet.compression-codec'"), std::string::npos);
  bad = ParquetWriterOptions::FromTableProperties({{"write.parquet.page-size-bytes", "0"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'write.parquet.page-size-bytes' must be a positive integer"),
            std::string::npos);
  bad = ParquetWriterOptions::FromTableProperties(
      {{"write.parquet.compression-codec", "zstd"}, {"write.parquet.compression-level", "99"}});
  EXPECT_FALSE(bad.ok());
}

}  // namespace
}  // namespace sluice::parquet
