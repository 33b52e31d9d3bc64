// The Iceberg sink (Flink's IcebergTableSink / FlinkSink): options, the writer's configuration
// (Flink's FlinkWriteConf resolution: write option > table property > default), and the SinkWriter
// that ties the task writer (iceberg_task_writer.h) to the committer (iceberg_committer.h).
#include <algorithm>
#include <functional>

#include "connectors/connector_options.h"
#include "connectors/iceberg/iceberg_committer.h"
#include "connectors/iceberg/iceberg_connector.h"
#include "connectors/iceberg/iceberg_file_io.h"
#include "connectors/iceberg/iceberg_key_index.h"
#include "connectors/iceberg/iceberg_options.h"
#include "connectors/iceberg/iceberg_task_writer.h"
#include "connectors/iceberg/table_metadata.h"

namespace sluice {
namespace {

constexpr char kUpsertEnabled[] = "upsert-enabled";
constexpr char kUpsertProperty[] = "write.upsert.enabled";
constexpr char kTargetFileSize[] = "target-file-size-bytes";
constexpr char kCompressionCodec[] = "compression-codec";
constexpr char kCompressionLevel[] = "compression-level";
constexpr char kWriteFormat[] = "write-format";
constexpr char kDeleteMode[] = "sluice.write.delete-mode";
constexpr int64_t kDefaultTargetFileSize = 512LL * 1024 * 1024;

std::string WithThousands(int64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  const size_t n = digits.size();
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
    out += digits[i];
  }
  return out;
}

// A 32-hex-digit id from text (Flink's operator ids are 16-byte hashes of the operator's uid).
std::string HexId(const std::string& text) {
  char buf[33];
  const uint64_t a = std::hash<std::string>()("sluice-iceberg-sink-a:" + text);
  const uint64_t b = std::hash<std::string>()("sluice-iceberg-sink-b:" + text);
  std::snprintf(buf, sizeof(buf), "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return buf;
}

// The write configuration of one sink.
struct WriteConf {
  bool upsert = false;
  std::string delete_mode = "equality";  // 'sluice.write.delete-mode': equality | position | dv
  int64_t target_file_size = kDefaultTargetFileSize;
  std::map<std::string, std::string> parquet_properties;  // 'write.parquet.*'
};

Result<WriteConf> ResolveWriteConf(const ConnectorContext& ctx, const TableMetadata& md) {
  const std::string place = "Table '" + ctx.table_name + "'";
  // A table property given in the table's options (a 'connector' = 'iceberg' table) or stored in the
  // table's metadata.
  auto property = [&](const std::string& key) -> std::optional<std::string> {
    if (auto it = ctx.options.find(key); it != ctx.options.end()) return it->second;
    if (auto it = md.properties.find(key); it != md.properties.end()) return it->second;
    return std::nullopt;
  };
  auto option = [&](const std::string& key) -> std::optional<std::string> {
    if (auto it = ctx.options.find(key); it != ctx.options.end()) return it->second;
    return std::nullopt;
  };
  auto boolean = [&](const std::string& key, const std::string& v) -> Result<bool> {
    std::string l = v;
    std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
    if (l == "true") return true;
    if (l == "false") return false;
    return Status::InvalidArgument(place + ": '" + key + "' must be 'true' or 'false', got '" + v + "'");
  };
  WriteConf conf;
  if (auto v = option(kUpsertEnabled)) {
    ASSIGN_OR_RETURN(conf.upsert, boolean(kUpsertEnabled, *v));
  } else if (auto p = property(kUpsertProperty)) {
    ASSIGN_OR_RETURN(conf.upsert, boolean(kUpsertProperty, *p));
  }
  auto size = option(kTargetFileSize);
  std::string size_key = kTargetFileSize;
  if (!size) {
    size = property(kPropTargetFileSize);
    size_key = kPropTargetFileSize;
  }
  if (size) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(size->c_str(), &end, 10);
    if (size->empty() || *end != '\0' || errno != 0 || v <= 0) {
      return Status::InvalidArgument(place + ": '" + size_key + "' must be a positive number of bytes, got '" + *size + "'");
    }
    conf.target_file_size = v;
  }
  for (const auto& [k, v] : md.properties) {
    if (k.rfind("write.parquet.", 0) == 0) conf.parquet_properties[k] = v;
  }
  for (const auto& [k, v] : ctx.options) {
    if (k.rfind("write.parquet.", 0) == 0) conf.parquet_properties[k] = v;
  }
  if (auto v = option(kCompressionCodec)) conf.parquet_properties["write.parquet.compression-codec"] = *v;
  if (auto v = option(kCompressionLevel)) conf.parquet_properties["write.parquet.compression-level"] = *v;
  auto format = option(kWriteFormat);
  if (!format) format = property(kPropFormatDefault);
  if (format) {
    std::string l = *format;
    std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
    if (l != "parquet") {
      return Status::NotSupported(place + ": file format '" + *format + "' is not supported; Sluice writes 'parquet'");
    }
  }
  if (auto mode = property(kDeleteMode)) {
    if (*mode != "equality" && *mode != "position" && *mode != "dv") {
      return Status::InvalidArgument(place + ": '" + std::string(kDeleteMode) + "' = '" + *mode +
                                     "' is not a delete mode; use 'equality' (Flink's), 'position' or 'dv'");
    }
    conf.delete_mode = *mode;
  }
  if (conf.delete_mode == "dv" && md.format_version < 3) {
    return Status::InvalidArgument(place + ": '" + std::string(kDeleteMode) + "' = 'dv' writes deletion vectors, which "
                                   "need a format-version 3 table, but the table has format version " + std::to_string(md.format_version) +
                                   " (use 'position' on format v2 tables)");
  }
  if (conf.delete_mode == "position" && md.format_version >= 3) {
    return Status::InvalidArgument(place + ": '" + std::string(kDeleteMode) + "' = 'position' writes position delete "
                                   "files, which format v3 tables may not get; use 'dv' (deletion vectors)");
  }
  return conf;
}

class IcebergSinkWriter final : public SinkWriter {
 public:
  // `load_index` (position mode only) fills the writer's primary-key index from the table.
  IcebergSinkWriter(std::unique_ptr<IcebergTaskWriter> writer, std::unique_ptr<IcebergCommitter> committer,
                    std::string table, std::string key, std::function<Status(IcebergTaskWriter*)> load_index)
      : writer_(std::move(writer)),
        committer_(std::move(committer)),
        table_(std::move(table)),
        key_(std::move(key)),
        load_index_(std::move(load_index)) {}

  Status Write(const Chunk& chunk) override {
    if (load_index_ && !index_loaded_) {
      // After any restore has committed, so the index is the table's committed state.
      RETURN_IF_ERROR(load_index_(writer_.get()));
      index_loaded_ = true;
    }
    return writer_->Write(chunk);
  }

  Status Finish() override {
    if (two_phase_) return Status::OK();  // the final checkpoint pre-commits and commits
    // Without checkpoints: one commit at the end of input, with Flink's Long.MAX_VALUE checkpoint id.
    ASSIGN_OR_RETURN(IcebergWriteResult result, writer_->Complete());
    ASSIGN_OR_RETURN(std::string committables, committer_->Prepare(kEndOfInputCheckpointId, result));
    return committer_->Commit(committables);
  }

  bool EnableTwoPhaseCommit() override {
    two_phase_ = true;
    return true;
  }

  Result<std::string> PreCommit(int64_t checkpoint_id) override {
    ASSIGN_OR_RETURN(IcebergWriteResult result, writer_->Complete());
    return committer_->Prepare(checkpoint_id, result);
  }

  Status Commit(const std::string& committables) override { return committer_->Commit(committables); }

  Status RecoverAndCommit(const std::string& committables) override {
    // Files written after the restored checkpoint are never referenced by a snapshot (orphans).
    writer_->Abort();
    index_loaded_ = false;
    if (committables.empty()) return Status::OK();
    ASSIGN_OR_RETURN(std::string job, IcebergCommitter::JobIdOf(committables));
    committer_->set_job_id(job);
    return committer_->Commit(committables);
  }

  std::vector<std::pair<std::string, std::string>> SummaryFields() const override {
    const IcebergCommitStats& s = committer_->stats();
    return {{"table", table_},
            {"snapshots", WithThousands(s.snapshots)},
            {"written", WithThousands(s.rows_written)},
            {"files", WithThousands(s.data_files)},
            {"eq deletes", WithThousands(s.equality_deletes)},
            {"pos deletes", WithThousands(s.position_deletes)},
            {"key", key_}};
  }

 private:
  std::unique_ptr<IcebergTaskWriter> writer_;
  std::unique_ptr<IcebergCommitter> committer_;
  std::string table_;
  std::string key_;
  std::function<Status(IcebergTaskWriter*)> load_index_;
  bool index_loaded_ = false;
  bool two_phase_ = false;
};

class IcebergTableSink final : public TableSink {
 public:
  IcebergTableSink(ConnectorContext ctx, IcebergTableRef ref, std::shared_ptr<IcebergCatalog> catalog,
                   LoadedTable table, WriteConf conf)
      : ctx_(std::move(ctx)),
        ref_(std::move(ref)),
        catalog_(std::move(catalog)),
        table_(std::move(table)),
        conf_(std::move(conf)) {}

  // As Flink's IcebergTableSink: every change the query sends.
  ChangelogMode accepted_changelog_mode() const override { return ChangelogMode::All(); }
  void SetInputChangelogMode(const ChangelogMode& input) override { insert_only_ = input.IsInsertOnly(); }

  Result<std::unique_ptr<SinkWriter>> CreateWriter() override {
    const TableMetadata& md = table_.metadata;
    const IcebergSchema& schema = md.CurrentSchema();
    std::vector<int32_t> ids;
    std::vector<LogicalType> types;
    RETURN_IF_ERROR(MapColumns(&ids, &types));
    ASSIGN_OR_RETURN(parquet::ParquetWriterOptions pq, parquet::ParquetWriterOptions::FromTableProperties(conf_.parquet_properties));
    IcebergTaskWriterOptions o;
    std::shared_ptr<FileIO> io = IcebergTableFileIO(catalog_, ref_.catalog, table_);
    o.io = io.get();
    o.table_location = md.location;
    auto router = PartitionRouter::ForSchema(md.DefaultSpec(), schema, ctx_.physical_schema);
    if (!router.ok()) return router.status().WithContext(place());
    ASSIGN_OR_RETURN(o.data, MakeIcebergFileSpec(schema, ids, types));
    o.data.parquet = pq;
    o.data.target_file_size = conf_.target_file_size;
    o.data.spec_id = md.default_spec_id;
    o.upsert = conf_.upsert;
    o.delta = conf_.upsert || !insert_only_;
    o.position_mode = o.delta && conf_.delete_mode != "equality";
    o.deletion_vectors = md.format_version >= 3;
    std::vector<int32_t> eq_ids;
    std::string key = "-";
    if (o.delta) {
      ASSIGN_OR_RETURN(key, EqualityFields(ids, &o, &eq_ids));
      std::vector<int32_t> delete_ids = conf_.upsert ? eq_ids : ids;
      std::vector<LogicalType> delete_types;
      for (int32_t id : delete_ids) delete_types.push_back(types[static_cast<size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin())]);
      ASSIGN_OR_RETURN(o.equality_delete, MakeIcebergFileSpec(schema, delete_ids, delete_types));
      o.equality_delete.content = DataFileContent::kEqualityDeletes;
      o.equality_delete.equality_ids = eq_ids;
      o.position_delete = PositionDeleteFileSpec();
      for (IcebergFileSpec* spec : {&o.equality_delete, &o.position_delete}) {
        spec->parquet = pq;
        spec->target_file_size = conf_.target_file_size;
      }
    }
    std::function<Status(IcebergTaskWriter*)> load_index;
    if (o.position_mode) {
      std::vector<LogicalType> key_types;
      for (int c : o.key_columns) key_types.push_back(types[static_cast<size_t>(c)]);
      const bool dv = o.deletion_vectors;
      load_index = [catalog = catalog_, io, ident = ref_.ident, eq_ids, key_types, table = ctx_.table_name,
                    mode = conf_.delete_mode, dv](IcebergTaskWriter* w) -> Status {
        ASSIGN_OR_RETURN(LoadedTable t, catalog->LoadTable(ident));
        DeletedRowsFn deleted;
        if (dv) {
          deleted = [w](const std::string& path, const DataFile* vector, DeletionVector positions) {
            return w->AddDeleted(path, vector, std::move(positions));
          };
        }
        return ScanLiveKeys(
            io.get(), t.metadata, eq_ids, key_types, table, mode,
            [w](const std::string& path, const Chunk& keys) { return w->AddIndexed(path, keys); }, deleted);
      };
    }
    const bool indexed = o.position_mode;
    auto writer = std::make_unique<IcebergTaskWriter>(std::move(o), std::move(*router));
    auto committer = std::make_unique<IcebergCommitter>(
        catalog_, io, ref_.ident, HexId(ref_.catalog.catalog_name + "." + ref_.ident.ToString()), ctx_.job_id);
    committer->set_commit_once_by_id(!indexed);
    return std::unique_ptr<SinkWriter>(
        std::make_unique<IcebergSinkWriter>(std::move(writer), std::move(committer), ref_.ident.ToString(), key,
                                            std::move(load_index)));
  }

 private:
  std::string place() const { return "Table '" + ctx_.table_name + "'"; }

  // The sink's columns are the table's, by name: their field ids and Sluice types.
  Status MapColumns(std::vector<int32_t>* ids, std::vector<LogicalType>* types) const {
    const IcebergSchema& schema = table_.metadata.CurrentSchema();
    const Schema& columns = ctx_.physical_schema;
    for (size_t i = 0; i < columns.size(); ++i) {
      const IcebergField* f = schema.FindField(columns.field(i).name);
      if (f == nullptr || std::none_of(schema.fields().begin(), schema.fields().end(),
                                       [&](const IcebergField& t) { return t.id == f->id; })) {
        return Status::InvalidArgument(place() + ": column '" + columns.field(i).name +
                                       "' is not a column of Iceberg table " + ref_.ident.ToString());
      }
      ids->push_back(f->id);
      types->push_back(columns.field(i).type);
    }
    if (ids->size() != schema.fields().size()) {
      return Status::InvalidArgument(place() + ": the sink has " + std::to_string(ids->size()) +
                                     " columns but Iceberg table " + ref_.ident.ToString() + " has " +
                                     std::to_string(schema.fields().size()));
    }
    return Status::OK();
  }

  // The delta writer's equality fields: the identifier fields (PRIMARY KEY), or every primitive
  // column. Sets o->key_columns and *eq_ids; returns the key names sorted, joined by ','.
  Result<std::string> EqualityFields(const std::vector<int32_t>& ids, IcebergTaskWriterOptions* o,
                                     std::vector<int32_t>* eq_ids) const {
    const IcebergSchema& schema = table_.metadata.CurrentSchema();
    *eq_ids = schema.identifier_field_ids();
    if (conf_.upsert && eq_ids->empty()) {
      return Status::InvalidArgument(place() + ": Equality field columns shouldn't be empty when configuring to use "
                                     "UPSERT data stream. (Declare a PRIMARY KEY on the Iceberg table.)");
    }
    if (o->position_mode && eq_ids->empty()) {
      return Status::InvalidArgument(place() + ": 'sluice.write.delete-mode' = '" + conf_.delete_mode +
                                     "' needs the table's identifier fields (a PRIMARY KEY) to index its rows by");
    }
    if (eq_ids->empty()) {
      for (const auto& f : schema.fields()) {
        if (f.type.IsPrimitive()) eq_ids->push_back(f.id);
      }
    }
    std::vector<std::string> key_names;
    for (int32_t id : *eq_ids) {
      auto at = std::find(ids.begin(), ids.end(), id);
      if (at == ids.end()) {
        return Status::InvalidArgument(place() + ": equality field id " + std::to_string(id) + " is not a column");
      }
      o->key_columns.push_back(static_cast<int>(at - ids.begin()));
      key_names.push_back(schema.FindName(id));
    }
    // Upserts (Flink's rule) and the position mode's table-wide index need every partition source
    // among the equality fields, so a key lives in one partition.
    if (conf_.upsert || o->position_mode) {
      for (const auto& pf : table_.metadata.DefaultSpec().fields()) {
        if (std::find(eq_ids->begin(), eq_ids->end(), pf.source_id) != eq_ids->end()) continue;
        std::string names;
        for (const auto& n : key_names) names += (names.empty() ? "" : ", ") + n;
        const std::string mode =
            conf_.upsert ? "In UPSERT mode" : "With 'sluice.write.delete-mode' = '" + conf_.delete_mode + "'";
        return Status::InvalidArgument(place() + ": " + mode + ", source column '" + schema.FindName(pf.source_id) +
                                       "' of partition field '" + pf.name + "', should be included in equality fields: '[" +
                                       names + "]'");
      }
    }
    std::sort(key_names.begin(), key_names.end());
    std::string key;
    for (const auto& n : key_names) key += (key.empty() ? "" : ",") + n;
    return key;
  }

  ConnectorContext ctx_;
  IcebergTableRef ref_;
  std::shared_ptr<IcebergCatalog> catalog_;
  LoadedTable table_;
  WriteConf conf_;
  bool insert_only_ = false;
};

}  // namespace

std::vector<OptionSpec> IcebergWriteOptionSpecs() {
  return {
      {kUpsertEnabled, false, "", "Upsert by the table's PRIMARY KEY (overrides 'write.upsert.enabled')."},
      {kTargetFileSize, false, "", "Roll data files at this size (overrides 'write.target-file-size-bytes')."},
      {kCompressionCodec, false, "", "Parquet codec (overrides 'write.parquet.compression-codec')."},
      {kCompressionLevel, false, "", "Parquet codec level (overrides 'write.parquet.compression-level')."},
      {kWriteFormat, false, "", "The data file format (overrides 'write.format.default'); Sluice writes 'parquet'."},
  };
}

Result<std::unique_ptr<TableSink>> CreateIcebergSink(const ConnectorContext& ctx) {
  ASSIGN_OR_RETURN(IcebergTableRef ref, IcebergTableRefFromContext(ctx));
  ASSIGN_OR_RETURN(std::shared_ptr<IcebergCatalog> catalog, OpenIcebergCatalog(ref.catalog));
  // A table created here gets the table properties of the options, not the write options.
  ConnectorContext create_ctx = ctx;
  for (const auto& spec : IcebergWriteOptionSpecs()) create_ctx.options.erase(spec.key);
  ASSIGN_OR_RETURN(LoadedTable table, OpenIcebergTable(catalog.get(), ref, create_ctx, /*create_if_missing=*/true));
  ASSIGN_OR_RETURN(WriteConf conf, ResolveWriteConf(ctx, table.metadata));
  if (table.metadata.format_version < 2) {
    return Status::NotSupported("Table '" + ctx.table_name + "': Iceberg table " + ref.ident.ToString() +
                                " has format version 1; Sluice writes format v2 and v3 tables");
  }
  return std::unique_ptr<TableSink>(
      std::make_unique<IcebergTableSink>(ctx, std::move(ref), std::move(catalog), std::move(table), std::move(conf)));
}

}  // namespace sluice
