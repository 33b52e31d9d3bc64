#include "connectors/nexmark/nexmark_connector.h"

#include <algorithm>

#include "common/check.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "common/config.h"
#include "connectors/connector_options.h"
#include "connectors/datagen/generator_options.h"
#include "formats/format.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {

namespace {

const std::vector<OptionSpec>& NexmarkOptionSpecs() {
  static const std::vector<OptionSpec> kSpecs = {
      {"first-event.rate", false, "10000", "Events per second of event time; sets the gap between event timestamps."},
      {"next-event.rate", false, "10000", "Accepted for compatibility; the generator uses only the first rate."},
      {"events.num", false, "0", "Number of events to generate; 0 means unbounded."},
      {"person.proportion", false, "1", "Persons per epoch of person+auction+bid events."},
      {"auction.proportion", false, "3", "Auctions per epoch."},
      {"bid.proportion", false, "46", "Bids per epoch."},
      {"bid.hot-ratio.auctions", false, "2", "A bid is for a hot auction with probability 1 - 1/ratio."},
      {"bid.hot-ratio.bidders", false, "4", "A bid is by a hot bidder with probability 1 - 1/ratio."},
      {"auction.hot-ratio.sellers", false, "4", "An auction is by a hot seller with probability 1 - 1/ratio."},
      {"person.avg-size", false, "200b", "Average size of a person event; pads the 'extra' field."},
      {"auction.avg-size", false, "500b", "Average size of an auction event; pads the 'extra' field."},
      {"bid.avg-size", false, "100b", "Average size of a bid event; pads the 'extra' field."},
      {"rate.shape", false, "SQUARE", "SQUARE or SINE; accepted for compatibility (no effect on the data)."},
      {"rate.period", false, "600 s", "Period of the rate shape; accepted for compatibility."},
      {"rate.limited", false, "false", "Accepted for compatibility (no effect, as in the Flink connector)."},
      {"keep-alive", false, "false", "Keep the source open (idle) after the last event."},
      {"stop-at", false, "-1", "Stop after this many events when >= 0."},
      {"max-emit-speed", false, "true",
       "Emit as fast as possible; when false, emit each event when its time is due on processing time."},
      {"sluice.seed", false, "0", "Seed of the generator (Sluice addition; runs with the same seed repeat)."},
      {"sluice.base-time", false, "2026-01-01 00:00:00",
       "Event time of the first events, epoch milliseconds or 'yyyy-MM-dd HH:mm:ss[.SSS]' UTC (Sluice addition)."},
  };
  return kSpecs;
}

// Field names of each record, in nexmark_field order, and whether each is a string (else BIGINT or
// a timestamp).
enum class FieldClass { kBigInt, kString, kTimestamp };
struct RecordSpec {
  const char* column;
  std::vector<std::pair<const char*, FieldClass>> fields;
};
const RecordSpec& RecordSpecFor(int kind) {
  using F = FieldClass;
  static const RecordSpec kPerson{"person",
                                  {{"id", F::kBigInt},
                                   {"name", F::kString},
                                   {"emailAddress", F::kString},
                                   {"creditCard", F::kString},
                                   {"city", F::kString},
                                   {"state", F::kString},
                                   {"dateTime", F::kTimestamp},
                                   {"extra", F::kString}}};
  static const RecordSpec kAuction{"auction",
                                   {{"id", F::kBigInt},
                                    {"itemName", F::kString},
                                    {"description", F::kString},
                                    {"initialBid", F::kBigInt},
                                    {"reserve", F::kBigInt},
                                    {"dateTime", F::kTimestamp},
                                    {"expires", F::kTimestamp},
                                    {"seller", F::kBigInt},
                                    {"category", F::kBigInt},
                                    {"extra", F::kString}}};
  static const RecordSpec kBid{"bid",
                               {{"auction", F::kBigInt},
                                {"bidder", F::kBigInt},
                                {"price", F::kBigInt},
                                {"channel", F::kString},
                                {"url", F::kString},
                                {"dateTime", F::kTimestamp},
                                {"extra", F::kString}}};
  return kind == NexmarkOutputColumn::kPerson ? kPerson : (kind == NexmarkOutputColumn::kAuction ? kAuction : kBid);
}

Result<NexmarkOutputColumn> ColumnFor(const std::string& table, const Field& field) {
  auto error = [&](const std::string& what) {
    return Status::InvalidArgument("Column '" + field.name + "' of nexmark table '" + table + "': " + what);
  };
  if (field.name == "event_type") {
    if (field.type.id() != TypeId::kInteger) return error("must be INT, not " + field.type.ToString());
    return NexmarkOutputColumn{NexmarkOutputColumn::kEventType, {}};
  }
  NexmarkOutputColumn::Kind kind;
  if (field.name == "person") kind = NexmarkOutputColumn::kPerson;
  else if (field.name == "auction") kind = NexmarkOutputColumn::kAuction;
  else if (field.name == "bid") kind = NexmarkOutputColumn::kBid;
  else {
    std::string msg = "not a Nexmark column (expected event_type, person, auction or bid).";
    auto near = DidYouMean(field.name, {"event_type", "person", "auction", "bid"});
    if (near) msg += " Did you mean '" + *near + "'?";
    return error(msg);
  }
  const RecordSpec& spec = RecordSpecFor(kind);
  if (field.type.id() != TypeId::kRow) return error("must be a ROW of " + std::string(spec.column) + " fields");
  NexmarkOutputColumn out{kind, {}};
  for (size_t i = 0; i < field.type.num_children(); ++i) {
    const std::string& name = field.type.field_name(i);
    const LogicalType& t = field.type.child(i);
    int found = -1;
    std::vector<std::string> names;
    for (size_t k = 0; k < spec.fields.size(); ++k) {
      names.push_back(spec.fields[k].first);
      if (name == spec.fields[k].first) found = static_cast<int>(k);
    }
    if (found < 0) {
      std::string msg = "unknown field '" + name + "' of a Nexmark " + spec.column + ".";
      auto near = DidYouMean(name, names);
      if (near) msg += " Did you mean '" + *near + "'?";
      return error(msg);
    }
    bool ok = false;
    const char* expected = "";
    switch (spec.fields[static_cast<size_t>(found)].second) {
      case FieldClass::kBigInt: ok = t.id() == TypeId::kBigInt; expected = "BIGINT"; break;
      case FieldClass::kString: ok = t.IsCharacterString(); expected = "VARCHAR/STRING"; break;
      case FieldClass::kTimestamp: ok = t.IsTimestamp(); expected = "TIMESTAMP(3)"; break;
    }
    if (!ok) return error("field '" + name + "' must be " + expected + ", not " + t.ToString());
    out.fields.push_back(static_cast<int8_t>(found));
  }
  return out;
}

class NexmarkSplit final : public SourceSplit {
 public:
  NexmarkSplit(const NexmarkConfig& config, std::vector<NexmarkOutputColumn> columns, GeneratorTiming timing)
      : generator_(config, std::move(columns)), timing_(std::move(timing)), read_start_(generator_.position()) {}

  std::string id() const override { return "nexmark-0"; }

  Result<bool> Read(size_t max_rows, Chunk* out) override {
    read_start_ = generator_.position();
    last_read_rows_ = 0;
    if (!generator_.HasNext()) return generator_.config().keep_alive;
    size_t n = max_rows;
    if (!generator_.config().max_emit_speed) n = WaitForDueEvents(max_rows);
    last_read_rows_ = generator_.Generate(n, out);
    return true;
  }

  // The position is "nexmark-v1 <events generated> <random state>": the generator continues from
  // it with the events an uninterrupted run generates next (nexmark_generator.h), in O(1).
  std::string CheckpointPosition(size_t rows_of_last_read) const override {
    SLUICE_CHECK_LE(rows_of_last_read, last_read_rows_);
    const NexmarkGenerator::Position p =
        rows_of_last_read == 0 ? read_start_ : generator_.PositionAfterGenerated(rows_of_last_read);
    return std::string(kPositionTag) + " " + std::to_string(p.events_so_far) + " " + std::to_string(p.random_state);
  }

  Status SeekToPosition(const std::string& position) override {
    uint64_t v[2];
    RETURN_IF_ERROR(ParseGeneratorPosition(position, kPositionTag, 2, v, "split " + id(),
                                           "nexmark-v1 <events> <random state>"));
    if (v[0] > static_cast<uint64_t>(generator_.max_events())) {
      return Status::InvalidArgument("split " + id() + " has " + std::to_string(generator_.max_events()) +
                                     " events, the checkpoint had read " + std::to_string(v[0]) +
                                     " ('events.num' or 'stop-at' changed since the checkpoint?)");
    }
    const NexmarkGenerator::Position p{static_cast<int64_t>(v[0]), v[1]};
    generator_.Seek(p);
    read_start_ = p;
    last_read_rows_ = 0;
    return Status::OK();
  }

 private:
  // NexmarkSourceReader with 'max-emit-speed' = false: an event is due when processing time has
  // advanced as far past the first read as its event time is past the base time. After a restore
  // the first read is taken to be when the last generated event was due, so the stream continues
  // at its pace instead of waiting out the event time generated before the checkpoint.
  size_t WaitForDueEvents(size_t max_rows) {
    const NexmarkConfig& c = generator_.config();
    if (wallclock_base_us_ < 0) {
      wallclock_base_us_ =
          timing_.clock->NowMicros() - (c.TimestampForEvent(generator_.events_so_far()) - c.base_time_ms) * 1000;
    }
    const int64_t limit = std::min<int64_t>(static_cast<int64_t>(max_rows), generator_.remaining());
    for (;;) {
      const int64_t now = timing_.clock->NowMicros();
      const int64_t due_ms = c.base_time_ms + (now - wallclock_base_us_) / 1000;
      int64_t k = 0;
      while (k < limit && c.TimestampForEvent(1 + generator_.events_so_far() + k) <= due_ms) ++k;
      if (k > 0 || limit == 0) return static_cast<size_t>(k);
      const int64_t next_ms = generator_.NextEventTimestampMs();
      timing_.sleep_micros(std::max<int64_t>((next_ms - due_ms) * 1000, 1));
    }
  }

  static constexpr char kPositionTag[] = "nexmark-v1";

  NexmarkGenerator generator_;
  GeneratorTiming timing_;
  int64_t wallclock_base_us_ = -1;
  NexmarkGenerator::Position read_start_;  // the generator's position before the last Read
  size_t last_read_rows_ = 0;
};

class NexmarkSource final : public TableSource {
 public:
  NexmarkSource(NexmarkConfig config, std::vector<NexmarkOutputColumn> columns, GeneratorTiming timing)
      : config_(config), columns_(std::move(columns)), timing_(std::move(timing)) {}

  bool bounded() const override { return (config_.num_events > 0 || config_.stop_at >= 0) && !config_.keep_alive; }

  Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() override {
    std::vector<std::unique_ptr<SourceSplit>> splits;
    splits.push_back(std::make_unique<NexmarkSplit>(config_, columns_, timing_));
    return splits;
  }

 private:
  NexmarkConfig config_;
  std::vector<NexmarkOutputColumn> columns_;
  GeneratorTiming timing_;
};

class NexmarkFactory final : public ConnectorFactory {
 public:
  explicit NexmarkFactory(GeneratorTiming timing) : timing_(std::move(timing)) {}
  std::string identifier() const override { return "nexmark"; }
  std::vector<OptionSpec> options() const override { return NexmarkOptionSpecs(); }
  bool supports_source() const override { return true; }
  bool supports_sink() const override { return false; }

  Result<std::unique_ptr<TableSource>> CreateSource(const ConnectorContext& ctx) const override {
    const std::string context = ConnectorErrorContext(ctx, ConnectorRole::kSource);
    RETURN_IF_ERROR(ValidateConnectorOptions(ctx, *this, ConnectorRole::kSource).status());
    auto parsed = ParseNexmarkOptions(ctx.table_name, ctx.options);
    if (!parsed.ok()) return parsed.status().WithContext(context);
    const NexmarkConfig config = *parsed;
    if (!ctx.metadata.empty()) {
      return Status::InvalidArgument("Connector 'nexmark' offers no metadata, but table '" + ctx.table_name +
                                     "' declares metadata column '" + ctx.metadata[0].name + "'");
    }
    std::vector<NexmarkOutputColumn> all;
    for (const Field& f : ctx.physical_schema.fields()) {
      auto col = ColumnFor(ctx.table_name, f);
      if (!col.ok()) return col.status().WithContext(context);
      all.push_back(std::move(col).value());
    }
    std::vector<NexmarkOutputColumn> columns;
    if (ctx.projection.empty()) {
      columns = all;
    } else {
      for (int i : ctx.projection) {
        if (i < 0 || static_cast<size_t>(i) >= all.size()) {
          return Status::Internal("projection index " + std::to_string(i) + " out of range for table '" +
                                  ctx.table_name + "'");
        }
        columns.push_back(all[static_cast<size_t>(i)]);
      }
    }
    return std::unique_ptr<TableSource>(new NexmarkSource(config, std::move(columns), timing_));
  }

  Result<std::unique_ptr<TableSink>> CreateSink(const ConnectorContext& ctx) const override {
    return Status::NotSupported("Connector 'nexmark' can only be used as a source; table '" + ctx.table_name +
                                "' cannot be written to");
  }

 private:
  GeneratorTiming timing_;
};

}  // namespace

Result<NexmarkConfig> ParseNexmarkOptions(const std::string& table, const std::map<std::string, std::string>& options) {
  const OptionReader reader(table, &options);
  NexmarkConfig c;
  auto int_opt = [&](const char* key, int64_t min, int32_t* out) -> Status {
    ASSIGN_OR_RETURN(int64_t v, GetIntInRange(reader, key, *out, min, INT32_MAX));
    *out = static_cast<int32_t>(v);
    return Status::OK();
  };
  auto size_opt = [&](const char* key, int32_t* out) -> Status {
    ASSIGN_OR_RETURN(int64_t v, reader.GetMemorySize(key, *out));
    if (v > INT32_MAX) return reader.InvalidValue(key, "'" + reader.GetString(key, "") + "' is larger than 2 GiB");
    *out = static_cast<int32_t>(v);
    return Status::OK();
  };
  RETURN_IF_ERROR(int_opt("first-event.rate", 1, &c.first_event_rate));
  RETURN_IF_ERROR(int_opt("next-event.rate", 1, &c.next_event_rate));
  RETURN_IF_ERROR(int_opt("person.proportion", 0, &c.person_proportion));
  RETURN_IF_ERROR(int_opt("auction.proportion", 0, &c.auction_proportion));
  RETURN_IF_ERROR(int_opt("bid.proportion", 0, &c.bid_proportion));
  RETURN_IF_ERROR(int_opt("bid.hot-ratio.auctions", 1, &c.hot_auction_ratio));
  RETURN_IF_ERROR(int_opt("bid.hot-ratio.bidders", 1, &c.hot_bidders_ratio));
  RETURN_IF_ERROR(int_opt("auction.hot-ratio.sellers", 1, &c.hot_sellers_ratio));
  RETURN_IF_ERROR(size_opt("person.avg-size", &c.avg_person_byte_size));
  RETURN_IF_ERROR(size_opt("auction.avg-size", &c.avg_auction_byte_size));
  RETURN_IF_ERROR(size_opt("bid.avg-size", &c.avg_bid_byte_size));
  ASSIGN_OR_RETURN(c.rate_limited, reader.GetBool("rate.limited", c.rate_limited));
  ASSIGN_OR_RETURN(c.keep_alive, reader.GetBool("keep-alive", c.keep_alive));
  ASSIGN_OR_RETURN(c.max_emit_speed, reader.GetBool("max-emit-speed", c.max_emit_speed));
  if (static_cast<int64_t>(c.person_proportion) + c.auction_proportion + c.bid_proportion > INT32_MAX ||
      c.total_proportion() < 1) {
    return reader.InvalidValue("bid.proportion", "the person, auction and bid proportions must add up to at least 1");
  }
  ASSIGN_OR_RETURN(c.num_events, GetIntInRange(reader, "events.num", 0, 0, INT64_MAX));
  ASSIGN_OR_RETURN(c.stop_at, GetIntInRange(reader, "stop-at", -1, -1, INT64_MAX));
  ASSIGN_OR_RETURN(std::string shape, reader.GetEnum("rate.shape", "SQUARE", {"SQUARE", "SINE"}));
  (void)shape;  // the Java generator's single inter-event delay ignores the shape
  ASSIGN_OR_RETURN(int64_t period_ms, reader.GetDurationMillis("rate.period", 600000));
  (void)period_ms;
  ASSIGN_OR_RETURN(c.seed, reader.GetInt("sluice.seed", c.seed));
  if (reader.Has("sluice.base-time")) {
    const std::string text = reader.GetString("sluice.base-time", "");
    auto millis = reader.GetInt("sluice.base-time", 0);
    if (millis.ok()) {
      c.base_time_ms = *millis;
    } else if (auto ts = ParseTimestamp(text)) {
      c.base_time_ms = FloorDiv(*ts, kMicrosPerMilli);
    } else {
      return reader.InvalidValue("sluice.base-time",
                                 "'" + text + "' is neither epoch milliseconds nor a 'yyyy-MM-dd HH:mm:ss' timestamp");
    }
  }
  return c;
}

std::unique_ptr<ConnectorFactory> MakeNexmarkConnectorFactory() {
  return MakeNexmarkConnectorFactory(GeneratorTiming::System());
}

std::unique_ptr<ConnectorFactory> MakeNexmarkConnectorFactory(GeneratorTiming timing) {
  return std::make_unique<NexmarkFactory>(std::move(timing));
}

}  // namespace sluice
