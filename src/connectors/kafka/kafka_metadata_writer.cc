#include "connectors/kafka/kafka_metadata_writer.h"

namespace sluice {

const std::vector<Field>& KafkaWritableMetadata() {
  static const std::vector<Field> kMetadata = {
      {"headers", LogicalType::Map(LogicalType::String(), LogicalType::Bytes()).WithNullable(false)},
      {"timestamp", LogicalType::TimestampLtz(3).WithNullable(false)},
  };
  return kMetadata;
}

namespace {

Status InvalidType(const ConnectorContext& ctx, const Field& column, const LogicalType& expected) {
  return Status::InvalidArgument("Invalid data type for metadata column with metadata key '" + column.name +
                                 "' of table '" + ctx.table_name + "'. The column cannot be declared as '" +
                                 column.type.ToString() + "' because the type must be castable to metadata type '" +
                                 expected.ToString() + "'");
}

}  // namespace

Result<KafkaMetadataWriter> KafkaMetadataWriter::Make(const ConnectorContext& ctx, const KafkaTableOptions& options) {
  KafkaMetadataWriter w;
  const int physical = static_cast<int>(ctx.physical_schema.size());
  for (size_t m = 0; m < ctx.metadata.size(); ++m) {
    const Field& f = ctx.metadata[m];
    const int column = physical + static_cast<int>(m);
    if (f.name == "timestamp") {
      // Sluice keeps TIMESTAMP_LTZ as epoch microseconds; a TIMESTAMP column would need the
      // session time zone to become an instant.
      if (f.type.id() != TypeId::kTimestampLtz) return InvalidType(ctx, f, KafkaWritableMetadata()[1].type);
      w.timestamp_column_ = column;
    } else if (f.name == "headers") {
      const LogicalType& t = f.type;
      if (t.id() != TypeId::kMap || t.child(0).id() != TypeId::kVarChar || !t.child(1).IsBinaryString()) {
        return InvalidType(ctx, f, KafkaWritableMetadata()[0].type);
      }
      w.headers_column_ = column;
    }
  }
  return w;
}

int64_t KafkaMetadataWriter::TimestampMillis(const Chunk& chunk, size_t r) const {
  if (timestamp_column_ < 0) return 0;
  const Vector& col = chunk.column(static_cast<size_t>(timestamp_column_));
  if (col.IsNull(r)) return 0;
  const int64_t micros = col.data<int64_t>()[r];
  // Floor division: an instant before 1970 keeps its millisecond.
  return micros >= 0 ? micros / 1000 : -((-micros + 999) / 1000);
}

KafkaHeaders KafkaMetadataWriter::Headers(const Chunk& chunk, size_t r) const {
  if (headers_column_ < 0) return nullptr;
  const Vector& col = chunk.column(static_cast<size_t>(headers_column_));
  if (col.IsNull(r)) return nullptr;
  const ListEntry& e = col.list_entry(r);
  const Vector& keys = col.child(0);
  const Vector& values = col.child(1);
  KafkaHeaders headers(rd_kafka_headers_new(e.length));
  for (uint32_t i = e.offset; i < e.offset + e.length; ++i) {
    if (keys.IsNull(i)) continue;
    std::string_view name = keys.GetString(i);
    if (values.IsNull(i)) {
      rd_kafka_header_add(headers.get(), name.data(), static_cast<ssize_t>(name.size()), nullptr, 0);
    } else {
      std::string_view v = values.GetString(i);
      rd_kafka_header_add(headers.get(), name.data(), static_cast<ssize_t>(name.size()), v.data(),
                          static_cast<ssize_t>(v.size()));
    }
  }
  return headers;
}

}  // namespace sluice
