#include "connectors/nexmark/nexmark_connector.h"

#include <algorithm>

#include "common/clock.h"
#include "common/time_util.h"
#include "connectors/datagen/generator_options.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {

namespace go = generator_options;

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

std::vector<std::string> SupportedKeys() {
  std::vector<std::string> keys;
  for (const auto& s : NexmarkOptionSpecs()) keys.push_back(s.key);
  return keys;
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
    std::string near = go::ClosestMatch(field.name, {"event_type", "person", "auction", "bid"});
    if (!near.empty()) msg += " Did you mean '" + near + "'?";
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
      std::string near = go::ClosestMatch(name, names);
      if (!near.empty()) msg += " Did you mean '" + near + "'?";
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
      : generator_(config, std::move(columns)), timing_(std::move(timing)) {}

  std::string id() const override { return "nexmark-0"; }

  Result<bool> Read(size_t max_rows, Chunk* out) override {
    if (!generator_.HasNext()) return generator_.config().keep_alive;
    size_t n = max_rows;
    if (!generator_.config().max_emit_speed) n = WaitForDueEvents(max_rows);
    generator_.Generate(n, out);
    return true;
  }

 private:
  // NexmarkSourceReader with 'max-emit-speed' = false: an event is due when processing time has
  // advanced as far past the first read as its event time is past the base time.
  size_t WaitForDueEvents(size_t max_rows) {
    const NexmarkConfig& c = generator_.config();
    if (wallclock_base_us_ < 0) wallclock_base_us_ = timing_.clock->NowMicros();
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

  NexmarkGenerator generator_;
  GeneratorTiming timing_;
  int64_t wallclock_base_us_ = -1;
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
    ASSIGN_OR_RETURN(NexmarkConfig config, ParseNexmarkOptions(ctx.table_name, ctx.options));
    if (!ctx.metadata.empty()) {
      return Status::InvalidArgument("Connector 'nexmark' offers no metadata, but table '" + ctx.table_name +
                                     "' declares metadata column '" + ctx.metadata[0].name + "'");
    }
    std::vector<NexmarkOutputColumn> all;
    for (const Field& f : ctx.physical_schema.fields()) {
      ASSIGN_OR_RETURN(NexmarkOutputColumn col, ColumnFor(ctx.table_name, f));
      all.push_back(std::move(col));
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
  RETURN_IF_ERROR(go::CheckSupportedOptions(table, "nexmark", options, SupportedKeys()));
  NexmarkConfig c;
  auto get = [&](const char* key) -> const std::string* {
    auto it = options.find(key);
    return it == options.end() ? nullptr : &it->second;
  };
  auto int_opt = [&](const char* key, int64_t min, int32_t* out) -> Status {
    if (const std::string* v = get(key)) {
      ASSIGN_OR_RETURN(int64_t x, go::ParseInt(table, key, *v, min, INT32_MAX));
      *out = static_cast<int32_t>(x);
    }
    return Status::OK();
  };
  auto size_opt = [&](const char* key, int32_t* out) -> Status {
    if (const std::string* v = get(key)) {
      ASSIGN_OR_RETURN(int64_t x, go::ParseMemorySize(table, key, *v));
      if (x > INT32_MAX) return go::InvalidOption(table, key, "'" + *v + "' is larger than 2 GiB");
      *out = static_cast<int32_t>(x);
    }
    return Status::OK();
  };
  auto bool_opt = [&](const char* key, bool* out) -> Status {
    if (const std::string* v = get(key)) {
      ASSIGN_OR_RETURN(*out, go::ParseBool(table, key, *v));
    }
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
  RETURN_IF_ERROR(bool_opt("rate.limited", &c.rate_limited));
  RETURN_IF_ERROR(bool_opt("keep-alive", &c.keep_alive));
  RETURN_IF_ERROR(bool_opt("max-emit-speed", &c.max_emit_speed));
  if (static_cast<int64_t>(c.person_proportion) + c.auction_proportion + c.bid_proportion > INT32_MAX ||
      c.total_proportion() < 1) {
    return go::InvalidOption(table, "bid.proportion",
                             "the person, auction and bid proportions must add up to at least 1");
  }
  if (const std::string* v = get("events.num")) {
    ASSIGN_OR_RETURN(c.num_events, go::ParseLong(table, "events.num", *v, 0, INT64_MAX));
  }
  if (const std::string* v = get("stop-at")) {
    ASSIGN_OR_RETURN(c.stop_at, go::ParseLong(table, "stop-at", *v, -1, INT64_MAX));
  }
  if (const std::string* v = get("rate.shape")) {
    std::string s = *v;
    for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (s != "SQUARE" && s != "SINE") {
      return go::InvalidOption(table, "rate.shape", "'" + *v + "' is not one of SQUARE, SINE");
    }
  }
  if (const std::string* v = get("rate.period")) {
    ASSIGN_OR_RETURN(int64_t ms, go::ParseDurationMillis(table, "rate.period", *v));
    (void)ms;
  }
  if (const std::string* v = get("sluice.seed")) {
    ASSIGN_OR_RETURN(c.seed, go::ParseLong(table, "sluice.seed", *v));
  }
  if (const std::string* v = get("sluice.base-time")) {
    auto millis = go::ParseLong(table, "sluice.base-time", *v);
    if (millis.ok()) {
      c.base_time_ms = *millis;
    } else if (auto ts = ParseTimestamp(*v)) {
      c.base_time_ms = FloorDiv(*ts, kMicrosPerMilli);
    } else {
      return go::InvalidOption(table, "sluice.base-time",
                               "'" + *v + "' is neither epoch milliseconds nor a 'yyyy-MM-dd HH:mm:ss' timestamp");
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
