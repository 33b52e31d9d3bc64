#include "connectors/kafka/kafka_row_assembler.h"

#include <algorithm>

#include "common/check.h"
#include "types/vector.h"

namespace sluice {

namespace {

const char* TimestampTypeName(rd_kafka_timestamp_type_t t) {
  switch (t) {
    case RD_KAFKA_TIMESTAMP_CREATE_TIME: return "CreateTime";
    case RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME: return "LogAppendTime";
    default: return "NoTimestampType";
  }
}

}  // namespace

RowAssembler::RowAssembler(const ConnectorContext& ctx, const KafkaTableOptions& o)
    : upsert_(o.upsert), changelog_(!o.value_format->changelog_mode().IsInsertOnly()), metadata_(ctx.metadata) {
  const Schema& physical = ctx.physical_schema;
  std::vector<int> projection = ctx.projection;
  if (projection.empty()) {
    for (size_t i = 0; i < physical.size(); ++i) projection.push_back(static_cast<int>(i));
  }
  for (int p : projection) {
    Output out;
    auto k = std::find(o.key_fields.begin(), o.key_fields.end(), p);
    if (k != o.key_fields.end()) out.key_pos = static_cast<int>(k - o.key_fields.begin());
    auto v = std::find(o.value_fields.begin(), o.value_fields.end(), p);
    if (v != o.value_fields.end()) {
      out.value_pos = static_cast<int>(value_projection_.size());
      value_projection_.push_back(static_cast<int>(v - o.value_fields.begin()));
      value_scan_.Add(o.value_schema.field(value_projection_.back()).name,
                      o.value_schema.field(value_projection_.back()).type);
    }
    outputs_.push_back(out);
  }
  if (value_projection_.empty()) value_scan_ = o.value_schema;  // the decoder then produces every field
  key_schema_ = o.key_schema;
}

Status RowAssembler::Init(const KafkaTableOptions& o) {
  if (o.key_format != nullptr) {
    auto key = o.key_format->CreateDecoder(o.key_schema, {}, OptionReader(o.table_name, &o.key_format_options));
    if (!key.ok()) return WithFormatOptionPrefix(key.status(), "key.", *o.key_format);
    key_decoder_ = std::move(key).value();
  }
  auto value = o.value_format->CreateDecoder(o.value_schema, value_projection_,
                                             OptionReader(o.table_name, &o.value_format_options));
  if (!value.ok()) return WithFormatOptionPrefix(value.status(), o.value_option_prefix, *o.value_format);
  value_decoder_ = std::move(value).value();
  return Status::OK();
}

Status RowAssembler::Append(const std::vector<rd_kafka_message_t*>& msgs, const std::string& source, Chunk* out) {
  kept_.clear();
  for (rd_kafka_message_t* m : msgs) {
    bool has_key = m->key != nullptr;
    bool has_value = m->payload != nullptr;
    // Flink emits nothing for a record whose key the key format gets as null, and an append-only
    // table has no row for a tombstone.
    if ((key_decoder_ && !has_key) || (!upsert_ && !has_value)) {
      ++skipped_;
      continue;
    }
    kept_.push_back(m);
  }
  if (kept_.empty()) return Status::OK();
  Chunk keys(key_schema_);
  Chunk values(value_scan_);
  if (changelog_) return AppendChangelog(source, &keys, &values, out);
  records_.clear();
  if (key_decoder_) {
    for (rd_kafka_message_t* m : kept_) records_.push_back(Record(m->key, m->key_len, m->offset));
    RETURN_IF_ERROR(key_decoder_->Decode(RecordBatch{records_.data(), records_.size(), source, false}, &keys));
  }
  bool aligned = !key_decoder_ || keys.size() == kept_.size();
  size_t with_value = 0;
  if (aligned) {
    records_.clear();
    for (rd_kafka_message_t* m : kept_) {
      if (m->payload != nullptr) records_.push_back(Record(m->payload, m->len, m->offset));
    }
    with_value = records_.size();
    RETURN_IF_ERROR(value_decoder_->Decode(RecordBatch{records_.data(), records_.size(), source, false}, &values));
    aligned = values.size() == with_value;
  }
  if (!aligned) {
    // A format skipped malformed records ('ignore-parse-errors'): decode one message at a time so
    // keys, values and metadata stay in step.
    keys = Chunk(key_schema_);
    values = Chunk(value_scan_);
    std::vector<rd_kafka_message_t*> good;
    for (rd_kafka_message_t* m : kept_) {
      size_t v0 = values.size();
      if (m->payload != nullptr) {
        TextRecord r = Record(m->payload, m->len, m->offset);
        RETURN_IF_ERROR(value_decoder_->Decode(RecordBatch{&r, 1, source, false}, &values));
        if (values.size() == v0) {
          ++skipped_;
          continue;
        }
      }
      if (key_decoder_) {
        size_t k0 = keys.size();
        TextRecord r = Record(m->key, m->key_len, m->offset);
        RETURN_IF_ERROR(key_decoder_->Decode(RecordBatch{&r, 1, source, false}, &keys));
        if (keys.size() == k0) {
          values.Resize(v0);
          ++skipped_;
          continue;
        }
      }
      good.push_back(m);
    }
    kept_ = std::move(good);
  }
  Assemble(keys, values, out);
  return Status::OK();
}

Status RowAssembler::AppendChangelog(const std::string& source, Chunk* keys, Chunk* values, Chunk* out) {
  std::vector<rd_kafka_message_t*> rows;
  for (rd_kafka_message_t* m : kept_) {
    const size_t v0 = values->size();
    TextRecord r = Record(m->payload, m->len, m->offset);
    RETURN_IF_ERROR(value_decoder_->Decode(RecordBatch{&r, 1, source, false}, values));
    const size_t produced = values->size() - v0;
    if (produced == 0) {
      ++skipped_;
      continue;
    }
    if (key_decoder_) {
      Chunk one_key(key_schema_);
      TextRecord k = Record(m->key, m->key_len, m->offset);
      RETURN_IF_ERROR(key_decoder_->Decode(RecordBatch{&k, 1, source, false}, &one_key));
      if (one_key.size() == 0) {
        values->Resize(v0);
        ++skipped_;
        continue;
      }
      for (size_t i = 0; i < produced; ++i) keys->AppendFrom(one_key, nullptr, 0, 1);
    }
    rows.insert(rows.end(), produced, m);
  }
  kept_ = std::move(rows);
  const size_t base = out->size();
  Assemble(*keys, *values, out);
  std::copy(values->kinds(), values->kinds() + values->size(), out->kinds() + base);
  return Status::OK();
}

TextRecord RowAssembler::Record(const void* data, size_t len, int64_t offset) {
  return TextRecord{std::string_view(static_cast<const char*>(data), len), offset};
}

void RowAssembler::Assemble(const Chunk& keys, const Chunk& values, Chunk* out) {
  const size_t rows = kept_.size();
  const size_t base = out->size();
  // An empty projection means every physical column (ConnectorContext), except that the planner
  // also sends one when a query reads only metadata columns: the chunk then has none.
  const size_t physical = out->num_columns() == metadata_.size() ? 0 : outputs_.size();
  SLUICE_CHECK_EQ(physical + metadata_.size(), out->num_columns());
  for (size_t j = 0; j < physical; ++j) {
    const Output& o = outputs_[j];
    Vector& col = out->column(j);
    // Copy runs of rows that take the column from the same place (value, key or NULL).
    size_t r = 0;
    size_t value_row = 0;
    while (r < rows) {
      auto source_of = [&](size_t i) {
        if (kept_[i]->payload != nullptr && o.value_pos >= 0) return 0;
        return o.key_pos >= 0 ? 1 : 2;
      };
      const int src = source_of(r);
      size_t end = r + 1;
      while (end < rows && source_of(end) == src) ++end;
      const size_t len = end - r;
      if (src == 0) {
        col.AppendFrom(values.column(static_cast<size_t>(o.value_pos)), nullptr, value_row, len);
      } else if (src == 1) {
        col.AppendFrom(keys.column(static_cast<size_t>(o.key_pos)), nullptr, r, len);
      } else {
        size_t old = col.size();
        col.Resize(old + len);
        for (size_t i = 0; i < len; ++i) col.SetNull(old + i, true);
      }
      for (size_t i = r; i < end; ++i) value_row += kept_[i]->payload != nullptr ? 1 : 0;
      r = end;
    }
  }
  for (size_t m = 0; m < metadata_.size(); ++m) AppendMetadata(metadata_[m].name, &out->column(physical + m));
  out->kind_vector().resize(base + rows, RowKind::kInsert);
  if (upsert_) {
    for (size_t i = 0; i < rows; ++i) {
      if (kept_[i]->payload == nullptr) out->kinds()[base + i] = RowKind::kDelete;
    }
  }
}

void RowAssembler::AppendMetadata(const std::string& key, Vector* col) {
  const size_t rows = kept_.size();
  const size_t old = col->size();
  col->Resize(old + rows);
  const bool wide = col->type().id() == TypeId::kBigInt;
  for (size_t i = 0; i < rows; ++i) {
    const rd_kafka_message_t* m = kept_[i];
    const size_t row = old + i;
    if (key == "topic") {
      col->SetString(row, rd_kafka_topic_name(m->rkt));
    } else if (key == "partition") {
      if (wide) {
        col->data<int64_t>()[row] = m->partition;
      } else {
        col->data<int32_t>()[row] = m->partition;
      }
    } else if (key == "offset") {
      col->data<int64_t>()[row] = m->offset;
    } else if (key == "timestamp") {
      rd_kafka_timestamp_type_t type;
      col->data<int64_t>()[row] = rd_kafka_message_timestamp(m, &type) * 1000;
    } else if (key == "timestamp-type") {
      rd_kafka_timestamp_type_t type;
      (void)rd_kafka_message_timestamp(m, &type);
      col->SetString(row, TimestampTypeName(type));
    } else if (key == "leader-epoch") {
      // librdkafka 2.0 does not expose the leader epoch of a fetched record: unknown, as Flink's
      // record.leaderEpoch() when the broker sends none.
      col->SetNull(row, true);
    } else if (key == "headers") {
      AppendHeaders(m, col, row);
    }
  }
}

void RowAssembler::AppendHeaders(const rd_kafka_message_t* m, Vector* col, size_t row) {
  Vector& keys = col->child(0);
  Vector& values = col->child(1);
  const uint32_t begin = static_cast<uint32_t>(keys.size());
  rd_kafka_headers_t* hdrs = nullptr;
  uint32_t n = 0;
  if (rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name;
    const void* value;
    size_t size;
    for (size_t idx = 0; rd_kafka_header_get_all(hdrs, idx, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++idx) {
      size_t at = keys.size();
      keys.Resize(at + 1);
      values.Resize(at + 1);
      keys.SetString(at, name);
      if (value == nullptr) {
        values.SetNull(at, true);
      } else {
        values.SetString(at, std::string_view(static_cast<const char*>(value), size));
      }
      ++n;
    }
  }
  col->data<ListEntry>()[row] = ListEntry{begin, n};
}

}  // namespace sluice
