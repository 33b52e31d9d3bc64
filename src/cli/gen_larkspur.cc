// The Larkspur replay generator (see gen_larkspur.h). Everything is drawn from counter-based random
// streams (splitmix64 seeded by the seed and what is being drawn), so a store's baskets do not depend
// on how many other stores there are, and the output is the same on every machine.
#include "cli/gen_larkspur.h"

#include <date/date.h>
#include <date/tz.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

namespace sluice {
namespace {

namespace fs = std::filesystem;

constexpr int kPartitions = 6;
constexpr int kSkus = 1000;
constexpr int64_t kLateSeconds = 2 * 3600;  // an upload this long after the sale is late
constexpr int64_t kDay = 86400;

// The replay day of the example; upload days run from the day before it.
const date::sys_days kReplayDay = date::sys_days{date::year{2026} / 8 / 15};
// Price versions start at local midnight of this date and change until kLastPriceDay.
const date::local_days kFirstPriceDay = date::local_days{date::year{2026} / 7 / 5};
const date::local_days kLastPriceDay = date::local_days{date::year{2026} / 10 / 3};

struct Country {
  const char* code;
  const char* currency;
  const char* zone_name;
  int64_t price_lo;  // shelf prices in minor units
  int64_t price_hi;
};
constexpr std::array<Country, 3> kCountries = {{{"GB", "GBP", "Europe/London", 80, 1500},
                                                {"IN", "INR", "Asia/Kolkata", 2000, 90000},
                                                {"SG", "SGD", "Asia/Singapore", 120, 2500}}};

uint64_t SplitMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A random stream named by the seed and up to four integers (what it draws for).
class Rng {
 public:
  Rng(uint64_t seed, uint64_t a, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0)
      : state_(SplitMix(SplitMix(SplitMix(SplitMix(seed ^ 0x4c61726b ^ a) ^ b) ^ c) ^ d)) {}
  uint64_t Next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi].
  int64_t Range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1)); }

 private:
  uint64_t state_;
};

// Stream tags, so that no two kinds of draws share a stream.
enum Tag : uint64_t { kTagStore = 1, kTagPrice, kTagDay, kTagOffline, kTagResend };

std::string FormatTs(int64_t secs) {
  return date::format("%F %T", date::sys_seconds{std::chrono::seconds{secs}});
}
std::string FormatDate(date::sys_days d) { return date::format("%F", d); }
std::string FormatLocalDate(date::local_days d) { return date::format("%F", d); }
std::string Compact(const std::string& iso_date) {
  std::string out;
  for (char c : iso_date) {
    if (c != '-') out.push_back(c);
  }
  return out;
}

struct Store {
  std::string id;
  int country = 0;
  int tills = 0;
  bool all_day = false;  // open 24 hours; others 08:00-22:00 local
  int baskets_per_day = 0;
  const date::time_zone* zone = nullptr;
};

struct PriceVersion {
  int64_t from = 0;  // UTC seconds
  int64_t price = 0;
};

struct Line {
  int line_no = 0;
  int sku = 0;
  int64_t qty = 0;
  int64_t unit_price = 0;
  int64_t discount = 0;
  int promo = -1;
  int64_t price_from = 0;  // the version the till charged
};

struct Basket {
  int store = 0;
  int till = 0;
  int64_t event_ts = 0;
  std::string business_date;  // store-local date of the sale
  std::string id;
  std::vector<Line> lines;
};

struct Copy {
  int basket = 0;
  int64_t uploaded_at = 0;
  bool resend = false;
  std::string event_id;  // assigned once all copies are ordered
};

// FNV-1a: a hash that is the same on every platform (std::hash is not).
uint32_t Fnv1a(const std::string& key) {
  uint32_t h = 2166136261u;
  for (unsigned char c : key) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

// The till's partition, as a producer keyed by till would choose it.
int PartitionOf(const Store& store, int till) { return static_cast<int>(Fnv1a(store.id + "/T" + std::to_string(till)) % kPartitions); }

std::string SkuName(int sku) { return fmt::format("SKU-{:05d}", sku + 1); }

int64_t LocalToUtc(const date::time_zone* zone, date::local_seconds local) {
  return zone->to_sys(local, date::choose::earliest).time_since_epoch().count();
}

date::local_days LocalDate(const date::time_zone* zone, int64_t utc) {
  return date::floor<date::days>(zone->to_local(date::sys_seconds{std::chrono::seconds{utc}}));
}

std::string UploadDay(int64_t utc) { return FormatDate(date::sys_days{date::days{utc >= 0 ? utc / kDay : (utc - kDay + 1) / kDay}}); }

class Generator {
 public:
  explicit Generator(const LarkspurOptions& o) : o_(o) {}

  Status Run(std::ostream* log) {
    if (o_.days < 1 || o_.days > 28) return Status::InvalidArgument("--days must be between 1 and 28");
    if (o_.stores < 3 || o_.stores > 3000) return Status::InvalidArgument("--stores must be between 3 and 3000");
    if (o_.out_dir.empty()) return Status::InvalidArgument("--out is required");
    first_day_ = o_.days >= 2 ? kReplayDay - date::days{1} : kReplayDay;
    last_day_ = first_day_ + date::days{o_.days - 1};
    try {
      for (const auto& c : kCountries) zones_.push_back(date::locate_zone(c.zone_name));
    } catch (const std::exception& e) {
      return Status::NotFound(std::string("time zone database: ") + e.what());
    }
    MakeStores();
    MakePrices();
    MakeBaskets();
    MakeCopies();
    std::error_code ec;
    fs::create_directories(o_.out_dir, ec);
    if (ec) return Status::IOError("cannot create '" + o_.out_dir + "': " + ec.message());
    RETURN_IF_ERROR(WriteStores());
    RETURN_IF_ERROR(WritePrices());
    RETURN_IF_ERROR(WriteEvents());
    RETURN_IF_ERROR(WriteTruth(log));
    return Status::OK();
  }

 private:
  void MakeStores() {
    const int per = o_.stores / 3;
    for (int c = 0; c < 3; ++c) {
      const int n = per + (c < o_.stores % 3 ? 1 : 0);
      for (int i = 1; i <= n; ++i) {
        Rng r(o_.seed, kTagStore, static_cast<uint64_t>(c), static_cast<uint64_t>(i));
        Store s;
        s.id = fmt::format("{}-{:04d}", kCountries[static_cast<size_t>(c)].code, i);
        s.country = c;
        s.tills = static_cast<int>(r.Range(2, 4));
        s.all_day = i % 25 == 0;
        s.baskets_per_day = static_cast<int>(r.Range(28, 46));
        s.zone = zones_[static_cast<size_t>(c)];
        stores_.push_back(std::move(s));
      }
    }
  }

  void MakePrices() {
    prices_.assign(3 * kSkus, {});
    const int64_t span_days = (kLastPriceDay - kFirstPriceDay).count();
    for (int c = 0; c < 3; ++c) {
      const auto& country = kCountries[static_cast<size_t>(c)];
      const date::time_zone* zone = zones_[static_cast<size_t>(c)];
      for (int sku = 0; sku < kSkus; ++sku) {
        auto& versions = prices_[static_cast<size_t>(c * kSkus + sku)];
        if (c == 2 && sku == 675) {
          // The chapter's case: SKU-00676's Singapore shelf price drops at 13:00 local on the replay day.
          versions.push_back({LocalToUtc(zone, date::local_seconds{kFirstPriceDay}), 1609});
          versions.push_back({LocalToUtc(zone, date::local_seconds{date::local_days{date::year{2026} / 8 / 15}} + std::chrono::hours{13}), 1409});
          versions.push_back({LocalToUtc(zone, date::local_seconds{date::local_days{date::year{2026} / 9 / 12}} + std::chrono::hours{9}), 1459});
          continue;
        }
        Rng r(o_.seed, kTagPrice, static_cast<uint64_t>(c), static_cast<uint64_t>(sku));
        int64_t price = r.Range(country.price_lo, country.price_hi);
        versions.push_back({LocalToUtc(zone, date::local_seconds{kFirstPriceDay}), price});
        double u = r.Uniform();
        int changes = u < 0.25 ? 0 : u < 0.60 ? 1 : u < 0.85 ? 2 : 3;
        std::vector<int64_t> times;
        // Most prices change before the replay day (some on it, during trading hours); a few pairs
        // change again before the last price day, which is what a join to today's price gets wrong.
        const int64_t until_replay = (date::local_days{date::year{2026} / 8 / 15} - kFirstPriceDay).count();
        if (r.Uniform() < 0.05) ++changes;
        for (int k = 0; k < changes; ++k) {
          static constexpr std::array<int, 4> kHours = {0, 9, 13, 17};
          const bool after = k == changes - 1 && changes > 0 && r.Uniform() < 0.06;
          auto day = kFirstPriceDay + date::days{after ? r.Range(until_replay + 1, span_days) : r.Range(1, until_replay)};
          auto hour = kHours[static_cast<size_t>(r.Range(0, 3))];
          times.push_back(LocalToUtc(zone, date::local_seconds{day} + std::chrono::hours{hour}));
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        for (int64_t t : times) {
          int64_t next = price * r.Range(80, 120) / 100;
          if (next == price) next = price + 1;
          price = std::max<int64_t>(next, 10);
          versions.push_back({t, price});
        }
      }
    }
  }

  const PriceVersion& PriceAt(int country, int sku, int64_t t) const {
    const auto& v = prices_[static_cast<size_t>(country * kSkus + sku)];
    auto it = std::upper_bound(v.begin(), v.end(), t, [](int64_t x, const PriceVersion& p) { return x < p.from; });
    return it == v.begin() ? v.front() : *(it - 1);
  }

  void MakeBaskets() {
    // Sales of every store-local date whose uploads can fall on an upload day.
    const date::local_days first_bd = date::local_days{(first_day_ - date::days{1}).time_since_epoch()};
    const date::local_days last_bd = date::local_days{last_day_.time_since_epoch()};
    for (size_t si = 0; si < stores_.size(); ++si) {
      const Store& s = stores_[si];
      for (auto bd = first_bd; bd <= last_bd; bd += date::days{1}) {
        const uint64_t bd_key = static_cast<uint64_t>(bd.time_since_epoch().count());
        Rng r(o_.seed, kTagDay, si, bd_key);
        const int n = s.baskets_per_day + static_cast<int>(r.Range(-4, 4));
        const int64_t open = s.all_day ? 0 : 8 * 3600, close = s.all_day ? kDay : 22 * 3600;
        std::vector<int64_t> times;
        for (int k = 0; k < n; ++k) times.push_back(r.Range(open, close - 1));
        std::sort(times.begin(), times.end());
        const std::string bd_text = FormatLocalDate(bd);
        int seq = 0;
        for (int64_t local_secs : times) {
          Basket b;
          b.store = static_cast<int>(si);
          b.till = static_cast<int>(r.Range(1, s.tills));
          b.event_ts = LocalToUtc(s.zone, date::local_seconds{bd} + std::chrono::seconds{local_secs});
          b.business_date = FormatLocalDate(LocalDate(s.zone, b.event_ts));
          b.id = fmt::format("{}-{}-{:05d}", s.id, Compact(bd_text), ++seq);
          double u = r.Uniform();
          int nlines = u < 0.30 ? 1 : u < 0.55 ? 2 : u < 0.73 ? 3 : u < 0.85 ? 4 : u < 0.93 ? 5 : u < 0.98 ? 6 : 7;
          for (int l = 1; l <= nlines; ++l) {
            Line line;
            line.line_no = l;
            double v = r.Uniform();
            line.sku = std::min(kSkus - 1, static_cast<int>(kSkus * v * v));
            double q = r.Uniform();
            line.qty = q < 0.70 ? 1 : q < 0.90 ? 2 : r.Range(3, 5);
            const PriceVersion& p = PriceAt(s.country, line.sku, b.event_ts);
            line.unit_price = p.price;
            line.price_from = p.from;
            if (r.Uniform() < 0.10) {
              line.promo = static_cast<int>(r.Range(1, 40));
              line.discount = line.qty * line.unit_price * r.Range(10, 30) / 100;
            }
            b.lines.push_back(line);
          }
          baskets_.push_back(std::move(b));
        }
      }
    }
  }

  void MakeCopies() {
    // Tills that were offline: per till and business date, sometimes an outage of 2.5 to 5.5 hours or
    // until the next morning; its baskets upload when it reconnects, each at least 2 hours after its sale.
    std::map<std::pair<int, int>, std::vector<size_t>> by_till;  // (store, till) -> baskets in time order
    for (size_t i = 0; i < baskets_.size(); ++i) by_till[{baskets_[i].store, baskets_[i].till}].push_back(i);
    std::vector<int64_t> first_upload(baskets_.size());
    for (const auto& [key, ids] : by_till) {
      std::map<std::string, std::vector<size_t>> by_date;
      for (size_t i : ids) by_date[baskets_[i].business_date].push_back(i);
      for (const auto& [bd, day_ids] : by_date) {
        Rng r(o_.seed, kTagOffline, static_cast<uint64_t>(key.first), static_cast<uint64_t>(key.second),
              Fnv1a(bd));
        int64_t off_from = 0, off_to = 0;
        if (r.Uniform() < 0.04 && !day_ids.empty()) {
          int64_t a = baskets_[day_ids.front()].event_ts, b = baskets_[day_ids.back()].event_ts;
          off_from = r.Range(a, std::max(a, b));
          off_to = off_from + r.Range(150, 330) * 60;
          if (r.Uniform() < 0.35) {
            // Offline until the store opens the next morning: these uploads land on a later day.
            const Store& s = stores_[static_cast<size_t>(key.first)];
            off_to = std::max(off_to, LocalToUtc(s.zone, date::local_seconds{LocalDate(s.zone, off_from) + date::days{1}} + std::chrono::hours{8}) +
                                          r.Range(60, 1800));
          }
        }
        int64_t last_late = 0;
        for (size_t i : day_ids) {
          int64_t e = baskets_[i].event_ts;
          if (e >= off_from && e < off_to) {
            last_late = std::max({off_to, e + kLateSeconds + r.Range(20, 90), last_late + r.Range(3, 9)});
            first_upload[i] = last_late;
          } else {
            first_upload[i] = e + r.Range(3, 110);
          }
        }
      }
    }
    for (size_t i = 0; i < baskets_.size(); ++i) {
      Rng r(o_.seed, kTagResend, i);
      copies_.push_back({static_cast<int>(i), first_upload[i], false, {}});
      if (r.Uniform() < 0.0036) {
        int64_t delay = r.Uniform() < 0.85 ? r.Range(60, 1500) : r.Range(2 * 3600, 9 * 3600);
        copies_.push_back({static_cast<int>(i), first_upload[i] + delay, true, {}});
      }
    }
    AddChapterResend(first_upload);
    // Only uploads of the written days are in the replay.
    const int64_t lo = first_day_.time_since_epoch().count() * kDay;
    const int64_t hi = (last_day_.time_since_epoch().count() + 1) * kDay;
    all_copies_ = copies_;
    copies_.erase(std::remove_if(copies_.begin(), copies_.end(), [&](const Copy& c) { return c.uploaded_at < lo || c.uploaded_at >= hi; }),
                  copies_.end());
    std::sort(copies_.begin(), copies_.end(), [&](const Copy& a, const Copy& b) {
      const Basket& x = baskets_[static_cast<size_t>(a.basket)];
      const Basket& y = baskets_[static_cast<size_t>(b.basket)];
      return std::tie(a.uploaded_at, x.store, x.till, a.basket, a.resend) < std::tie(b.uploaded_at, y.store, y.till, b.basket, b.resend);
    });
    std::map<std::string, int> seq;
    for (Copy& c : copies_) {
      std::string day = UploadDay(c.uploaded_at);
      c.event_id = fmt::format("ev-{}-{:06d}", Compact(day), ++seq[day]);
    }
  }

  // The chapter's GB-0044 case: the store's last basket of the day before the replay day, first
  // uploaded that evening, is re-sent just after midnight UTC.
  void AddChapterResend(const std::vector<int64_t>& first_upload) {
    if (o_.days < 2 || stores_.size() < 3 * 44) return;
    const std::string bd = FormatDate(kReplayDay - date::days{1});
    int best = -1;
    for (size_t i = 0; i < baskets_.size(); ++i) {
      const Basket& b = baskets_[i];
      if (stores_[static_cast<size_t>(b.store)].id != "GB-0044" || b.business_date != bd) continue;
      if (first_upload[i] - b.event_ts > kLateSeconds || UploadDay(first_upload[i]) != bd) continue;
      if (best < 0 || b.event_ts > baskets_[static_cast<size_t>(best)].event_ts) best = static_cast<int>(i);
    }
    if (best < 0) return;
    for (const Copy& c : copies_) {
      if (c.basket == best && c.resend) return;
    }
    const int64_t midnight = kReplayDay.time_since_epoch().count() * kDay;
    copies_.push_back({best, midnight + 1207, true, {}});
  }

  Status Open(const fs::path& path, std::ofstream* out) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) return Status::IOError("cannot create '" + path.parent_path().string() + "': " + ec.message());
    out->open(path, std::ios::binary | std::ios::trunc);
    if (!*out) return Status::IOError("cannot write '" + path.string() + "'");
    return Status::OK();
  }

  Status Close(const fs::path& path, std::ofstream* out) {
    out->close();
    if (!*out) return Status::IOError("cannot write '" + path.string() + "'");
    return Status::OK();
  }

  Status WriteStores() {
    fs::path path = fs::path(o_.out_dir) / "stores" / "stores.json";
    std::ofstream out;
    RETURN_IF_ERROR(Open(path, &out));
    for (const Store& s : stores_) {
      const auto& c = kCountries[static_cast<size_t>(s.country)];
      out << fmt::format(R"({{"store_id":"{}","country":"{}","currency":"{}","time_zone":"{}","tills":{},"opening_hours":"{}"}})",
                         s.id, c.code, c.currency, c.zone_name, s.tills, s.all_day ? "00:00-24:00" : "08:00-22:00")
          << "\n";
    }
    return Close(path, &out);
  }

  Status WritePrices() {
    struct Row {
      int64_t from;
      int country;
      int sku;
      int64_t price;
    };
    std::vector<Row> rows;
    for (int c = 0; c < 3; ++c) {
      for (int sku = 0; sku < kSkus; ++sku) {
        for (const auto& v : prices_[static_cast<size_t>(c * kSkus + sku)]) rows.push_back({v.from, c, sku, v.price});
      }
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return std::tie(a.from, a.sku, a.country) < std::tie(b.from, b.sku, b.country); });
    price_versions_ = rows.size();
    fs::path path = fs::path(o_.out_dir) / "prices" / "price_changes.json";
    std::ofstream out;
    RETURN_IF_ERROR(Open(path, &out));
    for (const Row& r : rows) {
      const auto& c = kCountries[static_cast<size_t>(r.country)];
      out << fmt::format(R"({{"sku":"{}","country":"{}","currency":"{}","price_minor":{},"effective_from":"{}"}})", SkuName(r.sku), c.code,
                         c.currency, r.price, FormatTs(r.from))
          << "\n";
    }
    return Close(path, &out);
  }

  Status WriteEvents() {
    for (auto d = first_day_; d <= last_day_; d += date::days{1}) {
      const std::string day = FormatDate(d);
      std::array<std::string, kPartitions> parts;
      for (const Copy& c : copies_) {
        if (UploadDay(c.uploaded_at) != day) continue;
        const Basket& b = baskets_[static_cast<size_t>(c.basket)];
        const Store& s = stores_[static_cast<size_t>(b.store)];
        std::string& text = parts[static_cast<size_t>(PartitionOf(s, b.till))];
        text += fmt::format(R"({{"event_id":"{}","basket_id":"{}","store_id":"{}","till_id":"T{}","currency":"{}","event_ts":"{}","uploaded_at":"{}","lines":[)",
                            c.event_id, b.id, s.id, b.till, kCountries[static_cast<size_t>(s.country)].currency, FormatTs(b.event_ts),
                            FormatTs(c.uploaded_at));
        for (size_t i = 0; i < b.lines.size(); ++i) {
          const Line& l = b.lines[i];
          text += fmt::format(R"({}{{"line_no":{},"sku":"{}","qty":{},"unit_price_minor":{},"discount_minor":{},"promo_id":{}}})", i ? "," : "",
                              l.line_no, SkuName(l.sku), l.qty, l.unit_price, l.discount,
                              l.promo < 0 ? std::string("null") : fmt::format("\"P-{}\"", l.promo));
        }
        text += "]}\n";
      }
      for (int p = 0; p < kPartitions; ++p) {
        fs::path path = fs::path(o_.out_dir) / "pos" / ("upload_date=" + day) / fmt::format("part-{}.json", p);
        std::ofstream out;
        RETURN_IF_ERROR(Open(path, &out));
        out << parts[static_cast<size_t>(p)];
        RETURN_IF_ERROR(Close(path, &out));
      }
    }
    return Status::OK();
  }

  // What WriteTruth collects: the summary's keys and the JSON lines of its three files.
  struct Truth {
    std::map<std::string, std::string> summary;  // ordered: a stable file
    std::string resends, late, charged;
    void Put(const std::string& key, int64_t v) { summary[key] = std::to_string(v); }
  };

  Status WriteTruth(std::ostream* log) {
    const fs::path dir = fs::path(o_.out_dir) / "truth";
    // The first upload of every basket, over every copy (also those before the written days).
    std::vector<int64_t> first(baskets_.size(), INT64_MAX);
    for (const Copy& c : all_copies_) {
      first[static_cast<size_t>(c.basket)] = std::min(first[static_cast<size_t>(c.basket)], c.uploaded_at);
    }
    Truth t;
    t.summary["replay_day"] = FormatDate(kReplayDay);
    std::string days;
    for (auto d = first_day_; d <= last_day_; d += date::days{1}) days += (days.empty() ? "" : ",") + FormatDate(d);
    t.summary["upload_days"] = days;
    t.Put("stores", static_cast<int64_t>(stores_.size()));
    t.Put("price_versions", static_cast<int64_t>(price_versions_));
    for (auto d = first_day_; d <= last_day_; d += date::days{1}) TruthOfUploadDay(FormatDate(d), first, &t, log);
    for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
             {"resends.json", t.resends}, {"late_baskets.json", t.late}, {"prices_charged.json", t.charged}}) {
      std::ofstream out;
      RETURN_IF_ERROR(Open(dir / name, &out));
      out << text;
      RETURN_IF_ERROR(Close(dir / name, &out));
    }
    std::ofstream out;
    RETURN_IF_ERROR(Open(dir / "summary.txt", &out));
    for (const auto& [key, value] : t.summary) out << key << "=" << value << "\n";
    RETURN_IF_ERROR(Close(dir / "summary.txt", &out));
    if (log != nullptr) {
      *log << fmt::format("{} stores, {} price versions; written to {}\n", stores_.size(), price_versions_, o_.out_dir);
    }
    return Status::OK();
  }

  // The truth of upload day `day` (`first`: every basket's first upload): its counts, re-sent copies,
  // late baskets and charged prices.
  void TruthOfUploadDay(const std::string& day, const std::vector<int64_t>& first, Truth* t, std::ostream* log) {
    const std::string k = "day." + day + ".";
    int64_t events = 0, resend_copies = 0, earlier = 0, late_baskets = 0, after5 = 0, after5_within2h = 0;
    int64_t lines = 0, units = 0, net = 0, latest_differs = 0;
    std::map<int, int64_t> first_in_day;  // basket -> its first upload on this day
    std::map<int, std::string> first_event;
    for (const Copy& c : copies_) {
      if (UploadDay(c.uploaded_at) != day) continue;
      ++events;
      if (!first_in_day.count(c.basket)) {
        first_in_day[c.basket] = c.uploaded_at;
        first_event[c.basket] = c.event_id;
      } else {
        ++resend_copies;
      }
    }
    std::set<std::pair<int, std::string>> store_days, store_days_earlier;
    std::map<std::tuple<std::string, int, int, int64_t, int64_t>, int64_t> charged_lines;
    for (const auto& [bi, up] : first_in_day) {
      const Basket& b = baskets_[static_cast<size_t>(bi)];
      const Store& s = stores_[static_cast<size_t>(b.store)];
      const bool is_earlier = first[static_cast<size_t>(bi)] < up && UploadDay(first[static_cast<size_t>(bi)]) != day;
      store_days.insert({b.store, b.business_date});
      if (is_earlier) {
        ++earlier;
        store_days_earlier.insert({b.store, b.business_date});
      }
      const int64_t delay = up - b.event_ts;
      if (delay > 300) {
        ++after5;
        if (delay <= kLateSeconds) ++after5_within2h;
      }
      if (delay > kLateSeconds) {
        ++late_baskets;
        t->late += fmt::format(R"({{"upload_day":"{}","basket_id":"{}","event_id":"{}","store_id":"{}","till_id":"T{}","event_ts":"{}","uploaded_at":"{}","delay_minutes":{},"lines":{}}})",
                            day, b.id, first_event[bi], s.id, b.till, FormatTs(b.event_ts), FormatTs(up), delay / 60, b.lines.size()) +
                "\n";
      }
      for (const Line& l : b.lines) {
        ++lines;
        units += l.qty;
        net += l.qty * l.unit_price - l.discount;
        const auto& versions = prices_[static_cast<size_t>(s.country * kSkus + l.sku)];
        if (versions.back().price != l.unit_price) ++latest_differs;
        ++charged_lines[{b.business_date, s.country, l.sku, l.price_from, l.unit_price}];
      }
    }
    for (const Copy& c : copies_) {
      if (!c.resend || UploadDay(c.uploaded_at) != day) continue;
      const Basket& b = baskets_[static_cast<size_t>(c.basket)];
      const int64_t f = first[static_cast<size_t>(c.basket)];
      t->resends += fmt::format(R"({{"upload_day":"{}","basket_id":"{}","event_id":"{}","store_id":"{}","uploaded_at":"{}","first_uploaded_at":"{}","first_upload_day":"{}","first_copy_in_replay":{}}})",
                             day, b.id, c.event_id, stores_[static_cast<size_t>(b.store)].id, FormatTs(c.uploaded_at), FormatTs(f),
                             UploadDay(f), UploadDay(f) == day ? "true" : "false") +
                 "\n";
    }
    for (const auto& [key, n] : charged_lines) {
      const auto& [bd, country, sku, from, price] = key;
      t->charged += fmt::format(R"({{"upload_day":"{}","business_date":"{}","country":"{}","sku":"{}","price_from":"{}","price_minor":{},"lines":{}}})",
                             day, bd, kCountries[static_cast<size_t>(country)].code, SkuName(sku), FormatTs(from), price, n) +
                 "\n";
    }
    t->Put(k + "events", events);
    t->Put(k + "baskets", static_cast<int64_t>(first_in_day.size()));
    t->Put(k + "resend_copies", resend_copies);
    t->Put(k + "baskets_first_copy_earlier_day", earlier);
    t->Put(k + "late_baskets", late_baskets);
    t->Put(k + "baskets_uploaded_after_5min", after5);
    t->Put(k + "baskets_uploaded_after_5min_within_2h", after5_within2h);
    t->Put(k + "lines", lines);
    t->Put(k + "units", units);
    t->Put(k + "net_minor", net);
    t->Put(k + "lines_latest_price_differs", latest_differs);
    t->Put(k + "store_days", static_cast<int64_t>(store_days.size()));
    t->Put(k + "store_days_with_earlier_first_copy", static_cast<int64_t>(store_days_earlier.size()));
    TruthOfBusinessDate(day, first, first_in_day, t);
    if (log != nullptr) {
      *log << fmt::format("upload day {}: {} basket events ({} baskets, {} re-sent copies, {} late), {} lines\n", day, events,
                          first_in_day.size(), resend_copies, late_baskets, lines);
    }
  }

  // Business date = `day`: the accepted baskets (first copy over every upload) of that date, and what
  // the replay of this upload day (its baskets' first uploads in `first_in_day`) holds of them.
  void TruthOfBusinessDate(const std::string& day, const std::vector<int64_t>& first,
                           const std::map<int, int64_t>& first_in_day, Truth* t) {
    const std::string bk = "business_date." + day + ".";
    std::set<int> gold_stores, stream_stores;
    int64_t gold = 0, gold_net = 0, stream = 0, stream_earlier = 0;
    std::map<std::string, int64_t> other_days;
    for (size_t bi = 0; bi < baskets_.size(); ++bi) {
      const Basket& b = baskets_[bi];
      if (b.business_date != day || first[bi] == INT64_MAX) continue;
      const std::string fday = UploadDay(first[bi]);
      if (fday < FormatDate(first_day_) || fday > FormatDate(last_day_)) {
        ++other_days["outside"];
        continue;
      }
      ++gold;
      gold_stores.insert(b.store);
      for (const Line& l : b.lines) gold_net += l.qty * l.unit_price - l.discount;
      if (fday != day) {
        ++other_days[fday];
        ++other_days[fday + "." + kCountries[static_cast<size_t>(stores_[static_cast<size_t>(b.store)].country)].code];
      }
    }
    for (const auto& [bi, up] : first_in_day) {
      const Basket& b = baskets_[static_cast<size_t>(bi)];
      if (b.business_date != day) continue;
      ++stream;
      stream_stores.insert(b.store);
      if (UploadDay(first[static_cast<size_t>(bi)]) != day) ++stream_earlier;
    }
    t->Put(bk + "gold_baskets", gold);
    t->Put(bk + "gold_stores", static_cast<int64_t>(gold_stores.size()));
    t->Put(bk + "gold_net_minor", gold_net);
    t->Put(bk + "stream_baskets", stream);
    t->Put(bk + "stream_stores", static_cast<int64_t>(stream_stores.size()));
    t->Put(bk + "stream_baskets_first_copy_earlier_day", stream_earlier);
    for (const auto& [od, n] : other_days) t->Put(bk + "first_uploaded." + od, n);
  }

  LarkspurOptions o_;
  date::sys_days first_day_;
  date::sys_days last_day_;
  std::vector<const date::time_zone*> zones_;
  std::vector<Store> stores_;
  std::vector<std::vector<PriceVersion>> prices_;  // [country * kSkus + sku], by effective_from
  std::vector<Basket> baskets_;
  std::vector<Copy> copies_;      // copies uploaded on the written days, in upload order
  std::vector<Copy> all_copies_;  // every copy, also those uploaded before or after them
  size_t price_versions_ = 0;
};

}  // namespace

Status GenerateLarkspur(const LarkspurOptions& options, std::ostream* log) {
  Generator g(options);
  return g.Run(log);
}

}  // namespace sluice
