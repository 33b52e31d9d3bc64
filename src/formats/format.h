// Formats: how rows of a table become text records and back (Flink's 'format' option: json, csv).
//
// A FormatFactory is registered under its identifier ('json', 'csv') and declares its options with
// their full keys ('json.ignore-parse-errors'), so a connector validates a table's WITH options
// against its own and its format's declarations in one place (connectors/connector_options.h).
//
// A RecordDecoder turns batches of text records (one JSON line, one CSV record) into rows appended to
// a Chunk whose columns are the projected schema. It writes straight into the typed column vectors;
// no Value is boxed on the way. A malformed record fails the batch with a Status naming the source
// (file), the line and the reason, unless the format's 'ignore-parse-errors' option is on: then the
// record is skipped and counted. A RecordEncoder appends rows of a Chunk as text records, each ending
// in '\n'.
//
// Binary formats (avro, avro-confluent, raw) decode one whole record per TextRecord (its bytes in
// `text`; `line` carries the Kafka offset) and encode through RecordEncoder::EncodeBinary.
//
// Threading: factories are immutable and shared. A decoder or encoder is used by one thread (it owns
// scratch buffers and, for json, a simdjson parser).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "types/row_kind.h"
#include "types/schema.h"

namespace sluice {

class Chunk;
struct ConfigOption;

// Every record handed to a decoder with RecordBatch::padded set is followed by at least this many
// readable bytes (simdjson reads past the end of a document in 64-byte blocks).
inline constexpr size_t kRecordPadding = 64;

// One text record: a line (without its '\n' / "\r\n") or a multi-line CSV record, and the 1-based
// line number where it starts.
struct TextRecord {
  std::string_view text;
  int64_t line = 0;
};

struct RecordBatch {
  const TextRecord* records = nullptr;
  size_t count = 0;
  // Where the records come from, for error messages ("/data/orders/part-0.json").
  std::string_view source;
  // True when every record's text is followed by kRecordPadding readable bytes (the filesystem
  // reader guarantees it); otherwise a decoder that needs padding copies the record first.
  bool padded = false;
};

// Typed access to a table's WITH options with errors naming the table and the key (house rule 5).
// Values are parsed with the one set of parsers in common/config.h.
class OptionReader {
 public:
  OptionReader(std::string table_name, const std::map<std::string, std::string>* options)
      : table_name_(std::move(table_name)), options_(options) {}

  const std::string& table_name() const { return table_name_; }
  bool Has(const std::string& key) const;
  std::string GetString(const std::string& key, const std::string& fallback) const;
  Result<bool> GetBool(const std::string& key, bool fallback) const;
  Result<int64_t> GetInt(const std::string& key, int64_t fallback) const;
  Result<int64_t> GetDurationMillis(const std::string& key, int64_t fallback) const;
  Result<int64_t> GetMemorySize(const std::string& key, int64_t fallback) const;
  // One of `allowed` (compared case-insensitively; the allowed spelling is returned).
  Result<std::string> GetEnum(const std::string& key, const std::string& fallback,
                              const std::vector<std::string>& allowed) const;
  // A single character ("\t" may be written as a tab or as the two characters backslash-t).
  Result<char> GetChar(const std::string& key, char fallback) const;

  // "Invalid value for option 'k' of table 't': <reason>"; hides the value of secret-looking keys.
  Status InvalidValue(const std::string& key, const std::string& reason) const;

 private:
  std::string table_name_;
  const std::map<std::string, std::string>* options_;
};

// True for keys whose values must never appear in messages (password, secret, token, jaas, ...).
bool IsSecretOptionKey(std::string_view key);
// An option's value as statements show it (SHOW CREATE TABLE / CATALOG, DESCRIBE CATALOG): "******"
// for a secret-looking key, else `value`.
std::string ShownOptionValue(std::string_view key, const std::string& value);

class RecordDecoder {
 public:
  virtual ~RecordDecoder() = default;

  // Appends one row per well-formed record of `batch` to `out` (skipped records append none).
  // Changelog formats (debezium-json) append up to max_rows_per_record() rows per record and set
  // their RowKinds; the rows of one record are never split across two Decode calls.
  virtual Status Decode(const RecordBatch& batch, Chunk* out) = 0;

  // The most rows one record can yield (2 for a changelog format's update: -U and +U). Readers cut
  // batches so a chunk stays near its row budget.
  virtual size_t max_rows_per_record() const { return 1; }

  // Cuts complete records from the front of `data`, at most `max_records`, appending them to `out`.
  // `*line` is the line number of data[0] and is advanced past every consumed line. When `at_end` is
  // true the bytes after the last newline form a record too. Returns the number of bytes consumed.
  // Blank lines are skipped (they consume bytes and lines but yield no record). The default cuts at
  // '\n'; CSV overrides it so quoted fields may hold newlines.
  virtual size_t SplitRecords(std::string_view data, bool at_end, size_t max_records, int64_t* line,
                              std::vector<TextRecord>* out) const;

  // Malformed records skipped so far (with 'ignore-parse-errors').
  int64_t records_skipped() const { return skipped_; }

 protected:
  int64_t skipped_ = 0;
};

class RecordEncoder {
 public:
  virtual ~RecordEncoder() = default;
  // Appends every row of `chunk` (columns in the encoder's schema order) to `out`, one record each,
  // each ending in '\n'. Plain formats do not write RowKinds (their sinks accept inserts only);
  // changelog formats (debezium-json) encode each row's kind.
  virtual Status Encode(const Chunk& chunk, std::string* out) = 0;

  // True for binary formats (avro, avro-confluent, raw): a record may hold any byte, so records are
  // not cut at '\n'; they are written with EncodeBinary, one message each (Kafka), and Encode fails.
  virtual bool binary() const { return false; }
  // Binary formats: appends one record per row of `chunk` to `out` and, per row, the offset in `out`
  // where its record ends.
  virtual Status EncodeBinary(const Chunk& chunk, std::string* out, std::vector<size_t>* ends);
  // True when the record of a row whose (single) column is NULL is a null message, not bytes: Flink's
  // 'raw' format writes a null value (a Kafka tombstone) or a null key. EncodeBinary then writes an
  // empty record for such a row, which the Kafka sink sends as null.
  virtual bool null_as_null_record() const { return false; }
};

class FormatFactory {
 public:
  virtual ~FormatFactory() = default;
  virtual std::string identifier() const = 0;
  // File name extension for files written in this format ("json", "csv").
  virtual std::string file_extension() const = 0;
  // The format's options with their full keys ("json.ignore-parse-errors").
  virtual const std::vector<ConfigOption>& options() const = 0;
  // The changes the format's records carry, as Flink's DecodingFormat/EncodingFormat
  // getChangelogMode(): insert-only for plain formats; every kind for changelog formats
  // (debezium-json). A connector's source emits, and its sink accepts, what its format carries.
  virtual ChangelogMode changelog_mode() const { return ChangelogMode::InsertOnly(); }
  // True when records are binary (avro, raw): readers must hand each record whole (a Kafka message),
  // never cut at line breaks.
  virtual bool binary_records() const { return false; }
  // `physical` is the table's physical schema and `projection` the columns to produce (indexes into
  // it; empty means all). JSON matches fields by name, CSV by position in `physical`.
  virtual Result<std::unique_ptr<RecordDecoder>> CreateDecoder(const Schema& physical,
                                                               const std::vector<int>& projection,
                                                               const OptionReader& options) const = 0;
  virtual Result<std::unique_ptr<RecordEncoder>> CreateEncoder(const Schema& schema,
                                                               const OptionReader& options) const = 0;
};

// The built-in formats (avro, avro-confluent, csv, debezium-avro-confluent, debezium-json, json, raw). Unknown identifiers get a did-you-mean.
Result<const FormatFactory*> FindFormat(const std::string& identifier);
std::vector<const FormatFactory*> AllFormats();

// "Failed to deserialize JSON '<first 100 chars>' at /path/file.json:17: <reason>" (`format_name`
// is "JSON", "CSV" or "Debezium JSON").
Status RecordError(std::string_view format_name, std::string_view record, std::string_view source, int64_t line,
                   std::string_view reason);
// The same for a binary record (avro, raw), which is not quoted: "Failed to deserialize Avro record
// (42 bytes) at topic 't' partition 0 offset 17: <reason>" (a source ending in "offset" takes the
// number after a space, a file name after ':').
Status BinaryRecordError(std::string_view format_name, size_t size, std::string_view source, int64_t line,
                         std::string_view reason);

}  // namespace sluice
