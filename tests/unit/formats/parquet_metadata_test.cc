#include <gtest/gtest.h>

#include "formats/parquet/parquet_metadata.h"

namespace sluice::parquet {
namespace {

FileMetaData SampleFooter() {
  FileMetaData md;
  md.version = 2;
  SchemaElement root;
  root.name = "table";
  root.num_children = 2;
  SchemaElement a;
  a.name = "a";
  a.type = Type::INT64;
  a.repetition_type = FieldRepetitionType::OPTIONAL;
  a.field_id = 1;
  a.logical_type = LogicalTypeAnnotation::Timestamp(true, TimeUnit::MICROS);
  a.converted_type = ConvertedType::TIMESTAMP_MICROS;
  SchemaElement b;
  b.name = "b";
  b.type = Type::FIXED_LEN_BYTE_ARRAY;
  b.type_length = 16;
  b.repetition_type = FieldRepetitionType::REQUIRED;
  b.logical_type = LogicalTypeAnnotation::Decimal(38, 10);
  b.converted_type = ConvertedType::DECIMAL;
  b.precision = 38;
  b.scale = 10;
  b.field_id = 2;
  md.schema = {root, a, b};
  md.num_rows = 1000;
  RowGroup g;
  g.num_rows = 1000;
  g.total_byte_size = 12345;
  g.file_offset = 4;
  g.total_compressed_size = 999;
  g.ordinal = 0;
  for (int i = 0; i < 2; ++i) {
    ColumnChunk c;
    c.file_offset = 4 + i * 100;
    ColumnMetaData m;
    m.type = i == 0 ? Type::INT64 : Type::FIXED_LEN_BYTE_ARRAY;
    m.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY};
    m.path_in_schema = {i == 0 ? "a" : "b"};
    m.codec = CompressionCodec::ZSTD;
    m.num_values = 1000;
    m.total_uncompressed_size = 5000;
    m.total_compressed_size = 100;
    m.data_page_offset = 4 + i * 100 + 20;
    m.dictionary_page_offset = 4 + i * 100;
    Statistics st;
    st.min_value = std::string("\x01\x00", 2);
    st.max_value = "zz";
    st.null_count = 3;
    m.statistics = st;
    c.meta_data = m;
    g.columns.push_back(c);
  }
  md.row_groups = {g};
  md.key_value_metadata = {{"iceberg.schema", std::string("{}")}, {"k", std::nullopt}};
  md.created_by = "sluice version 0.1.0";
  md.column_orders = {true, true};
  return md;
}

TEST(ParquetMetadataTest, FileMetaDataRoundTrips) {
  FileMetaData md = SampleFooter();
  std::string bytes;
  Serialize(md, &bytes);
  auto parsed = ParseFileMetaData(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, md);
}

TEST(ParquetMetadataTest, PageHeadersRoundTrip) {
  PageHeader h;
  h.type = PageType::DATA_PAGE;
  h.uncompressed_page_size = 100;
  h.compressed_page_size = 50;
  DataPageHeader d;
  d.num_values = 10;
  d.encoding = Encoding::RLE_DICTIONARY;
  Statistics st;
  st.null_count = 1;
  d.statistics = st;
  h.data_page_header = d;
  std::string bytes;
  Serialize(h, &bytes);
  bytes += "page payload";
  ThriftReader r(bytes);
  PageHeader parsed;
  ASSERT_TRUE(Parse(&r, &parsed).ok());
  EXPECT_EQ(parsed, h);
  EXPECT_EQ(bytes.substr(r.position()), "page payload");

  PageHeader dict;
  dict.type = PageType::DICTIONARY_PAGE;
  dict.dictionary_page_header = DictionaryPageHeader{.num_values = 3, .encoding = Encoding::PLAIN, .is_sorted = false};
  PageHeader v2;
  v2.type = PageType::DATA_PAGE_V2;
  v2.data_page_header_v2 = DataPageHeaderV2{.num_values = 5, .num_nulls = 1, .num_rows = 4,
                                            .encoding = Encoding::PLAIN, .definition_levels_byte_length = 3,
                                            .repetition_levels_byte_length = 2, .is_compressed = false,
                                            .statistics = std::nullopt};
  for (const PageHeader& p : {dict, v2}) {
    std::string b;
    Serialize(p, &b);
    ThriftReader rr(b);
    PageHeader q;
    ASSERT_TRUE(Parse(&rr, &q).ok());
    EXPECT_EQ(q, p);
  }
}

TEST(ParquetMetadataTest, UnknownFieldsAreSkipped) {
  // A SchemaElement with an unknown field 30 (a list of structs) and an unknown LogicalType member.
  std::string bytes;
  ThriftWriter w(&bytes);
  w.BeginStruct();
  w.FieldBinary(4, "x");
  w.FieldStructBegin(10);
  w.FieldStructBegin(15);  // FLOAT16, unknown to Sluice
  w.EndStruct();
  w.EndStruct();
  w.FieldListBegin(30, ThriftType::kStruct, 1);
  w.BeginStruct();
  w.FieldI32(1, 5);
  w.EndStruct();
  w.FieldI32(31, 7);
  w.EndStruct();
  ThriftReader r(bytes);
  SchemaElement e;
  ASSERT_TRUE(Parse(&r, &e).ok());
  EXPECT_EQ(e.name, "x");
  EXPECT_EQ(e.logical_type.kind, LogicalTypeAnnotation::Kind::NONE);
}

TEST(ParquetMetadataTest, MissingRequiredFieldsAndTruncationFail) {
  std::string bytes;
  Serialize(SampleFooter(), &bytes);
  for (size_t cut = 0; cut < bytes.size(); cut += 7) {
    auto parsed = ParseFileMetaData(std::string_view(bytes).substr(0, cut));
    EXPECT_FALSE(parsed.ok()) << cut;
  }
  std::string empty_struct(1, '\0');
  auto parsed = ParseFileMetaData(empty_struct);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("FileMetaData lacks its required field 'version'"), std::string::npos)
      << parsed.status().message();
}

}  // namespace
}  // namespace sluice::parquet
