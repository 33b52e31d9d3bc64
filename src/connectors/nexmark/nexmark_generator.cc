#include "connectors/nexmark/nexmark_generator.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/check.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr int64_t kFirstAuctionId = 1000;
constexpr int64_t kFirstPersonId = 1000;
constexpr int64_t kFirstCategoryId = 10;
constexpr int kNumCategories = 5;
constexpr int kPersonIdLead = 10;
constexpr int kAuctionIdLead = 10;
// The batch sizes hot sellers/auctions/bidders are chosen from (HOT_*_RATIO constants of the Java
// generators; distinct from the configurable probabilities 'bid.hot-ratio.*').
constexpr int64_t kHotSellerBatch = 100;
constexpr int64_t kHotAuctionBatch = 100;
constexpr int64_t kHotBidderBatch = 100;
constexpr int kHotChannelsRatio = 2;
constexpr int kChannelsNumber = 10000;
constexpr int kMinStringLength = 3;
constexpr int kReusableExtraLength = 1024 * 1024;

constexpr std::string_view kHotChannels[] = {"Google", "Facebook", "Baidu", "Apple"};
constexpr std::string_view kUsStates[] = {"AZ", "CA", "ID", "OR", "WA", "WY"};
constexpr std::string_view kUsCities[] = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland",
                                          "Bend",    "Redmond",     "Seattle",       "Kent",  "Cheyenne"};
constexpr std::string_view kFirstNames[] = {"Peter", "Paul",  "Luke",  "John",   "Saul",  "Vicky",
                                            "Kate",  "Julie", "Sarah", "Deiter", "Walter"};
constexpr std::string_view kLastNames[] = {"Shultz", "Abrams", "Spencer", "White", "Bartels",
                                           "Walton", "Smith",  "Jones",   "Noris"};
constexpr int kNumFirstNames = sizeof(kFirstNames) / sizeof(kFirstNames[0]);
constexpr int kNumLastNames = sizeof(kLastNames) / sizeof(kLastNames[0]);

// StringsGenerator.nextString with a given random source, appended to `out`.
void AppendNextString(SplittableRandom& random, int max_length, char special, std::string* out) {
  char buf[256];
  int len = kMinStringLength + random.NextInt(max_length - kMinStringLength);
  for (int i = 0; i < len; ++i) {
    buf[i] = random.NextInt(13) == 0 ? special : static_cast<char>('a' + random.NextInt(26));
  }
  int b = 0, e = len;
  while (b < e && static_cast<unsigned char>(buf[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(buf[e - 1]) <= ' ') --e;
  out->append(buf + b, static_cast<size_t>(e - b));
}

// StringsGenerator.nextExactString without the reusable text: six letters per random int, from
// 'a' + (rnd % 26) with Java's signed remainder (so negative ints give letters below 'a').
void AppendExactString(SplittableRandom& random, int64_t length, char* out) {
  int32_t rnd = 0;
  int n = 0;
  for (int64_t i = 0; i < length; ++i) {
    if (n == 0) {
      rnd = random.NextInt();
      n = 6;
    }
    out[i] = static_cast<char>('a' + rnd % 26);
    rnd /= 26;
    --n;
  }
}

std::string BaseUrl(SplittableRandom& random) {
  std::string url = "https://www.nexmark.com/";
  AppendNextString(random, 5, '_', &url);
  url += '/';
  AppendNextString(random, 5, '_', &url);
  url += '/';
  AppendNextString(random, 5, '_', &url);
  url += '/';
  url += "item.htm?query=1";
  return url;
}

int32_t ReverseBits(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) {
    r = (r << 1) | (v & 1);
    v >>= 1;
  }
  return static_cast<int32_t>(r);
}

// Java's Math.round(double) for the finite, non-huge values the generator produces.
int64_t JavaRound(double x) { return static_cast<int64_t>(std::floor(x + 0.5)); }

}  // namespace

struct NexmarkTables {
  std::shared_ptr<StringHeap> heap = std::make_shared<StringHeap>();
  std::string_view extra;
  std::string_view hot_urls[4];
  std::vector<std::string_view> channels;
  std::vector<std::string_view> urls;
  std::string_view names[kNumFirstNames * kNumLastNames];

  explicit NexmarkTables(int64_t seed) {
    SplittableRandom extra_random(seed + 1);
    char* text = heap->Allocate(kReusableExtraLength);
    AppendExactString(extra_random, kReusableExtraLength, text);
    extra = std::string_view(text, kReusableExtraLength);

    SplittableRandom bid_random(seed + 2);
    for (auto& u : hot_urls) u = heap->Add(BaseUrl(bid_random));
    channels.reserve(kChannelsNumber);
    urls.reserve(kChannelsNumber);
    for (int i = 0; i < kChannelsNumber; ++i) {
      std::string url = BaseUrl(bid_random);
      if (bid_random.NextInt(10) > 0) {
        int32_t rev = ReverseBits(static_cast<uint32_t>(i));
        // Math.abs(Integer.MIN_VALUE) stays negative in Java.
        int64_t abs_rev = rev == INT32_MIN ? rev : std::abs(static_cast<int64_t>(rev));
        url += "&channel_id=" + std::to_string(abs_rev);
      }
      urls.push_back(heap->Add(url));
      channels.push_back(heap->Add("channel-" + std::to_string(i)));
    }
    for (int f = 0; f < kNumFirstNames; ++f) {
      for (int l = 0; l < kNumLastNames; ++l) {
        names[f * kNumLastNames + l] = heap->Add(std::string(kFirstNames[f]) + " " + std::string(kLastNames[l]));
      }
    }
  }
};

int64_t NexmarkConfig::max_events() const {
  int64_t max = num_events;
  if (max == 0) {
    int64_t biggest = std::max({avg_person_byte_size, avg_auction_byte_size, avg_bid_byte_size, 1});
    max = INT64_MAX / (static_cast<int64_t>(total_proportion()) * biggest);
  }
  return stop_at < 0 ? max : std::min(stop_at, max);
}

int64_t NexmarkConfig::LastBase0PersonId(int64_t event_id) const {
  int64_t epoch = event_id / total_proportion();
  int64_t offset = event_id % total_proportion();
  if (offset >= person_proportion) offset = person_proportion - 1;
  return epoch * person_proportion + offset;
}

int64_t NexmarkConfig::LastBase0AuctionId(int64_t event_id) const {
  int64_t epoch = event_id / total_proportion();
  int64_t offset = event_id % total_proportion();
  if (offset < person_proportion) {
    --epoch;
    offset = auction_proportion - 1;
  } else if (offset >= person_proportion + auction_proportion) {
    offset = auction_proportion - 1;
  } else {
    offset -= person_proportion;
  }
  return epoch * auction_proportion + offset;
}

NexmarkGenerator::NexmarkGenerator(const NexmarkConfig& config, std::vector<NexmarkOutputColumn> columns)
    : config_(config), columns_(std::move(columns)), random_(config.seed) {
  auto tables = std::make_shared<NexmarkTables>(config.seed);
  tables_heap_ = tables->heap;
  tables_ = std::move(tables);
  max_events_ = config_.max_events();
}

NexmarkGenerator::~NexmarkGenerator() = default;

Schema NexmarkGenerator::DdlSchema() {
  auto big = LogicalType::BigInt();
  auto str = LogicalType::String();
  auto ts = LogicalType::Timestamp(3);
  Schema s;
  s.Add("event_type", LogicalType::Integer());
  s.Add("person", LogicalType::Row({"id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"},
                                   {big, str, str, str, str, str, ts, str}));
  s.Add("auction", LogicalType::Row({"id", "itemName", "description", "initialBid", "reserve", "dateTime", "expires",
                                     "seller", "category", "extra"},
                                    {big, str, str, big, big, ts, ts, big, big, str}));
  s.Add("bid", LogicalType::Row({"auction", "bidder", "price", "channel", "url", "dateTime", "extra"},
                                {big, big, big, str, str, ts, str}));
  return s;
}

std::vector<NexmarkOutputColumn> NexmarkGenerator::AllColumns() {
  return {{NexmarkOutputColumn::kEventType, {}},
          {NexmarkOutputColumn::kPerson, {0, 1, 2, 3, 4, 5, 6, 7}},
          {NexmarkOutputColumn::kAuction, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
          {NexmarkOutputColumn::kBid, {0, 1, 2, 3, 4, 5, 6}}};
}

int64_t NexmarkGenerator::NextLong(int64_t n) {
  // LongGenerator.nextLong.
  if (n < INT32_MAX) return random_.NextInt(static_cast<int32_t>(n));
  int64_t r = random_.NextLong() % n;
  return r < 0 ? -r : r;
}

int64_t NexmarkGenerator::NextPrice() { return JavaRound(std::pow(10.0, random_.NextDouble() * 6.0) * 100.0); }

int64_t NexmarkGenerator::NextBase0PersonId(int64_t event_id) {
  int64_t num_people = config_.LastBase0PersonId(event_id) + 1;
  int64_t active_people = std::min<int64_t>(num_people, config_.num_active_people);
  int64_t n = NextLong(active_people + kPersonIdLead);
  return num_people - active_people + n;
}

int64_t NexmarkGenerator::NextBase0AuctionId(int64_t event_id) {
  int64_t max_auction = config_.LastBase0AuctionId(event_id);
  int64_t min_auction = std::max<int64_t>(max_auction - config_.num_in_flight_auctions, 0);
  return min_auction + NextLong(max_auction - min_auction + 1 + kAuctionIdLead);
}

std::string_view NexmarkGenerator::NextString(int max_length, char special, char* buf) {
  int len = kMinStringLength + random_.NextInt(max_length - kMinStringLength);
  for (int i = 0; i < len; ++i) {
    buf[i] = random_.NextInt(13) == 0 ? special : static_cast<char>('a' + random_.NextInt(26));
  }
  int b = 0, e = len;
  while (b < e && static_cast<unsigned char>(buf[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(buf[e - 1]) <= ' ') --e;
  return std::string_view(buf + b, static_cast<size_t>(e - b));
}

std::string_view NexmarkGenerator::NextExtra(int current_size, int desired_average_size, StringHeap* heap) {
  if (current_size > desired_average_size) return std::string_view();
  int desired = desired_average_size - current_size;
  int delta = static_cast<int>(JavaRound(desired * 0.2));
  int min_size = desired - delta;
  int size = min_size + (delta == 0 ? 0 : random_.NextInt(2 * delta));
  const std::string_view text = tables_->extra;
  if (static_cast<size_t>(size) < text.size() / 2) {
    int offset = random_.NextInt(static_cast<int32_t>(text.size()) - size);
    return text.substr(static_cast<size_t>(offset), static_cast<size_t>(size));
  }
  char* out;
  if (heap != nullptr) {
    out = heap->Allocate(static_cast<size_t>(size));
  } else {
    scratch_.resize(static_cast<size_t>(size));
    out = scratch_.data();
  }
  AppendExactString(random_, size, out);
  return std::string_view(out, static_cast<size_t>(size));
}

std::string_view NexmarkGenerator::Store(const FieldOut& f, std::string_view s) { return f.vec->heap().Add(s); }

void NexmarkGenerator::NextPerson(int64_t event_id, int64_t ts_ms, size_t row, const RecordOut& out) {
  using namespace nexmark_field;
  const int64_t id = config_.LastBase0PersonId(event_id) + kFirstPersonId;
  const int first = random_.NextInt(kNumFirstNames);
  const int last = random_.NextInt(kNumLastNames);
  const std::string_view name = tables_->names[first * kNumLastNames + last];
  char email[32];
  char part[16];
  std::string_view user = NextString(7, ' ', part);
  size_t len = user.size();
  std::memcpy(email, user.data(), len);
  email[len++] = '@';
  std::string_view domain = NextString(5, ' ', part);
  std::memcpy(email + len, domain.data(), domain.size());
  len += domain.size();
  std::memcpy(email + len, ".com", 4);
  len += 4;
  char card[19];
  for (int i = 0; i < 4; ++i) {
    int v = random_.NextInt(10000);
    char* p = card + i * 5;
    if (i > 0) p[-1] = ' ';
    p[0] = static_cast<char>('0' + v / 1000);
    p[1] = static_cast<char>('0' + v / 100 % 10);
    p[2] = static_cast<char>('0' + v / 10 % 10);
    p[3] = static_cast<char>('0' + v % 10);
  }
  const std::string_view city = kUsCities[random_.NextInt(10)];
  const std::string_view state = kUsStates[random_.NextInt(6)];
  const int current_size = static_cast<int>(8 + name.size() + len + sizeof(card) + city.size() + state.size());
  const FieldOut& extra_out = out.f[kPersonExtra];
  std::string_view extra = NextExtra(current_size, config_.avg_person_byte_size,
                                     extra_out.str ? &extra_out.vec->heap() : nullptr);
  if (!out.present) return;
  if (out.f[kPersonId].i64) out.f[kPersonId].i64[row] = id;
  if (out.f[kName].str) out.f[kName].str[row] = name;
  if (out.f[kEmailAddress].str) out.f[kEmailAddress].str[row] = Store(out.f[kEmailAddress], {email, len});
  if (out.f[kCreditCard].str) out.f[kCreditCard].str[row] = Store(out.f[kCreditCard], {card, sizeof(card)});
  if (out.f[kCity].str) out.f[kCity].str[row] = city;
  if (out.f[kState].str) out.f[kState].str[row] = state;
  if (out.f[kPersonDateTime].i64) out.f[kPersonDateTime].i64[row] = ts_ms * 1000;
  if (extra_out.str) extra_out.str[row] = extra;
}

void NexmarkGenerator::NextAuction(int64_t event_id, int64_t ts_ms, size_t row, const RecordOut& out) {
  using namespace nexmark_field;
  const int64_t id = config_.LastBase0AuctionId(event_id) + kFirstAuctionId;
  int64_t seller;
  if (random_.NextInt(config_.hot_sellers_ratio) > 0) {
    seller = (config_.LastBase0PersonId(event_id) / kHotSellerBatch) * kHotSellerBatch;
  } else {
    seller = NextBase0PersonId(event_id);
  }
  seller += kFirstPersonId;
  const int64_t category = kFirstCategoryId + random_.NextInt(kNumCategories);
  const int64_t initial_bid = NextPrice();
  // AuctionGenerator.nextAuctionLengthMs: an average length of the time until numInFlightAuctions
  // more auctions have been generated.
  const int64_t current_event_number = 1 + events_so_far_;
  const int64_t events_for_auctions = (static_cast<int64_t>(config_.num_in_flight_auctions) *
                                       config_.total_proportion()) / config_.auction_proportion;
  const int64_t future_auction = config_.TimestampForEvent(current_event_number + events_for_auctions);
  const int64_t horizon_ms = future_auction - ts_ms;
  const int64_t expires = ts_ms + 1 + NextLong(std::max<int64_t>(horizon_ms * 2, 1));
  char name_buf[20];
  char desc_buf[100];
  const std::string_view name = NextString(20, ' ', name_buf);
  const std::string_view desc = NextString(100, ' ', desc_buf);
  const int64_t reserve = initial_bid + NextPrice();
  const int current_size = static_cast<int>(8 + name.size() + desc.size() + 8 + 8 + 8 + 8 + 8);
  const FieldOut& extra_out = out.f[kAuctionExtra];
  std::string_view extra = NextExtra(current_size, config_.avg_auction_byte_size,
                                     extra_out.str ? &extra_out.vec->heap() : nullptr);
  if (!out.present) return;
  if (out.f[kAuctionId].i64) out.f[kAuctionId].i64[row] = id;
  if (out.f[kItemName].str) out.f[kItemName].str[row] = Store(out.f[kItemName], name);
  if (out.f[kDescription].str) out.f[kDescription].str[row] = Store(out.f[kDescription], desc);
  if (out.f[kInitialBid].i64) out.f[kInitialBid].i64[row] = initial_bid;
  if (out.f[kReserve].i64) out.f[kReserve].i64[row] = reserve;
  if (out.f[kAuctionDateTime].i64) out.f[kAuctionDateTime].i64[row] = ts_ms * 1000;
  if (out.f[kExpires].i64) out.f[kExpires].i64[row] = expires * 1000;
  if (out.f[kSeller].i64) out.f[kSeller].i64[row] = seller;
  if (out.f[kCategory].i64) out.f[kCategory].i64[row] = category;
  if (extra_out.str) extra_out.str[row] = extra;
}

void NexmarkGenerator::NextBid(int64_t event_id, int64_t ts_ms, size_t row, const RecordOut& out) {
  using namespace nexmark_field;
  int64_t auction;
  if (random_.NextInt(config_.hot_auction_ratio) > 0) {
    auction = (config_.LastBase0AuctionId(event_id) / kHotAuctionBatch) * kHotAuctionBatch;
  } else {
    auction = NextBase0AuctionId(event_id);
  }
  auction += kFirstAuctionId;
  int64_t bidder;
  if (random_.NextInt(config_.hot_bidders_ratio) > 0) {
    // The second person of the batch, so hot bidders and hot sellers differ.
    bidder = (config_.LastBase0PersonId(event_id) / kHotBidderBatch) * kHotBidderBatch + 1;
  } else {
    bidder = NextBase0PersonId(event_id);
  }
  bidder += kFirstPersonId;
  const int64_t price = NextPrice();
  std::string_view channel;
  std::string_view url;
  if (random_.NextInt(kHotChannelsRatio) > 0) {
    int i = random_.NextInt(4);
    channel = kHotChannels[i];
    url = tables_->hot_urls[i];
  } else {
    int i = random_.NextInt(kChannelsNumber);
    channel = tables_->channels[static_cast<size_t>(i)];
    url = tables_->urls[static_cast<size_t>(i)];
  }
  // The Java BidGenerator adds the first person id a second time; kept for identical data.
  bidder += kFirstPersonId;
  const FieldOut& extra_out = out.f[kBidExtra];
  std::string_view extra =
      NextExtra(8 + 8 + 8 + 8, config_.avg_bid_byte_size, extra_out.str ? &extra_out.vec->heap() : nullptr);
  if (!out.present) return;
  if (out.f[kAuction].i64) out.f[kAuction].i64[row] = auction;
  if (out.f[kBidder].i64) out.f[kBidder].i64[row] = bidder;
  if (out.f[kPrice].i64) out.f[kPrice].i64[row] = price;
  if (out.f[kChannel].str) out.f[kChannel].str[row] = channel;
  if (out.f[kUrl].str) out.f[kUrl].str[row] = url;
  if (out.f[kBidDateTime].i64) out.f[kBidDateTime].i64[row] = ts_ms * 1000;
  if (extra_out.str) extra_out.str[row] = extra;
}

size_t NexmarkGenerator::Generate(size_t max_events, Chunk* out) {
  SLUICE_CHECK_EQ(out->num_columns(), columns_.size());
  const size_t n = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(max_events), remaining()));
  last_start_events_ = events_so_far_;
  random_after_.resize(n);
  if (n == 0) return 0;
  const size_t base = out->size();
  out->Resize(base + n);

  int32_t* event_type = nullptr;
  RecordOut records[3];
  for (size_t c = 0; c < columns_.size(); ++c) {
    Vector& v = out->column(c);
    const NexmarkOutputColumn& col = columns_[c];
    if (col.kind == NexmarkOutputColumn::kEventType) {
      event_type = v.data<int32_t>();
      continue;
    }
    RecordOut& r = records[col.kind - 1];
    r.present = true;
    r.validity = v.mutable_validity();
    for (size_t j = 0; j < col.fields.size(); ++j) {
      Vector& child = v.child(j);
      FieldOut& f = r.f[static_cast<size_t>(col.fields[j])];
      f.vec = &child;
      f.validity = child.mutable_validity();
      r.child_validity.push_back(f.validity);
      if (child.type().IsStringLike()) {
        f.str = child.data<std::string_view>();
        child.AddHeap(tables_heap_);
      } else {
        f.i64 = child.data<int64_t>();
      }
    }
  }
  // Fields of records that are not requested still consume their random draws (see the header).
  static const RecordOut kNone;
  const RecordOut& person_out = records[0].present ? records[0] : kNone;
  const RecordOut& auction_out = records[1].present ? records[1] : kNone;
  const RecordOut& bid_out = records[2].present ? records[2] : kNone;

  const int64_t total = config_.total_proportion();
  const int64_t person_end = config_.person_proportion;
  const int64_t auction_end = person_end + config_.auction_proportion;
  for (size_t i = 0; i < n; ++i) {
    const size_t row = base + i;
    const int64_t event_number = 1 + events_so_far_;  // GeneratorConfig.firstEventNumber is 1
    const int64_t event_id = 1 + event_number;        // GeneratorConfig.firstEventId is 1
    const int64_t ts_ms = config_.TimestampForEvent(event_number);
    const int64_t rem = event_id % total;
    const int type = rem < person_end ? 0 : (rem < auction_end ? 1 : 2);
    if (event_type) event_type[row] = type;
    for (int k = 0; k < 3; ++k) {
      if (!records[k].present) continue;
      const uint8_t valid = k == type ? 1 : 0;
      records[k].validity[row] = valid;
      for (uint8_t* cv : records[k].child_validity) cv[row] = valid;
    }
    switch (type) {
      case 0: NextPerson(event_id, ts_ms, row, person_out); break;
      case 1: NextAuction(event_id, ts_ms, row, auction_out); break;
      default: NextBid(event_id, ts_ms, row, bid_out); break;
    }
    random_after_[i] = random_.state();
    ++events_so_far_;
  }
  return n;
}

NexmarkGenerator::Position NexmarkGenerator::PositionAfterGenerated(size_t k) const {
  SLUICE_CHECK(k >= 1 && k <= random_after_.size());
  return {last_start_events_ + static_cast<int64_t>(k), random_after_[k - 1]};
}

void NexmarkGenerator::Seek(const Position& p) {
  SLUICE_CHECK(p.events_so_far >= 0 && p.events_so_far <= max_events_);
  events_so_far_ = p.events_so_far;
  random_ = SplittableRandom::FromState(p.random_state);
  last_start_events_ = events_so_far_;
  random_after_.clear();
}

}  // namespace sluice
