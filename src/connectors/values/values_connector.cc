#include "connectors/values/values_connector.h"

#include "connectors/connector_options.h"
#include "types/value_format.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr char kDataId[] = "data-id";
constexpr char kChangelogMode[] = "changelog-mode";
constexpr char kBounded[] = "bounded";
constexpr char kSinkInsertOnly[] = "sink-insert-only";
constexpr char kSinkChangelogModeEnforced[] = "sink-changelog-mode-enforced";

Result<ChangelogMode> ParseChangelogMode(const OptionReader& reader, const char* key = kChangelogMode) {
  std::string text = reader.GetString(key, "I");
  ChangelogMode mode;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string token = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!token.empty() && token.front() == ' ') token.erase(0, 1);
    while (!token.empty() && token.back() == ' ') token.pop_back();
    if (token == "I") {
      mode = mode.With(RowKind::kInsert);
    } else if (token == "UB") {
      mode = mode.With(RowKind::kUpdateBefore);
    } else if (token == "UA") {
      mode = mode.With(RowKind::kUpdateAfter);
    } else if (token == "D") {
      mode = mode.With(RowKind::kDelete);
    } else {
      return reader.InvalidValue(key, "'" + token + "' is not a change kind (use I, UB, UA and D)");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return mode;
}

// What payload a Value of this type carries (value.h): rows must carry the column's payload.
int PayloadClass(const LogicalType& t) {
  switch (t.id()) {
    case TypeId::kBoolean: return 1;
    case TypeId::kFloat:
    case TypeId::kDouble: return 2;
    case TypeId::kDecimal: return 3;
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary: return 4;
    case TypeId::kArray:
    case TypeId::kMultiset:
    case TypeId::kMap:
    case TypeId::kRow: return 10 + static_cast<int>(t.id());
    case TypeId::kNull: return 0;
    default: return 5;  // integers, dates, times, timestamps, intervals: int64_t
  }
}

bool Fits(const Value& v, const LogicalType& t) {
  if (v.is_null()) return true;
  if (PayloadClass(v.type()) != PayloadClass(t)) return false;
  if (t.id() == TypeId::kDecimal && v.type().scale() != t.scale()) return false;
  if (!t.IsNested()) return true;
  const auto& items = v.list_value();
  if (t.id() == TypeId::kRow) {
    if (items.size() != t.num_children()) return false;
    for (size_t i = 0; i < items.size(); ++i) {
      if (!Fits(items[i], t.child(i))) return false;
    }
    return true;
  }
  const size_t per = t.id() == TypeId::kMap ? 2 : 1;
  if (items.size() % per != 0) return false;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!Fits(items[i], t.child(i % per))) return false;
  }
  return true;
}

class ValuesSplit final : public SourceSplit {
 public:
  ValuesSplit(std::string id, std::shared_ptr<const ValuesDataRegistry::Splits> data, size_t index,
              std::vector<int> columns, std::function<void(int64_t)> advancer)
      : id_(std::move(id)), data_(std::move(data)), index_(index), columns_(std::move(columns)),
        advancer_(std::move(advancer)) {}

  std::string id() const override { return id_; }

  int64_t PendingDelayMicros() const override {
    const auto& rows = (*data_)[index_];
    int64_t delay = 0;
    for (size_t i = pos_; i < rows.size() && rows[i].advance_clock_micros > 0; ++i) delay += rows[i].advance_clock_micros;
    return delay;
  }

  Result<bool> Read(size_t max_rows, Chunk* out) override {
    const auto& rows = (*data_)[index_];
    // Processing-time steps at the read position happen now, before the rows after them.
    while (pos_ < rows.size() && rows[pos_].advance_clock_micros > 0) {
      if (advancer_) advancer_(rows[pos_].advance_clock_micros);
      ++pos_;
    }
    if (pos_ >= rows.size()) return false;
    size_t end = std::min(rows.size(), pos_ + max_rows);
    // A chunk ends before the next processing-time step.
    for (size_t i = pos_; i < end; ++i) {
      if (rows[i].advance_clock_micros > 0) {
        end = i;
        break;
      }
    }
    // Never split a -U/+U pair across chunks (a chunk of one row takes the pair whole).
    if (end < rows.size() && rows[end - 1].kind == RowKind::kUpdateBefore && rows[end].kind == RowKind::kUpdateAfter) {
      end = end > pos_ + 1 ? end - 1 : end + 1;
    }
    for (; pos_ < end; ++pos_) {
      const ValuesRow& row = rows[pos_];
      for (size_t c = 0; c < columns_.size(); ++c) {
        out->column(c).AppendValue(row.values[static_cast<size_t>(columns_[c])]);
      }
      out->kind_vector().push_back(row.kind);
    }
    return true;
  }

 private:
  std::string id_;
  std::shared_ptr<const ValuesDataRegistry::Splits> data_;
  size_t index_;
  std::vector<int> columns_;
  std::function<void(int64_t)> advancer_;
  size_t pos_ = 0;
};

class ValuesSource final : public TableSource {
 public:
  ValuesSource(std::string data_id, std::shared_ptr<const ValuesDataRegistry::Splits> data, std::vector<int> columns,
               ChangelogMode mode, bool bounded, std::function<void(int64_t)> advancer)
      : data_id_(std::move(data_id)), data_(std::move(data)), columns_(std::move(columns)), mode_(mode),
        bounded_(bounded), advancer_(std::move(advancer)) {}
  ChangelogMode changelog_mode() const override { return mode_; }
  bool bounded() const override { return bounded_; }
  Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() override {
    std::vector<std::unique_ptr<SourceSplit>> splits;
    if (data_ == nullptr) return splits;
    for (size_t i = 0; i < data_->size(); ++i) {
      splits.push_back(
          std::make_unique<ValuesSplit>("values " + data_id_ + " split " + std::to_string(i), data_, i, columns_, advancer_));
    }
    return splits;
  }

 private:
  std::string data_id_;
  std::shared_ptr<const ValuesDataRegistry::Splits> data_;
  std::vector<int> columns_;
  ChangelogMode mode_;
  bool bounded_;
  std::function<void(int64_t)> advancer_;
};

class ValuesWriter final : public SinkWriter {
 public:
  ValuesWriter(ValuesDataRegistry* registry, std::string table) : registry_(registry), table_(std::move(table)) {}
  Status Write(const Chunk& chunk) override {
    std::vector<ValuesRow> rows;
    rows.reserve(chunk.size());
    for (size_t r = 0; r < chunk.size(); ++r) rows.push_back(ValuesRow{chunk.kind(r), chunk.GetRow(r)});
    registry_->AppendResults(table_, std::move(rows));
    return Status::OK();
  }
  Status Finish() override { return Status::OK(); }

 private:
  ValuesDataRegistry* registry_;
  std::string table_;
};

class ValuesSink final : public TableSink {
 public:
  ValuesSink(ValuesDataRegistry* registry, std::string table, ChangelogMode mode)
      : registry_(registry), table_(std::move(table)), mode_(mode) {}
  ChangelogMode accepted_changelog_mode() const override { return mode_; }
  Result<std::unique_ptr<SinkWriter>> CreateWriter() override {
    return std::unique_ptr<SinkWriter>(new ValuesWriter(registry_, table_));
  }

 private:
  ValuesDataRegistry* registry_;
  std::string table_;
  ChangelogMode mode_;
};

class ValuesFactory final : public ConnectorFactory {
 public:
  std::string identifier() const override { return "values"; }
  std::vector<OptionSpec> options() const override {
    return {
        {kDataId, false, "", "The id the rows were registered under (no id: an empty table)."},
        {kChangelogMode, false, "I", "The kinds of change the rows carry, e.g. 'I,UB,UA,D'."},
        {kBounded, false, "true", "Whether the source is bounded."},
        {kSinkInsertOnly, false, "true",
         "Whether the sink accepts inserts only. With 'false', a sink with a PRIMARY KEY upserts by it (accepts "
         "I, UA, D, as Flink's test sink) and a sink without one accepts every kind of change."},
        {kSinkChangelogModeEnforced, false, "",
         "The kinds of change the sink accepts, e.g. 'I,UA,D', overriding 'sink-insert-only'."},
    };
  }
  bool supports_source() const override { return true; }
  bool supports_sink() const override { return true; }

  Result<std::unique_ptr<TableSource>> CreateSource(const ConnectorContext& ctx) const override {
    RETURN_IF_ERROR(ValidateConnectorOptions(ctx, *this, ConnectorRole::kSource).status());
    const std::string context = ConnectorErrorContext(ctx, ConnectorRole::kSource);
    if (!ctx.metadata.empty()) {
      return Status::InvalidArgument("the values connector offers no metadata key '" + ctx.metadata[0].name + "'")
          .WithContext(context);
    }
    OptionReader reader = ConnectorOptionReader(ctx);
    auto mode = ParseChangelogMode(reader);
    if (!mode.ok()) return mode.status().WithContext(context);
    auto bounded = reader.GetBool(kBounded, true);
    if (!bounded.ok()) return bounded.status().WithContext(context);
    std::vector<int> columns = ctx.projection;
    if (columns.empty()) {
      for (size_t i = 0; i < ctx.physical_schema.size(); ++i) columns.push_back(static_cast<int>(i));
    }
    std::shared_ptr<const ValuesDataRegistry::Splits> data;
    std::string data_id = reader.GetString(kDataId, "");
    if (!data_id.empty()) {
      if (ctx.values_registry == nullptr) {
        return Status::InvalidArgument("this session has no registry of values data").WithContext(context);
      }
      data = ctx.values_registry->Find(data_id);
      if (data == nullptr) {
        return Status::NotFound("no rows are registered under 'data-id' = '" + data_id + "'").WithContext(context);
      }
      RETURN_IF_ERROR(CheckRows(*data, ctx.physical_schema, *mode).WithContext(context));
    }
    std::function<void(int64_t)> advancer = ctx.values_registry ? ctx.values_registry->clock_advancer() : nullptr;
    return std::unique_ptr<TableSource>(
        new ValuesSource(data_id, std::move(data), std::move(columns), *mode, *bounded, std::move(advancer)));
  }

  Result<std::unique_ptr<TableSink>> CreateSink(const ConnectorContext& ctx) const override {
    RETURN_IF_ERROR(ValidateConnectorOptions(ctx, *this, ConnectorRole::kSink).status());
    const std::string context = ConnectorErrorContext(ctx, ConnectorRole::kSink);
    if (ctx.values_registry == nullptr) {
      return Status::InvalidArgument("this session has no registry of values data").WithContext(context);
    }
    OptionReader reader = ConnectorOptionReader(ctx);
    auto insert_only = reader.GetBool(kSinkInsertOnly, true);
    if (!insert_only.ok()) return insert_only.status().WithContext(context);
    ChangelogMode mode = *insert_only ? ChangelogMode::InsertOnly()
                         : ctx.primary_key.empty() ? ChangelogMode::All()
                                                   : ChangelogMode::Upsert();
    if (!reader.GetString(kSinkChangelogModeEnforced, "").empty()) {
      auto enforced = ParseChangelogMode(reader, kSinkChangelogModeEnforced);
      if (!enforced.ok()) return enforced.status().WithContext(context);
      mode = *enforced;
    }
    return std::unique_ptr<TableSink>(new ValuesSink(ctx.values_registry, ctx.table_name, mode));
  }

 private:
  static Status CheckRows(const ValuesDataRegistry::Splits& data, const Schema& schema, ChangelogMode mode) {
    for (size_t s = 0; s < data.size(); ++s) {
      for (size_t r = 0; r < data[s].size(); ++r) {
        const ValuesRow& row = data[s][r];
        if (row.advance_clock_micros > 0) continue;
        std::string where = "row " + std::to_string(r + 1) + " of split " + std::to_string(s);
        if (!mode.Contains(row.kind)) {
          return Status::InvalidArgument(where + " is a " + std::string(RowKindShortString(row.kind)) +
                                         " change, which 'changelog-mode' = '" + mode.ToString() + "' does not allow");
        }
        if (row.values.size() != schema.size()) {
          return Status::InvalidArgument(where + " has " + std::to_string(row.values.size()) + " values but the table has " +
                                         std::to_string(schema.size()) + " physical columns");
        }
        for (size_t c = 0; c < schema.size(); ++c) {
          if (!Fits(row.values[c], schema.field(c).type)) {
            return Status::InvalidArgument(where + ": value " + row.values[c].ToString() + " of type " +
                                           row.values[c].type().ToString() + " does not fit column '" +
                                           schema.field(c).name + "' of type " + schema.field(c).type.ToString());
          }
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace

std::string ValuesRowToString(const ValuesRow& row) {
  std::string out(RowKindShortString(row.kind));
  out.push_back('[');
  for (size_t i = 0; i < row.values.size(); ++i) {
    if (i) out.append(", ");
    AppendValueText(row.values[i], &out);
  }
  out.push_back(']');
  return out;
}

void ValuesDataRegistry::Register(const std::string& data_id, Splits splits) {
  std::lock_guard<std::mutex> lock(mu_);
  data_[data_id] = std::make_shared<const Splits>(std::move(splits));
}

std::string ValuesDataRegistry::RegisterData(Splits splits) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string id;
  do {
    id = "values-" + std::to_string(next_id_++);
  } while (data_.count(id) > 0);
  data_[id] = std::make_shared<const Splits>(std::move(splits));
  return id;
}

std::shared_ptr<const ValuesDataRegistry::Splits> ValuesDataRegistry::Find(const std::string& data_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = data_.find(data_id);
  return it == data_.end() ? nullptr : it->second;
}

std::vector<ValuesRow> ValuesDataRegistry::Results(const std::string& table) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = results_.find(table);
  return it == results_.end() ? std::vector<ValuesRow>{} : it->second;
}

void ValuesDataRegistry::AppendResults(const std::string& table, std::vector<ValuesRow> rows) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& dst = results_[table];
  for (auto& r : rows) dst.push_back(std::move(r));
}

void ValuesDataRegistry::set_clock_advancer(std::function<void(int64_t)> advancer) {
  std::lock_guard<std::mutex> lock(mu_);
  advancer_ = std::move(advancer);
}

std::function<void(int64_t)> ValuesDataRegistry::clock_advancer() const {
  std::lock_guard<std::mutex> lock(mu_);
  return advancer_;
}

void ValuesDataRegistry::ClearResults() {
  std::lock_guard<std::mutex> lock(mu_);
  results_.clear();
}

std::unique_ptr<ConnectorFactory> MakeValuesConnectorFactory() { return std::make_unique<ValuesFactory>(); }

}  // namespace sluice
