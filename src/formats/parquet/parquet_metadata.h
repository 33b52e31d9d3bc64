// Parquet's Thrift metadata (parquet-format's parquet.thrift) as plain structs: the file footer
// (FileMetaData and everything under it) and page headers, each with Serialize (compact protocol)
// and Parse.
//
// Only the fields Sluice reads or writes are kept; Parse skips every other field (and unknown
// LogicalType members leave the union empty), so files from newer writers still parse. Parse
// checks that required fields are present and fails with a Status naming the struct and field
// otherwise. Optional fields are std::optional; field names follow parquet.thrift.
//
// Threading: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "formats/parquet/thrift_compact.h"

namespace sluice::parquet {

enum class Type : int32_t {
  BOOLEAN = 0,
  INT32 = 1,
  INT64 = 2,
  INT96 = 3,
  FLOAT = 4,
  DOUBLE = 5,
  BYTE_ARRAY = 6,
  FIXED_LEN_BYTE_ARRAY = 7,
};

enum class ConvertedType : int32_t {
  UTF8 = 0,
  MAP = 1,
  MAP_KEY_VALUE = 2,
  LIST = 3,
  ENUM = 4,
  DECIMAL = 5,
  DATE = 6,
  TIME_MILLIS = 7,
  TIME_MICROS = 8,
  TIMESTAMP_MILLIS = 9,
  TIMESTAMP_MICROS = 10,
  UINT_8 = 11,
  UINT_16 = 12,
  UINT_32 = 13,
  UINT_64 = 14,
  INT_8 = 15,
  INT_16 = 16,
  INT_32 = 17,
  INT_64 = 18,
  JSON = 19,
  BSON = 20,
  INTERVAL = 21,
};

enum class FieldRepetitionType : int32_t { REQUIRED = 0, OPTIONAL = 1, REPEATED = 2 };

enum class Encoding : int32_t {
  PLAIN = 0,
  PLAIN_DICTIONARY = 2,
  RLE = 3,
  BIT_PACKED = 4,
  DELTA_BINARY_PACKED = 5,
  DELTA_LENGTH_BYTE_ARRAY = 6,
  DELTA_BYTE_ARRAY = 7,
  RLE_DICTIONARY = 8,
  BYTE_STREAM_SPLIT = 9,
};

enum class CompressionCodec : int32_t {
  UNCOMPRESSED = 0,
  SNAPPY = 1,
  GZIP = 2,
  LZO = 3,
  BROTLI = 4,
  LZ4 = 5,
  ZSTD = 6,
  LZ4_RAW = 7,
};

enum class PageType : int32_t { DATA_PAGE = 0, INDEX_PAGE = 1, DICTIONARY_PAGE = 2, DATA_PAGE_V2 = 3 };

enum class TimeUnit : int32_t { MILLIS = 1, MICROS = 2, NANOS = 3 };

// parquet.thrift's LogicalType union; kind NONE when absent or a member Sluice does not know.
struct LogicalTypeAnnotation {
  enum class Kind : int32_t {
    NONE = 0,
    STRING = 1,
    MAP = 2,
    LIST = 3,
    ENUM = 4,
    DECIMAL = 5,
    DATE = 6,
    TIME = 7,
    TIMESTAMP = 8,
    INTEGER = 10,
    UNKNOWN = 11,  // the NullType member: always-null columns
    JSON = 12,
    BSON = 13,
    UUID = 14,
  };
  Kind kind = Kind::NONE;
  int32_t decimal_scale = 0;      // DECIMAL
  int32_t decimal_precision = 0;  // DECIMAL
  bool is_adjusted_to_utc = false;  // TIME, TIMESTAMP
  TimeUnit unit = TimeUnit::MICROS;  // TIME, TIMESTAMP
  int8_t bit_width = 0;              // INTEGER
  bool is_signed = true;             // INTEGER

  bool operator==(const LogicalTypeAnnotation&) const = default;
  static LogicalTypeAnnotation Of(Kind kind) { return LogicalTypeAnnotation{.kind = kind}; }
  static LogicalTypeAnnotation Decimal(int32_t precision, int32_t scale);
  static LogicalTypeAnnotation Time(bool adjusted, TimeUnit unit);
  static LogicalTypeAnnotation Timestamp(bool adjusted, TimeUnit unit);
  static LogicalTypeAnnotation Integer(int8_t bit_width, bool is_signed);
};

struct Statistics {
  std::optional<std::string> max;  // legacy (signed order only); field 1
  std::optional<std::string> min;  // legacy; field 2
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  bool operator==(const Statistics&) const = default;
};

struct SchemaElement {
  std::optional<Type> type;  // absent for groups
  std::optional<int32_t> type_length;
  std::optional<FieldRepetitionType> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  LogicalTypeAnnotation logical_type;
  bool operator==(const SchemaElement&) const = default;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const KeyValue&) const = default;
};

struct ColumnMetaData {
  Type type = Type::BOOLEAN;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  CompressionCodec codec = CompressionCodec::UNCOMPRESSED;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  bool operator==(const ColumnMetaData&) const = default;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  bool operator==(const ColumnChunk&) const = default;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
  bool operator==(const RowGroup&) const = default;
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;  // depth-first, the root first
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  // One entry per leaf column when present; true means TYPE_ORDER (the only order defined), under
  // which min_value/max_value are valid.
  std::vector<bool> column_orders;
  bool operator==(const FileMetaData&) const = default;
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  Encoding definition_level_encoding = Encoding::RLE;
  Encoding repetition_level_encoding = Encoding::RLE;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::PLAIN;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeaderV2&) const = default;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  std::optional<bool> is_sorted;
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct PageHeader {
  PageType type = PageType::DATA_PAGE;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  bool operator==(const PageHeader&) const = default;
};

// Serialize appends the compact encoding of one struct to `out`.
void Serialize(const FileMetaData& v, std::string* out);
void Serialize(const PageHeader& v, std::string* out);
void Serialize(const Statistics& v, ThriftWriter* w);
void Serialize(const SchemaElement& v, ThriftWriter* w);
void Serialize(const ColumnMetaData& v, ThriftWriter* w);
void Serialize(const RowGroup& v, ThriftWriter* w);
void Serialize(const KeyValue& v, ThriftWriter* w);

// Parse decodes one struct from the reader's position (a reader over exactly a footer, or over a
// page and its header: page headers are parsed from the start of the page bytes, and
// reader.position() afterwards is the header's length).
Status Parse(ThriftReader* r, FileMetaData* out);
Status Parse(ThriftReader* r, PageHeader* out);
Status Parse(ThriftReader* r, Statistics* out);
Status Parse(ThriftReader* r, SchemaElement* out);
Status Parse(ThriftReader* r, ColumnMetaData* out);
Status Parse(ThriftReader* r, ColumnChunk* out);
Status Parse(ThriftReader* r, RowGroup* out);
Status Parse(ThriftReader* r, KeyValue* out);
Status Parse(ThriftReader* r, LogicalTypeAnnotation* out);

// Whole-buffer conveniences: the footer bytes (between the data and the length + "PAR1").
Result<FileMetaData> ParseFileMetaData(std::string_view bytes);

// Names for error messages ("INT32", "ZSTD", ...).
std::string_view TypeName(Type t);
std::string_view CodecName(CompressionCodec c);
std::string_view EncodingName(Encoding e);

}  // namespace sluice::parquet
