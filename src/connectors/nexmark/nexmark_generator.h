// NexmarkGenerator: the Nexmark event generator of the nexmark/nexmark repository (its Flink
// generator: GeneratorConfig, NexmarkGenerator, Person/Auction/Bid generators), rewritten to fill
// columnar chunks directly.
//
// Model (facts taken from the Java generator):
//  - Events come in epochs of person+auction+bid proportion events (1:3:46 by default); the event
//    with id `e` is a person when e % total < person, an auction when < person + auction, else a
//    bid. Event ids start at 2 (first event id 1 plus first event number 1).
//  - Person and auction ids are dense (first id 1000); bids and auctions pick sellers, bidders and
//    auctions among recent ones, 'hot' ones with probability 1 - 1/ratio.
//  - Event time of the n-th event (n from 1) is base-time + (long)(n * 1e6/first-event.rate) / 1000
//    milliseconds.
//  - Every random decision is drawn, in Java's order, from java.util.SplittableRandom(seed)
//    (splittable_random.h), so the same seed gives the same events as a seeded Java generator.
//    The Java generator also builds process-wide tables with unseeded generators (the 1 MiB string
//    'extra' fields are cut from, the bid channel/URL table); here they are seeded with seed + 1 and
//    seed + 2 so runs repeat.
//  - As in the Java BidGenerator, a bid's bidder gets the first person id (1000) added twice.
//
// Only the requested columns are written (OutputColumn), but the random stream is consumed
// identically whatever is requested, so a projection never changes the values of other columns.
// Strings that come from fixed tables (channels, URLs, cities, names, 'extra') are views into one
// shared heap; generated strings (emails, credit cards, item names) go into the vector's heap.
//
// Threading: one generator is used by one reader thread.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "connectors/nexmark/splittable_random.h"

namespace sluice {

class Chunk;
class Schema;
class StringHeap;
class Vector;

// Nexmark settings (NexmarkConfiguration's fields that affect generation), with its defaults.
struct NexmarkConfig {
  // 2026-01-01 00:00:00 UTC in milliseconds: a fixed base time so runs repeat (Flink uses "now").
  static constexpr int64_t kDefaultBaseTimeMs = 1767225600000LL;

  int64_t num_events = 0;  // 'events.num': 0 means (practically) unbounded
  int64_t stop_at = -1;    // 'stop-at'
  int32_t first_event_rate = 10000;
  int32_t next_event_rate = 10000;  // accepted; the Java generator uses only the first rate
  int32_t num_event_generators = 1;
  int32_t person_proportion = 1;
  int32_t auction_proportion = 3;
  int32_t bid_proportion = 46;
  int32_t avg_person_byte_size = 200;
  int32_t avg_auction_byte_size = 500;
  int32_t avg_bid_byte_size = 100;
  int32_t hot_auction_ratio = 2;
  int32_t hot_sellers_ratio = 4;
  int32_t hot_bidders_ratio = 4;
  int32_t num_in_flight_auctions = 100;
  int32_t num_active_people = 1000;
  int64_t base_time_ms = kDefaultBaseTimeMs;
  int64_t seed = 0;
  bool max_emit_speed = true;
  bool keep_alive = false;
  bool rate_limited = false;  // 'rate.limited': parsed; unused, as in the Java source reader

  int32_t total_proportion() const { return person_proportion + auction_proportion + bid_proportion; }
  // Microseconds between two events' timestamps.
  double inter_event_delay_us() const { return 1000000.0 / first_event_rate * num_event_generators; }
  // GeneratorConfig.maxEvents, capped by stop-at.
  int64_t max_events() const;
  // Event time in milliseconds of the event with number `event_number` (the first is 1).
  int64_t TimestampForEvent(int64_t event_number) const {
    return base_time_ms + static_cast<int64_t>(static_cast<double>(event_number) * inter_event_delay_us()) / 1000;
  }
  // The Java generators' id arithmetic (base 0, before adding the first id 1000).
  int64_t LastBase0PersonId(int64_t event_id) const;
  int64_t LastBase0AuctionId(int64_t event_id) const;
};

enum class NexmarkEventType : int32_t { kPerson = 0, kAuction = 1, kBid = 2 };

// The record fields, numbered in the order of Nexmark's DDL.
namespace nexmark_field {
enum Person : int8_t { kPersonId, kName, kEmailAddress, kCreditCard, kCity, kState, kPersonDateTime, kPersonExtra };
enum Auction : int8_t {
  kAuctionId, kItemName, kDescription, kInitialBid, kReserve, kAuctionDateTime, kExpires, kSeller, kCategory,
  kAuctionExtra
};
enum Bid : int8_t { kAuction, kBidder, kPrice, kChannel, kUrl, kBidDateTime, kBidExtra };
}  // namespace nexmark_field

// One output column: event_type (INT), or a person/auction/bid ROW with the listed fields (by
// nexmark_field number, in the ROW's child order).
struct NexmarkOutputColumn {
  enum Kind : int8_t { kEventType, kPerson, kAuction, kBid };
  Kind kind;
  std::vector<int8_t> fields;
};

// The fixed tables of the generator (strings that events point into). Immutable once built.
struct NexmarkTables;

class NexmarkGenerator {
 public:
  NexmarkGenerator(const NexmarkConfig& config, std::vector<NexmarkOutputColumn> columns);
  ~NexmarkGenerator();

  // The physical columns of Nexmark's Flink DDL: event_type, person, auction, bid.
  static Schema DdlSchema();
  // All four columns with all their fields, in DDL order.
  static std::vector<NexmarkOutputColumn> AllColumns();

  const NexmarkConfig& config() const { return config_; }
  bool HasNext() const { return events_so_far_ < max_events_; }
  int64_t events_so_far() const { return events_so_far_; }
  int64_t remaining() const { return max_events_ - events_so_far_; }
  // Event time (ms) of the next event (its wall-clock due time is relative to the first one's).
  int64_t NextEventTimestampMs() const { return config_.TimestampForEvent(1 + events_so_far_); }

  // Appends min(max_events, remaining()) events to `out`, whose columns are laid out as the
  // constructor's `columns`. Returns the number appended.
  size_t Generate(size_t max_events, Chunk* out);

  // Checkpoints. The generator's whole state is the number of events generated and the random
  // generator's one word: every event after them is a function of the two, so a restored
  // generator continues with exactly the events an uninterrupted one would have generated.
  struct Position {
    int64_t events_so_far = 0;
    uint64_t random_state = 0;
  };
  Position position() const { return {events_so_far_, random_.state()}; }
  // The position after the first `k` events of the last Generate call (1 <= k <= its count).
  Position PositionAfterGenerated(size_t k) const;
  // Continues from `p` (a position of a generator with the same config, p.events_so_far <=
  // max_events, which the caller checks).
  void Seek(const Position& p);
  int64_t max_events() const { return max_events_; }

 private:
  struct FieldOut {
    int64_t* i64 = nullptr;
    std::string_view* str = nullptr;
    uint8_t* validity = nullptr;
    Vector* vec = nullptr;
  };
  struct RecordOut {
    bool present = false;
    uint8_t* validity = nullptr;
    std::array<FieldOut, 10> f{};
    std::vector<uint8_t*> child_validity;
  };

  void NextPerson(int64_t event_id, int64_t ts_ms, size_t row, const RecordOut& out);
  void NextAuction(int64_t event_id, int64_t ts_ms, size_t row, const RecordOut& out);
  void NextBid(int64_t event_id, int64_t ts_ms, size_t row, const RecordOut& out);
  int64_t NextLong(int64_t n);
  int64_t NextPrice();
  int64_t NextBase0PersonId(int64_t event_id);
  int64_t NextBase0AuctionId(int64_t event_id);
  // StringsGenerator.nextString into buf (room for max_length chars); returns the trimmed view.
  std::string_view NextString(int max_length, char special, char* buf);
  // StringsGenerator.nextExtra: a view into the shared extra text (or into `heap` when longer).
  std::string_view NextExtra(int current_size, int desired_average_size, StringHeap* heap);
  static std::string_view Store(const FieldOut& f, std::string_view s);

  NexmarkConfig config_;
  std::vector<NexmarkOutputColumn> columns_;
  std::shared_ptr<const NexmarkTables> tables_;
  std::shared_ptr<StringHeap> tables_heap_;
  SplittableRandom random_;
  int64_t events_so_far_ = 0;
  int64_t max_events_ = 0;
  // The events before the last Generate call and the random state after each of its events.
  int64_t last_start_events_ = 0;
  std::vector<uint64_t> random_after_;
  std::string scratch_;  // long 'extra' strings of columns that are not requested
};

}  // namespace sluice
