// The Parquet reader on files built here byte by byte (no pyarrow needed): the legacy list layouts
// pyarrow cannot write (2-level lists, parquet-mr's `array`, Hive's `bag`, bare repeated fields),
// the value decoders on hand-made encodings, and malformed files (every byte of a small file
// corrupted in turn must give a Status or good rows, never a crash).
#include <gtest/gtest.h>

#include <cstring>

#include "formats/parquet/parquet_metadata.h"
#include "formats/parquet/parquet_reader.h"
#include "formats/parquet/rle_bitpacked.h"
#include "formats/parquet/value_decoders.h"
#include "unit/formats/parquet_read_test_util.h"

namespace sluice::parquet {
namespace {

using FRT = FieldRepetitionType;

class StringFile : public RandomAccessFile {
 public:
  explicit StringFile(std::string bytes) : bytes_(std::move(bytes)) {}
  const std::string& location() const override { return location_; }
  uint64_t size() const override { return bytes_.size(); }
  Status ReadAt(uint64_t offset, size_t length, std::string* out) override {
    if (offset > bytes_.size() || length > bytes_.size() - offset) return Status::IOError("read past the end of mem.parquet");
    out->assign(bytes_.data() + offset, length);
    return Status::OK();
  }

 private:
  std::string bytes_;
  std::string location_ = "mem.parquet";
};

SchemaElement Group(std::string name, int children, std::optional<FRT> rep,
                    std::optional<ConvertedType> ct = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  e.repetition_type = rep;
  e.converted_type = ct;
  if (ct == ConvertedType::LIST) e.logical_type = LogicalTypeAnnotation::Of(LogicalTypeAnnotation::Kind::LIST);
  return e;
}

SchemaElement Leaf(std::string name, Type type, FRT rep) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = rep;
  return e;
}

// One leaf column's content: levels and PLAIN INT32 values (of the defined entries), or the PLAIN
// bytes of other types in `raw` (then `entries` gives the level count when there are no levels).
struct TestColumn {
  TestColumn(std::vector<int16_t> d, std::vector<int16_t> r, std::vector<int32_t> v, std::string raw_bytes = "",
             size_t n = 0, size_t split_at = 0)
      : def(std::move(d)), rep(std::move(r)), values(std::move(v)), raw(std::move(raw_bytes)), entries(n),
        split(split_at) {}
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  std::vector<int32_t> values;
  std::string raw;
  size_t entries = 0;
  size_t split = 0;
};

std::string PlainByteArray(const std::string& v) {
  uint32_t len = static_cast<uint32_t>(v.size());
  return std::string(reinterpret_cast<const char*>(&len), 4) + v;
}

std::string PlainInt64(int64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }

// A file of one row group holding each column in one data page v1 (PLAIN, uncompressed).
std::string BuildFile(const std::vector<SchemaElement>& elements, const std::vector<TestColumn>& cols, int64_t rows) {
  auto schema = ParquetSchema::FromElements(elements);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  std::string file = "PAR1";
  FileMetaData md;
  md.schema = elements;
  md.num_rows = rows;
  RowGroup rg;
  rg.num_rows = rows;
  for (size_t c = 0; c < cols.size(); ++c) {
    const ColumnDescriptor& d = schema->columns()[c];
    const TestColumn& col = cols[c];
    size_t n = std::max({col.def.size(), col.rep.size(), col.values.size(), col.entries});
    // INT32 columns with levels may be cut into two pages after entry `split` (rows may continue on
    // the second page).
    std::vector<std::pair<size_t, size_t>> pages = {{0, n}};
    if (col.split > 0) pages = {{0, col.split}, {col.split, n}};
    std::string chunk;
    size_t value = 0;
    for (auto [begin, end] : pages) {
      std::string page;
      if (!col.rep.empty()) EncodeLevelsV1(col.rep.data() + begin, end - begin, d.max_repetition_level, &page);
      if (!col.def.empty()) EncodeLevelsV1(col.def.data() + begin, end - begin, d.max_definition_level, &page);
      size_t values = col.values.size();
      if (col.split > 0) {
        values = 0;
        for (size_t i = begin; i < end; ++i) values += col.def[i] == d.max_definition_level;
      }
      page.append(reinterpret_cast<const char*>(col.values.data() + value), values * 4);
      value += values;
      page += col.raw;
      PageHeader h;
      h.type = PageType::DATA_PAGE;
      h.uncompressed_page_size = h.compressed_page_size = static_cast<int32_t>(page.size());
      h.data_page_header = DataPageHeader{};
      h.data_page_header->num_values = static_cast<int32_t>(end - begin);
      Serialize(h, &chunk);
      chunk += page;
    }
    ColumnChunk cc;
    cc.file_offset = static_cast<int64_t>(file.size());
    ColumnMetaData m;
    m.type = d.physical_type;
    m.encodings = {Encoding::PLAIN, Encoding::RLE};
    m.path_in_schema = d.path;
    m.num_values = static_cast<int64_t>(n);
    m.total_compressed_size = m.total_uncompressed_size = static_cast<int64_t>(chunk.size());
    m.data_page_offset = static_cast<int64_t>(file.size());
    cc.meta_data = m;
    rg.columns.push_back(cc);
    file += chunk;
  }
  md.row_groups.push_back(rg);
  std::string footer;
  Serialize(md, &footer);
  file += footer;
  uint32_t len = static_cast<uint32_t>(footer.size());
  file.append(reinterpret_cast<const char*>(&len), 4);
  file += "PAR1";
  return file;
}

struct Read {
  Status status;
  std::string schema;
  std::vector<std::string> rows;
};

Read ReadBytes(const std::string& bytes, size_t chunk_rows = 2) {
  Read r;
  StringFile f(bytes);
  auto reader = ParquetReader::Open(&f);
  if (!reader.ok()) {
    r.status = reader.status();
    return r;
  }
  r.schema = (*reader)->sluice_schema().ToString();
  Chunk chunk;
  while (true) {
    r.status = (*reader)->ReadNext(chunk_rows, &chunk);
    if (!r.status.ok() || chunk.size() == 0) break;
    for (size_t i = 0; i < chunk.size(); ++i) r.rows.push_back(testing::CanonRow(chunk, i));
  }
  return r;
}

// optional group a (LIST) { repeated int32 element; }: rows [1,2], [], null, [3].
std::string TwoLevelList() {
  return BuildFile({Group("schema", 1, std::nullopt), Group("a", 1, FRT::OPTIONAL, ConvertedType::LIST),
                    Leaf("element", Type::INT32, FRT::REPEATED)},
                   {{{2, 2, 1, 0, 2}, {0, 1, 0, 0, 0}, {1, 2, 3}}}, 4);
}

TEST(ParquetReadTest, TwoLevelList) {
  Read r = ReadBytes(TwoLevelList());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.schema, "(`a` ARRAY<INT NOT NULL>)");
  EXPECT_EQ(r.rows, (std::vector<std::string>{"[1,2]", "[]", "null", "[3]"}));
}

TEST(ParquetReadTest, RowsContinueOnTheNextPageV1) {
  // The two-level list of TwoLevelList with the page cut inside the first row ([1 | 2]) and, in a
  // second file, inside the last ([3, 4 | 5]).
  for (auto [split, def, rep, values, want] :
       {std::tuple<size_t, std::vector<int16_t>, std::vector<int16_t>, std::vector<int32_t>, std::vector<std::string>>{
            1, {2, 2, 1, 0, 2}, {0, 1, 0, 0, 0}, {1, 2, 3}, {"[1,2]", "[]", "null", "[3]"}},
        {4, {2, 1, 2, 2, 2}, {0, 0, 0, 1, 1}, {1, 3, 4, 5}, {"[1]", "[]", "[3,4,5]"}}}) {
    size_t rows = want.size();
    std::string f = BuildFile({Group("schema", 1, std::nullopt), Group("a", 1, FRT::OPTIONAL, ConvertedType::LIST),
                               Leaf("element", Type::INT32, FRT::REPEATED)},
                              {TestColumn(def, rep, values, "", 0, split)}, static_cast<int64_t>(rows));
    for (size_t chunk_rows : {size_t{1}, size_t{2}, size_t{100}}) {
      Read r = ReadBytes(f, chunk_rows);
      ASSERT_TRUE(r.status.ok()) << r.status.ToString();
      EXPECT_EQ(r.rows, want) << "split " << split << ", chunk " << chunk_rows;
    }
  }
}

TEST(ParquetReadTest, ParquetMrArrayGroupIsTheElement) {
  // optional group a (LIST) { repeated group array { optional int32 item; } }
  std::string f = BuildFile({Group("schema", 1, std::nullopt), Group("a", 1, FRT::OPTIONAL, ConvertedType::LIST),
                             Group("array", 1, FRT::REPEATED), Leaf("item", Type::INT32, FRT::OPTIONAL)},
                            {{{3, 2, 3, 0, 1}, {0, 1, 0, 0, 0}, {7, 8}}}, 4);
  Read r = ReadBytes(f);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.schema, "(`a` ARRAY<ROW<`item` INT> NOT NULL>)");
  EXPECT_EQ(r.rows, (std::vector<std::string>{"[(7),(null)]", "[(8)]", "null", "[]"}));
}

TEST(ParquetReadTest, HiveBagIsThreeLevel) {
  // optional group a (LIST) { repeated group bag { optional int32 array_element; } }
  std::string f = BuildFile({Group("schema", 1, std::nullopt), Group("a", 1, FRT::OPTIONAL, ConvertedType::LIST),
                             Group("bag", 1, FRT::REPEATED), Leaf("array_element", Type::INT32, FRT::OPTIONAL)},
                            {{{3, 2, 1}, {0, 1, 0}, {4}}}, 2);
  Read r = ReadBytes(f);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.schema, "(`a` ARRAY<INT>)");
  EXPECT_EQ(r.rows, (std::vector<std::string>{"[4,null]", "[]"}));
}

TEST(ParquetReadTest, BareRepeatedFields) {
  // repeated int32 nums; and repeated group pts { required int32 x; } next to a required id.
  std::string f =
      BuildFile({Group("schema", 3, std::nullopt), Leaf("id", Type::INT32, FRT::REQUIRED),
                 Leaf("nums", Type::INT32, FRT::REPEATED), Group("pts", 1, FRT::REPEATED),
                 Leaf("x", Type::INT32, FRT::REQUIRED)},
                {{{}, {}, {10, 11, 12}}, {{1, 1, 0, 1}, {0, 1, 0, 0}, {5, 6, 9}}, {{0, 1, 1, 1}, {0, 0, 1, 0}, {1, 2, 3}}},
                3);
  Read r = ReadBytes(f);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.schema, "(`id` INT NOT NULL, `nums` ARRAY<INT NOT NULL> NOT NULL, "
                      "`pts` ARRAY<ROW<`x` INT NOT NULL> NOT NULL> NOT NULL)");
  EXPECT_EQ(r.rows, (std::vector<std::string>{"10|[5,6]|[]", "11|[]|[(1),(2)]", "12|[9]|[(3)]"}));
}

TEST(ParquetReadTest, ByteArrayDecimalsAndNanosecondTimes) {
  SchemaElement dec = Leaf("d", Type::BYTE_ARRAY, FRT::OPTIONAL);
  dec.converted_type = ConvertedType::DECIMAL;
  dec.precision = 38;
  dec.scale = 3;
  SchemaElement t = Leaf("t", Type::INT64, FRT::REQUIRED);
  t.logical_type = LogicalTypeAnnotation::Time(false, TimeUnit::NANOS);
  // 256, -1, 0 (empty), a 17-byte sign-extended -2, null; times in nanoseconds.
  std::string decs = PlainByteArray(std::string("\x01\x00", 2)) + PlainByteArray("\xff") + PlainByteArray("") +
                     PlainByteArray(std::string(16, '\xff') + "\xfe");
  std::string times;
  for (int64_t ns : {int64_t{0}, int64_t{1999999}, int64_t{86399999999999}, int64_t{5000000}, int64_t{1}}) {
    times += PlainInt64(ns);
  }
  std::string f = BuildFile({Group("schema", 2, std::nullopt), dec, t},
                            {{{1, 1, 1, 1, 0}, {}, {}, decs}, {{}, {}, {}, times, 5}}, 5);
  Read r = ReadBytes(f);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.schema, "(`d` DECIMAL(38, 3), `t` TIME(9) NOT NULL)");
  EXPECT_EQ(r.rows, (std::vector<std::string>{"256d3|t0", "-1d3|t1", "0d3|t86399999", "-2d3|t5", "null|t0"}));
  // A 17-byte value that is not a sign extension does not fit 38 digits.
  std::string bad = BuildFile({Group("schema", 1, std::nullopt), dec},
                              {{{1}, {}, {}, PlainByteArray(std::string("\x01", 1) + std::string(16, '\0'))}}, 1);
  Read rb = ReadBytes(bad);
  ASSERT_FALSE(rb.status.ok());
  EXPECT_NE(rb.status.message().find("column 'd'"), std::string::npos) << rb.status.ToString();
}

TEST(ParquetReadTest, NoColumnsStillCountsRows) {
  StringFile f(TwoLevelList());
  auto reader = ParquetReader::Open(&f);
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE((*reader)->Select(Schema(), {}).ok());
  Chunk chunk;
  ASSERT_TRUE((*reader)->ReadNext(3, &chunk).ok());
  EXPECT_EQ(chunk.size(), 3u);
  ASSERT_TRUE((*reader)->ReadNext(3, &chunk).ok());
  EXPECT_EQ(chunk.size(), 1u);
  ASSERT_TRUE((*reader)->ReadNext(3, &chunk).ok());
  EXPECT_EQ(chunk.size(), 0u);
}

TEST(ParquetReadTest, MalformedFilesAreErrorsNamingTheFile) {
  std::string good = TwoLevelList();
  for (const std::string& bad : {std::string("PAR1"), good.substr(0, good.size() - 1), "XXXX" + good.substr(4),
                                  good.substr(0, good.size() - 8) + std::string("\xff\xff\xff\x7f", 4) + "PAR1"}) {
    Read r = ReadBytes(bad);
    ASSERT_FALSE(r.status.ok());
    EXPECT_NE(r.status.message().find("mem.parquet"), std::string::npos) << r.status.ToString();
  }
}

TEST(ParquetReadTest, CorruptingAnyByteNeverCrashes) {
  for (const std::string& good : {TwoLevelList(), BuildFile({Group("schema", 1, std::nullopt),
                                                             Leaf("v", Type::INT32, FRT::OPTIONAL)},
                                                            {{{1, 0, 1, 1}, {}, {1, 2, 3}}}, 4)}) {
    for (size_t i = 0; i < good.size(); ++i) {
      for (uint8_t x : {0x01, 0x80, 0xff, 0x3c}) {
        std::string bad = good;
        bad[i] = static_cast<char>(bad[i] ^ x);
        Read r = ReadBytes(bad, 3);
        if (!r.status.ok()) {
          EXPECT_FALSE(r.status.message().empty());
        }
      }
    }
  }
}

TEST(ParquetReadTest, PageErrorsNameColumnRowGroupAndPage) {
  // A definition level beyond the maximum: rewrite the def levels' RLE run value.
  std::string bad = BuildFile({Group("schema", 1, std::nullopt), Leaf("v", Type::INT32, FRT::OPTIONAL)},
                              {{{1, 1, 1, 1, 1, 1, 1, 1, 1}, {}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}}, 9);
  // The levels are one RLE run (header 9<<1, value 1) after the 4-byte length; make the value 3.
  size_t at = bad.find(std::string("\x02\x00\x00\x00\x12\x01", 6));
  ASSERT_NE(at, std::string::npos);
  bad[at + 5] = 3;
  Read r = ReadBytes(bad);
  ASSERT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message().find("column 'v', row group 0, page 0"), std::string::npos) << r.status.ToString();
  EXPECT_NE(r.status.message().find("exceeds the column's maximum"), std::string::npos) << r.status.ToString();
}

// ---- value decoders on hand-made bytes ----

TEST(ParquetValueDecodersTest, DeltaBinaryPacked) {
  // The spec's example: 1..5 as deltas of 1: block 128, 4 miniblocks, 5 values, first 1 (zigzag 2);
  // min delta 1 (zigzag 2), bit widths 0.
  const uint8_t bytes[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
  DeltaBinaryPackedDecoder d;
  ASSERT_TRUE(d.Init(bytes, sizeof bytes).ok());
  int32_t out[5];
  ASSERT_TRUE(d.DecodeInt32(out, 5).ok());
  EXPECT_EQ(std::vector<int32_t>(out, out + 5), (std::vector<int32_t>{1, 2, 3, 4, 5}));
  EXPECT_FALSE(d.DecodeInt32(out, 1).ok());
  // A truncated header is an error, not a read past the end.
  DeltaBinaryPackedDecoder t;
  EXPECT_FALSE(t.Init(bytes, 3).ok());
}

TEST(ParquetValueDecodersTest, DeltaLengthAndDeltaByteArray) {
  // Lengths 3, 3 (first 3 = zigzag 6; deltas 0), then "abcabd".
  std::string lengths = {'\x80', '\x01', '\x04', '\x02', '\x06', '\x00', '\x00', '\x00', '\x00', '\x00'};
  DeltaLengthByteArrayDecoder dl;
  std::string data = lengths + "abcabd";
  ASSERT_TRUE(dl.Init(reinterpret_cast<const uint8_t*>(data.data()), data.size(), 2).ok());
  std::string_view v[2];
  ASSERT_TRUE(dl.DecodeByteArrays(v, 2).ok());
  EXPECT_EQ(v[0], "abc");
  EXPECT_EQ(v[1], "abd");
  // DELTA_BYTE_ARRAY: prefixes 0, 2 (zigzag 0, delta 2 -> min delta 2, width 0); suffixes "abc", "d".
  std::string prefixes = {'\x80', '\x01', '\x04', '\x02', '\x00', '\x04', '\x00', '\x00', '\x00', '\x00'};
  std::string suffix_lengths = {'\x80', '\x01', '\x04', '\x02', '\x06', '\x03', '\x00', '\x00', '\x00', '\x00'};
  std::string dba = prefixes + suffix_lengths + "abcd";
  DeltaByteArrayDecoder db;
  ASSERT_TRUE(db.Init(reinterpret_cast<const uint8_t*>(dba.data()), dba.size(), 2).ok());
  ASSERT_TRUE(db.DecodeByteArrays(v, 2).ok());
  EXPECT_EQ(v[0], "abc");
  EXPECT_EQ(v[1], "abd");
  // More values than the page's levels allow.
  DeltaByteArrayDecoder too_many;
  EXPECT_FALSE(too_many.Init(reinterpret_cast<const uint8_t*>(dba.data()), dba.size(), 1).ok());
}

TEST(ParquetValueDecodersTest, PlainAndByteStreamSplit) {
  const uint8_t bools[] = {0b00000101, 0b1};
  PlainDecoder p(bools, sizeof bools);
  uint8_t b[9];
  ASSERT_TRUE(p.DecodeBooleans(b, 9).ok());
  EXPECT_EQ(std::vector<uint8_t>(b, b + 9), (std::vector<uint8_t>{1, 0, 1, 0, 0, 0, 0, 0, 1}));
  EXPECT_FALSE(p.DecodeBooleans(b, 8).ok());
  // Two int32 values 0x04030201 and 0x08070605, split into byte streams.
  const uint8_t split[] = {1, 5, 2, 6, 3, 7, 4, 8};
  ByteStreamSplitDecoder s;
  ASSERT_TRUE(s.Init(split, sizeof split, 4).ok());
  int32_t v[2];
  ASSERT_TRUE(s.DecodeFixedWidth(v, 2).ok());
  EXPECT_EQ(v[0], 0x04030201);
  EXPECT_EQ(v[1], 0x08070605);
  const uint8_t ba[] = {3, 0, 0, 0, 'a', 'b', 'c', 9, 0, 0, 0, 'x'};
  PlainDecoder pb(ba, sizeof ba);
  std::string_view sv[2];
  EXPECT_FALSE(pb.DecodeByteArrays(sv, 2).ok());  // the second value claims 9 bytes of 1
}

}  // namespace
}  // namespace sluice::parquet
