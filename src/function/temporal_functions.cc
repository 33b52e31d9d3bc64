// Temporal functions: the current time (CURRENT_TIMESTAMP, NOW, LOCALTIMESTAMP, CURRENT_DATE,
// CURRENT_TIME, PROCTIME, ...), EXTRACT and YEAR()/MONTH()/..., FLOOR_TO/CEIL_TO, TIMESTAMPADD,
// TIMESTAMPDIFF, DATE_FORMAT, TO_TIMESTAMP, TO_DATE, TO_TIMESTAMP_LTZ, UNIX_TIMESTAMP, FROM_UNIXTIME,
// CONVERT_TZ. TIMESTAMP_LTZ values are instants; their local fields come from the session time zone.
#include <cmath>
#include <cctype>
#include <limits>

#include "common/time_util.h"
#include "function/datetime_format.h"
#include "function/evaluator.h"
#include "function/kernel_util.h"
#include "types/value.h"

namespace sluice::fn {

namespace {

using FnPtr = std::shared_ptr<ScalarFunction>;

std::string UpperStr(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

// Wall-clock micros of row i of a temporal vector (LTZ rendered in the session zone).
int64_t LocalMicros(EvalContext& ctx, const Vector& v, size_t i) {
  switch (v.type().id()) {
    case TypeId::kDate: return static_cast<int64_t>(v.data<int32_t>()[i]) * kMicrosPerDay;
    case TypeId::kTime: return static_cast<int64_t>(v.data<int32_t>()[i]) * kMicrosPerMilli;
    case TypeId::kTimestampLtz: return ctx.UtcToLocal(v.data<int64_t>()[i]);
    default: return v.data<int64_t>()[i];
  }
}

// Writes wall-clock micros back into a vector of the input's type.
void StoreLocal(EvalContext& ctx, int64_t local, Vector* out, size_t i) {
  switch (out->type().id()) {
    case TypeId::kDate: out->data<int32_t>()[i] = static_cast<int32_t>(FloorDiv(local, kMicrosPerDay)); break;
    case TypeId::kTime:
      out->data<int32_t>()[i] = static_cast<int32_t>(FloorMod(local, kMicrosPerDay) / kMicrosPerMilli);
      break;
    case TypeId::kTimestampLtz: out->data<int64_t>()[i] = ctx.LocalToUtc(local); break;
    default: out->data<int64_t>()[i] = local; break;
  }
}

bool IsDateTime(const LogicalType& t) { return t.IsTemporal(); }

// ---- current time ----

enum class Now { kTimestampLtz, kLocalTimestamp, kDate, kTime, kUnixSeconds };

Result<FnPtr> ResolveNow(const CallInfo& c, Now what, TimeAttribute attr = TimeAttribute::kNone) {
  if (c.size() != 0) return FnPtr();
  LogicalType ret;
  switch (what) {
    case Now::kTimestampLtz: ret = LogicalType::TimestampLtz(3).WithTimeAttribute(attr); break;
    case Now::kLocalTimestamp: ret = LogicalType::Timestamp(3); break;
    case Now::kDate: ret = LogicalType::Date(); break;
    case Now::kTime: ret = LogicalType::Time(0); break;
    case Now::kUnixSeconds: ret = LogicalType::BigInt(); break;
  }
  return MakeFunction(c.name, {}, ret.WithNullable(false),
                      [what](EvalContext& ctx, const Vector* const*, size_t, size_t rows, Vector* out) {
                        int64_t now = FloorDiv(ctx.now_micros, kMicrosPerMilli) * kMicrosPerMilli;
                        int64_t local = ctx.UtcToLocal(now);
                        switch (what) {
                          case Now::kTimestampLtz: std::fill_n(out->data<int64_t>(), rows, now); break;
                          case Now::kLocalTimestamp: std::fill_n(out->data<int64_t>(), rows, local); break;
                          case Now::kDate:
                            std::fill_n(out->data<int32_t>(), rows, static_cast<int32_t>(FloorDiv(local, kMicrosPerDay)));
                            break;
                          case Now::kTime:
                            std::fill_n(out->data<int32_t>(), rows,
                                        static_cast<int32_t>(FloorMod(local, kMicrosPerDay) / kMicrosPerMilli));
                            break;
                          case Now::kUnixSeconds:
                            std::fill_n(out->data<int64_t>(), rows, FloorDiv(ctx.now_micros, kMicrosPerSecond));
                            break;
                        }
                        return Status::OK();
                      },
                      /*deterministic=*/false);
}

// ---- EXTRACT ----

enum class Unit {
  kYear, kQuarter, kMonth, kWeek, kDay, kDoy, kDow, kIsoDow, kHour, kMinute, kSecond, kMillisecond,
  kMicrosecond, kEpoch, kDecade, kCentury, kMillennium, kIsoYear, kNanosecond
};

bool ParseUnit(std::string_view text, Unit* u) {
  static const std::pair<const char*, Unit> kUnits[] = {
      {"YEAR", Unit::kYear},       {"QUARTER", Unit::kQuarter},   {"MONTH", Unit::kMonth},
      {"WEEK", Unit::kWeek},       {"DAY", Unit::kDay},           {"DAYOFMONTH", Unit::kDay},
      {"DOY", Unit::kDoy},         {"DAYOFYEAR", Unit::kDoy},     {"DOW", Unit::kDow},
      {"DAYOFWEEK", Unit::kDow},   {"ISODOW", Unit::kIsoDow},     {"HOUR", Unit::kHour},
      {"MINUTE", Unit::kMinute},   {"SECOND", Unit::kSecond},     {"MILLISECOND", Unit::kMillisecond},
      {"MICROSECOND", Unit::kMicrosecond}, {"NANOSECOND", Unit::kNanosecond}, {"EPOCH", Unit::kEpoch},
      {"DECADE", Unit::kDecade},   {"CENTURY", Unit::kCentury},   {"MILLENNIUM", Unit::kMillennium},
      {"ISOYEAR", Unit::kIsoYear}, {"SQL_TSI_YEAR", Unit::kYear}, {"SQL_TSI_QUARTER", Unit::kQuarter},
      {"SQL_TSI_MONTH", Unit::kMonth}, {"SQL_TSI_WEEK", Unit::kWeek}, {"SQL_TSI_DAY", Unit::kDay},
      {"SQL_TSI_HOUR", Unit::kHour}, {"SQL_TSI_MINUTE", Unit::kMinute}, {"SQL_TSI_SECOND", Unit::kSecond},
      {"FRAC_SECOND", Unit::kMicrosecond}};
  std::string u8 = UpperStr(text);
  for (const auto& [name, unit] : kUnits) {
    if (u8 == name) {
      *u = unit;
      return true;
    }
  }
  return false;
}

int IsoDayOfWeek(int64_t days) { return static_cast<int>(FloorMod(days + 3, 7)) + 1; }

int64_t IsoWeekOf(int64_t days, int64_t* iso_year) {
  CivilDate d = CivilFromDays(days);
  // The Thursday of this ISO week decides the year.
  int64_t thursday = days - IsoDayOfWeek(days) + 4;
  CivilDate td = CivilFromDays(thursday);
  *iso_year = td.year;
  (void)d;
  return (thursday - DaysFromCivil(td.year, 1, 1)) / 7 + 1;
}

int64_t ExtractField(Unit u, int64_t local) {
  int64_t days = FloorDiv(local, kMicrosPerDay);
  int64_t tod = local - days * kMicrosPerDay;
  CivilDate d = CivilFromDays(days);
  switch (u) {
    case Unit::kYear: return d.year;
    case Unit::kQuarter: return (d.month - 1) / 3 + 1;
    case Unit::kMonth: return d.month;
    case Unit::kWeek: {
      int64_t y;
      return IsoWeekOf(days, &y);
    }
    case Unit::kIsoYear: {
      int64_t y;
      IsoWeekOf(days, &y);
      return y;
    }
    case Unit::kDay: return d.day;
    case Unit::kDoy: return days - DaysFromCivil(d.year, 1, 1) + 1;
    case Unit::kDow: return FloorMod(days + 4, 7) + 1;  // 1 = Sunday .. 7 = Saturday
    case Unit::kIsoDow: return IsoDayOfWeek(days);
    case Unit::kHour: return tod / kMicrosPerHour;
    case Unit::kMinute: return tod / kMicrosPerMinute % 60;
    case Unit::kSecond: return tod / kMicrosPerSecond % 60;
    // Flink 2.2: the fraction of the second only (01.234 -> 234 ms, 234000 us, 234000000 ns), from the
    // epoch milliseconds with Java's truncating % (so negative before 1970: 23:59:58.765 -> -235).
    case Unit::kMillisecond: return FloorDiv(local, kMicrosPerMilli) % 1000;
    case Unit::kMicrosecond: return FloorDiv(local, kMicrosPerMilli) % 1000 * 1000 + FloorMod(local, kMicrosPerMilli);
    case Unit::kNanosecond: return (FloorDiv(local, kMicrosPerMilli) % 1000 * 1000 + FloorMod(local, kMicrosPerMilli)) * 1000;
    case Unit::kEpoch: return FloorDiv(local, kMicrosPerSecond);
    case Unit::kDecade: return FloorDiv(d.year, 10);
    case Unit::kCentury: return d.year > 0 ? (d.year + 99) / 100 : -((-d.year + 99) / 100);
    case Unit::kMillennium: return d.year > 0 ? (d.year + 999) / 1000 : -((-d.year + 999) / 1000);
  }
  return 0;
}

Result<FnPtr> MakeExtract(const CallInfo& c, Unit unit, size_t arg, const LogicalType& t) {
  if (!IsDateTime(t) && !t.IsInterval()) return FnPtr();
  if (t.id() == TypeId::kTime && unit < Unit::kHour) {
    return Status::BindError("EXTRACT of a date field from a TIME is not supported");
  }
  std::vector<LogicalType> casts(c.size());
  for (size_t i = 0; i < c.size(); ++i) casts[i] = c.type(i).WithTimeAttribute(TimeAttribute::kNone);
  return MakeFunction(c.name, casts, LogicalType::BigInt().WithNullable(t.nullable()),
                      [unit, arg](EvalContext& ctx, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        const Vector& x = *args[arg];
                        const Vector* only[1] = {&x};
                        PropagateNulls(only, 1, rows, out);
                        int64_t* od = out->data<int64_t>();
                        if (x.type().id() == TypeId::kIntervalYearMonth) {
                          for (size_t i = 0; i < rows; ++i) {
                            int32_t m = x.data<int32_t>()[i];
                            od[i] = unit == Unit::kYear ? m / 12 : unit == Unit::kMonth ? m % 12 : 0;
                          }
                          return Status::OK();
                        }
                        if (x.type().id() == TypeId::kIntervalDayTime) {
                          for (size_t i = 0; i < rows; ++i) {
                            int64_t ms = x.data<int64_t>()[i];
                            switch (unit) {
                              case Unit::kDay: od[i] = ms / kMillisPerDay; break;
                              case Unit::kHour: od[i] = ms / 3600000 % 24; break;
                              case Unit::kMinute: od[i] = ms / 60000 % 60; break;
                              case Unit::kSecond: od[i] = ms / 1000 % 60; break;
                              case Unit::kMillisecond: od[i] = ms % 60000; break;
                              case Unit::kEpoch: od[i] = ms / 1000; break;
                              default: od[i] = 0;
                            }
                          }
                          return Status::OK();
                        }
                        if (x.type().id() == TypeId::kTimestamp && unit == Unit::kEpoch) {
                          for (size_t i = 0; i < rows; ++i) od[i] = FloorDiv(x.data<int64_t>()[i], kMicrosPerSecond);
                          return Status::OK();
                        }
                        for (size_t i = 0; i < rows; ++i) od[i] = ExtractField(unit, LocalMicros(ctx, x, i));
                        return Status::OK();
                      });
}

Result<FnPtr> ResolveExtract(const CallInfo& c) {
  if (c.size() != 2) return FnPtr();
  const std::string* u = ConstantString(c, 0);
  if (u == nullptr) return FnPtr();
  Unit unit;
  if (!ParseUnit(*u, &unit)) return Status::BindError("Unknown time unit '" + *u + "' in EXTRACT");
  return MakeExtract(c, unit, 1, c.type(1));
}

// ---- FLOOR/CEIL TO unit ----

int64_t FloorLocal(Unit u, int64_t local) {
  int64_t days = FloorDiv(local, kMicrosPerDay);
  CivilDate d = CivilFromDays(days);
  switch (u) {
    case Unit::kYear: return DaysFromCivil(d.year, 1, 1) * kMicrosPerDay;
    case Unit::kQuarter: return DaysFromCivil(d.year, (d.month - 1) / 3 * 3 + 1, 1) * kMicrosPerDay;
    case Unit::kMonth: return DaysFromCivil(d.year, d.month, 1) * kMicrosPerDay;
    case Unit::kWeek: return (days - FloorMod(days + 4, 7)) * kMicrosPerDay;  // weeks start on Sunday
    case Unit::kDay: return days * kMicrosPerDay;
    case Unit::kHour: return FloorDiv(local, kMicrosPerHour) * kMicrosPerHour;
    case Unit::kMinute: return FloorDiv(local, kMicrosPerMinute) * kMicrosPerMinute;
    case Unit::kSecond: return FloorDiv(local, kMicrosPerSecond) * kMicrosPerSecond;
    case Unit::kMillisecond: return FloorDiv(local, kMicrosPerMilli) * kMicrosPerMilli;
    default: return local;
  }
}

int64_t CeilLocal(Unit u, int64_t local) {
  int64_t f = FloorLocal(u, local);
  if (f == local) return f;
  switch (u) {
    case Unit::kYear: return AddMonthsToMicros(f, 12);
    case Unit::kQuarter: return AddMonthsToMicros(f, 3);
    case Unit::kMonth: return AddMonthsToMicros(f, 1);
    case Unit::kWeek: return f + 7 * kMicrosPerDay;
    case Unit::kDay: return f + kMicrosPerDay;
    case Unit::kHour: return f + kMicrosPerHour;
    case Unit::kMinute: return f + kMicrosPerMinute;
    case Unit::kSecond: return f + kMicrosPerSecond;
    case Unit::kMillisecond: return f + kMicrosPerMilli;
    default: return local;
  }
}

Result<FnPtr> ResolveFloorCeilTo(const CallInfo& c, bool ceil) {
  if (c.size() != 2 || !IsDateTime(c.type(0))) return FnPtr();
  const std::string* u = ConstantString(c, 1);
  if (u == nullptr) return FnPtr();
  Unit unit;
  if (!ParseUnit(*u, &unit) || unit > Unit::kMillisecond || unit == Unit::kDoy || unit == Unit::kDow ||
      unit == Unit::kIsoDow) {
    return Status::BindError("Unsupported time unit '" + *u + "' in " + std::string(ceil ? "CEIL" : "FLOOR"));
  }
  LogicalType xt = c.type(0).WithTimeAttribute(TimeAttribute::kNone);
  return MakeFunction(c.name, {xt, c.type(1)}, xt, [unit, ceil](EvalContext& ctx, const Vector* const* args, size_t, size_t rows, Vector* out) {
    const Vector& x = *args[0];
    const Vector* only[1] = {&x};
    PropagateNulls(only, 1, rows, out);
    for (size_t i = 0; i < rows; ++i) {
      int64_t local = LocalMicros(ctx, x, i);
      StoreLocal(ctx, ceil ? CeilLocal(unit, local) : FloorLocal(unit, local), out, i);
    }
    return Status::OK();
  });
}

// ---- TIMESTAMPADD / TIMESTAMPDIFF ----

Result<FnPtr> ResolveTimestampAdd(const CallInfo& c) {
  if (c.size() != 3 || !IsDateTime(c.type(2)) || c.type(2).id() == TypeId::kTime) return FnPtr();
  const std::string* u = ConstantString(c, 0);
  LogicalType nt;
  if (u == nullptr || !AsBigInt(c.type(1), &nt)) return FnPtr();
  Unit unit;
  if (!ParseUnit(*u, &unit)) return Status::BindError("Unknown time unit '" + *u + "' in TIMESTAMPADD");
  LogicalType xt = c.type(2).WithTimeAttribute(TimeAttribute::kNone);
  bool sub_day = unit >= Unit::kHour;
  LogicalType ret = xt;
  if (xt.id() == TypeId::kDate && sub_day) ret = LogicalType::Timestamp(0);
  ret = ret.WithNullable(c.type(1).nullable() || c.type(2).nullable());
  return MakeFunction(c.name, {c.type(0), nt, xt}, ret, [unit](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
    const Vector& n = *args[1];
    const Vector& x = *args[2];
    const Vector* both[2] = {&n, &x};
    PropagateNulls(both, 2, rows, out);
    const bool date_in = x.type().id() == TypeId::kDate;
    for (size_t i = 0; i < rows; ++i) {
      int64_t k = n.data<int64_t>()[i];
      int64_t v = date_in ? static_cast<int64_t>(x.data<int32_t>()[i]) * kMicrosPerDay : x.data<int64_t>()[i];
      switch (unit) {
        case Unit::kYear: v = AddMonthsToMicros(v, k * 12); break;
        case Unit::kQuarter: v = AddMonthsToMicros(v, k * 3); break;
        case Unit::kMonth: v = AddMonthsToMicros(v, k); break;
        case Unit::kWeek: v += k * 7 * kMicrosPerDay; break;
        case Unit::kDay: v += k * kMicrosPerDay; break;
        case Unit::kHour: v += k * kMicrosPerHour; break;
        case Unit::kMinute: v += k * kMicrosPerMinute; break;
        case Unit::kSecond: v += k * kMicrosPerSecond; break;
        case Unit::kMillisecond: v += k * kMicrosPerMilli; break;
        case Unit::kMicrosecond: v += k; break;
        default: break;
      }
      if (out->type().id() == TypeId::kDate) {
        out->data<int32_t>()[i] = static_cast<int32_t>(FloorDiv(v, kMicrosPerDay));
      } else {
        out->data<int64_t>()[i] = v;
      }
    }
    return Status::OK();
  });
}

// Whole months from day d1 to day d0 as Calcite's DateTimeUtils.subtractMonths counts them (Flink's
// TIMESTAMPDIFF): the largest m with d1 + m months (the day clamped to the month's length) <= d0, so
// 2024-01-31 to 2024-02-29 is one month; negative when d0 is earlier.
int64_t SubtractMonthsDays(int64_t d0, int64_t d1) {
  if (d0 < d1) return -SubtractMonthsDays(d1, d0);
  auto add = [](int64_t days, int64_t m) { return FloorDiv(AddMonthsToMicros(days * kMicrosPerDay, m), kMicrosPerDay); };
  int64_t m = (d0 - d1) / 31;  // no month is longer than 31 days, so this never overshoots
  for (;;) {
    if (add(d1, m) >= d0) return m;
    if (add(d1, m + 1) > d0) return m;
    ++m;
  }
}

// TIMESTAMPDIFF's months from `a` to `b`, as Calcite's subtractMonths(long, long): the days' months,
// one less when adding them to a's day lands on b's day and b's time of day is earlier than a's (not
// symmetric: from 10:00:19 back to 10:00:05 of the same day is -1 month, forward 0; random query
// 2036-60, tests/sql/functions/timestampdiff_months.test,
// timestampdiff_clamp_extract_fraction.test).
int64_t MonthsBetween(int64_t a, int64_t b) {
  const int64_t d1 = FloorDiv(a, kMicrosPerDay), d0 = FloorDiv(b, kMicrosPerDay);
  const int64_t t1 = a - d1 * kMicrosPerDay, t0 = b - d0 * kMicrosPerDay;
  int64_t x = SubtractMonthsDays(d0, d1);
  if (FloorDiv(AddMonthsToMicros(d1 * kMicrosPerDay, x), kMicrosPerDay) == d0 && t0 < t1) --x;
  return x;
}

Result<FnPtr> ResolveTimestampDiff(const CallInfo& c) {
  if (c.size() != 3 || !IsDateTime(c.type(1)) || !IsDateTime(c.type(2))) return FnPtr();
  const std::string* u = ConstantString(c, 0);
  if (u == nullptr) return FnPtr();
  Unit unit;
  if (!ParseUnit(*u, &unit)) return Status::BindError("Unknown time unit '" + *u + "' in TIMESTAMPDIFF");
  std::vector<LogicalType> casts = {c.type(0), c.type(1).WithTimeAttribute(TimeAttribute::kNone),
                                    c.type(2).WithTimeAttribute(TimeAttribute::kNone)};
  return MakeFunction(c.name, casts, LogicalType::Integer().WithNullable(c.type(1).nullable() || c.type(2).nullable()),
                      [unit](EvalContext& ctx, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        const Vector* both[2] = {args[1], args[2]};
                        PropagateNulls(both, 2, rows, out);
                        const bool mixed = (args[1]->type().id() == TypeId::kTimestampLtz) !=
                                           (args[2]->type().id() == TypeId::kTimestampLtz);
                        auto read = [&](const Vector& v, size_t i) {
                          if (v.type().id() == TypeId::kTimestampLtz && !mixed) return v.data<int64_t>()[i];
                          return LocalMicros(ctx, v, i);
                        };
                        int32_t* od = out->data<int32_t>();
                        for (size_t i = 0; i < rows; ++i) {
                          if (out->IsNull(i)) continue;
                          int64_t a = read(*args[1], i), b = read(*args[2], i);
                          int64_t d = b - a;
                          int64_t r = 0;
                          switch (unit) {
                            case Unit::kYear: r = MonthsBetween(a, b) / 12; break;
                            case Unit::kQuarter: r = MonthsBetween(a, b) / 3; break;
                            case Unit::kMonth: r = MonthsBetween(a, b); break;
                            case Unit::kWeek: r = d / (7 * kMicrosPerDay); break;
                            case Unit::kDay: r = d / kMicrosPerDay; break;
                            case Unit::kHour: r = d / kMicrosPerHour; break;
                            case Unit::kMinute: r = d / kMicrosPerMinute; break;
                            case Unit::kSecond: r = d / kMicrosPerSecond; break;
                            case Unit::kMillisecond: r = d / kMicrosPerMilli; break;
                            case Unit::kMicrosecond: r = d; break;
                            default: r = 0;
                          }
                          od[i] = static_cast<int32_t>(r);
                        }
                        return Status::OK();
                      });
}

// ---- formats ----

// A DateTimeFormat compiled once when the pattern is constant, else per distinct pattern.
class FormatHolder {
 public:
  static Result<std::shared_ptr<FormatHolder>> Make(const std::string* constant) {
    auto h = std::make_shared<FormatHolder>();
    if (constant != nullptr) {
      ASSIGN_OR_RETURN(DateTimeFormat f, DateTimeFormat::Compile(*constant));
      h->constant_ = std::make_shared<DateTimeFormat>(std::move(f));
    }
    return h;
  }
  bool constant() const { return constant_ != nullptr; }
  // Null when the (non-constant) pattern is invalid.
  const DateTimeFormat* Get(std::string_view pattern, std::shared_ptr<DateTimeFormat>* cache) const {
    if (constant_) return constant_.get();
    if (*cache && (*cache)->pattern() == pattern) return cache->get();
    auto f = DateTimeFormat::Compile(pattern);
    if (!f.ok()) return nullptr;
    *cache = std::make_shared<DateTimeFormat>(std::move(f).value());
    return cache->get();
  }

 private:
  std::shared_ptr<DateTimeFormat> constant_;
};

const std::string kDefaultFormat = "yyyy-MM-dd HH:mm:ss";

Result<FnPtr> ResolveDateFormat(const CallInfo& c) {
  if (c.size() != 2) return FnPtr();
  LogicalType ft;
  if (!AsString(c.type(1), &ft)) return FnPtr();
  LogicalType xt = c.type(0).WithTimeAttribute(TimeAttribute::kNone);
  if (!IsDateTime(xt) && !xt.IsCharacterString()) return FnPtr();
  ASSIGN_OR_RETURN(auto holder, FormatHolder::Make(ConstantString(c, 1)));
  return MakeFunction(c.name, {xt, ft}, LogicalType::String().WithNullable(true),
                      [holder](EvalContext& ctx, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        std::shared_ptr<DateTimeFormat> cache;
                        std::string buf;
                        const Vector& x = *args[0];
                        // With a constant pattern, rows in the same unit of its finest field (the same
                        // minute for 'HH:mm') share the previous row's text.
                        bool have_last = false;
                        int64_t last_unit = 0;
                        std::string_view last_text;
                        return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                          const DateTimeFormat* f = holder->Get(args[1]->GetString(i), &cache);
                          int64_t local;
                          if (x.type().IsCharacterString()) {
                            auto ts = ParseTimestamp(x.GetString(i));
                            if (!ts || f == nullptr) {
                              out->SetNull(i, true);
                              return Status::OK();
                            }
                            local = *ts;
                          } else {
                            local = LocalMicros(ctx, x, i);
                          }
                          if (f == nullptr) {
                            out->SetNull(i, true);
                            return Status::OK();
                          }
                          const int64_t unit = FloorDiv(local, f->granularity_micros());
                          if (have_last && unit == last_unit) {
                            out->SetStringView(i, last_text);
                            return Status::OK();
                          }
                          buf.clear();
                          f->Format(local, &buf);
                          out->SetString(i, buf);
                          if (holder->constant()) {
                            have_last = true;
                            last_unit = unit;
                            last_text = out->GetString(i);
                          }
                          return Status::OK();
                        });
                      });
}

// TO_TIMESTAMP(str[, fmt]) and TO_DATE(str[, fmt]); NULL when the text does not parse.
Result<FnPtr> ResolveToTimestamp(const CallInfo& c, bool date) {
  if (c.size() != 1 && c.size() != 2) return FnPtr();
  std::vector<LogicalType> casts(c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    if (!AsString(c.type(i), &casts[i])) return FnPtr();
  }
  ASSIGN_OR_RETURN(auto holder, FormatHolder::Make(c.size() == 2 ? ConstantString(c, 1) : nullptr));
  const bool has_format = c.size() == 2;
  LogicalType ret = date ? LogicalType::Date() : LogicalType::Timestamp(3);
  return MakeFunction(c.name, casts, ret.WithNullable(true),
                      [holder, has_format, date](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        std::shared_ptr<DateTimeFormat> cache;
                        return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                          std::string_view s = args[0]->GetString(i);
                          std::optional<int64_t> local;
                          if (has_format) {
                            const DateTimeFormat* f = holder->Get(args[1]->GetString(i), &cache);
                            int64_t v;
                            std::optional<int64_t> offset;
                            if (f != nullptr && f->Parse(s, &v, &offset)) local = v;
                          } else if (date) {
                            if (auto d = ParseDate(s)) local = static_cast<int64_t>(*d) * kMicrosPerDay;
                          } else {
                            local = ParseTimestamp(s);
                          }
                          if (!local) {
                            out->SetNull(i, true);
                          } else if (date) {
                            out->data<int32_t>()[i] = static_cast<int32_t>(FloorDiv(*local, kMicrosPerDay));
                          } else {
                            out->data<int64_t>()[i] = FloorDiv(*local, kMicrosPerMilli) * kMicrosPerMilli;
                          }
                          return Status::OK();
                        });
                      });
}

Result<FnPtr> ResolveToTimestampLtz(const CallInfo& c) {
  if (c.size() != 1 && c.size() != 2) return FnPtr();
  const LogicalType& x = c.type(0);
  if (!x.IsNumeric() && x.id() != TypeId::kNull) return FnPtr();
  int precision = 3;
  LogicalType pt = LogicalType::Integer();
  if (c.size() == 2) {
    if (!AsInt(c.type(1), &pt)) return FnPtr();
    const Value* p = c.constant(1);
    if (p == nullptr || p->is_null()) return Status::BindError("TO_TIMESTAMP_LTZ needs a constant precision (0 or 3)");
    precision = static_cast<int>(p->int_value());
    if (precision != 0 && precision != 3 && precision != 6 && precision != 9) {
      return Status::BindError("The precision of TO_TIMESTAMP_LTZ must be 0 (seconds) or 3 (milliseconds), not " +
                               std::to_string(precision));
    }
  }
  LogicalType xt = LogicalType::Double().WithNullable(x.nullable());
  if (x.IsIntegral()) xt = LogicalType::BigInt().WithNullable(x.nullable());
  std::vector<LogicalType> casts = {xt};
  if (c.size() == 2) casts.push_back(pt);
  // Flink's DateTimeUtils.toTimestampData: always nullable; NULL outside years 0000-9999.
  return MakeFunction(c.name, casts, LogicalType::TimestampLtz(3).WithNullable(true),
                      [precision](EvalContext&, const Vector* const* args, size_t, size_t rows, Vector* out) {
                        const Vector& x = *args[0];
                        const Vector* only[1] = {&x};
                        PropagateNulls(only, 1, rows, out);
                        // Milliseconds per unit of the input: seconds, millis, micros or nanos.
                        const double per_unit = precision == 0 ? 1e3 : precision == 3 ? 1.0 : precision == 6 ? 1e-3 : 1e-6;
                        int64_t* od = out->data<int64_t>();
                        for (size_t i = 0; i < rows; ++i) {
                          if (out->IsNull(i)) continue;
                          int64_t millis = 0;
                          bool ok = true;
                          if (x.type().id() == TypeId::kBigInt) {
                            int64_t v = x.data<int64_t>()[i];
                            if (precision == 0) {
                              ok = v >= kMinEpochMillis / 1000 && v <= kMaxEpochMillis / 1000;
                              millis = ok ? v * 1000 : 0;
                            } else {
                              millis = precision == 3 ? v : FloorDiv(v, precision == 6 ? 1000 : 1000000);
                            }
                          } else {
                            double m = x.data<double>()[i] * per_unit;
                            ok = std::isfinite(m) && m >= static_cast<double>(kMinEpochMillis) &&
                                 m <= static_cast<double>(kMaxEpochMillis);
                            millis = ok ? static_cast<int64_t>(m) : 0;  // truncated, as Java's (long)
                          }
                          if (!ok || millis < kMinEpochMillis || millis > kMaxEpochMillis) {
                            out->SetNull(i, true);
                            continue;
                          }
                          od[i] = millis * kMicrosPerMilli;
                        }
                        return Status::OK();
                      });
}

Result<FnPtr> ResolveUnixTimestamp(const CallInfo& c) {
  if (c.size() == 0) return ResolveNow(c, Now::kUnixSeconds);
  if (c.size() > 2) return FnPtr();
  std::vector<LogicalType> casts(c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    if (!AsString(c.type(i), &casts[i])) return FnPtr();
  }
  ASSIGN_OR_RETURN(auto holder, FormatHolder::Make(c.size() == 2 ? ConstantString(c, 1) : &kDefaultFormat));
  const bool has_format = c.size() == 2;
  return MakeFunction(c.name, casts, LogicalType::BigInt().WithNullable(c.AnyNullable()),
                      [holder, has_format](EvalContext& ctx, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        std::shared_ptr<DateTimeFormat> cache;
                        return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                          const DateTimeFormat* f = holder->Get(has_format ? args[1]->GetString(i) : kDefaultFormat, &cache);
                          int64_t local;
                          std::optional<int64_t> offset;
                          int64_t r = INT64_MIN;  // Flink: Long.MIN_VALUE when the text does not parse
                          if (f != nullptr && f->Parse(args[0]->GetString(i), &local, &offset)) {
                            int64_t utc = offset ? local - *offset : ctx.LocalToUtc(local);
                            r = FloorDiv(utc, kMicrosPerSecond);
                          }
                          out->data<int64_t>()[i] = r;
                          return Status::OK();
                        });
                      });
}

Result<FnPtr> ResolveFromUnixtime(const CallInfo& c) {
  if (c.size() != 1 && c.size() != 2) return FnPtr();
  std::vector<LogicalType> casts(c.size());
  if (!AsBigInt(c.type(0), &casts[0])) return FnPtr();
  if (c.size() == 2 && !AsString(c.type(1), &casts[1])) return FnPtr();
  ASSIGN_OR_RETURN(auto holder, FormatHolder::Make(c.size() == 2 ? ConstantString(c, 1) : &kDefaultFormat));
  const bool has_format = c.size() == 2;
  return MakeFunction(c.name, casts, LogicalType::String().WithNullable(c.AnyNullable()),
                      [holder, has_format](EvalContext& ctx, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                        std::shared_ptr<DateTimeFormat> cache;
                        std::string buf;
                        return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                          const DateTimeFormat* f = holder->Get(has_format ? args[1]->GetString(i) : kDefaultFormat, &cache);
                          if (f == nullptr) {
                            out->SetNull(i, true);
                            return Status::OK();
                          }
                          buf.clear();
                          f->Format(ctx.UtcToLocal(args[0]->data<int64_t>()[i] * kMicrosPerSecond), &buf);
                          out->SetString(i, buf);
                          return Status::OK();
                        });
                      });
}

// A time zone as an EvalContext (for its conversions), resolved once per distinct name.
struct ZoneCache {
  std::string name;
  EvalContext ctx;
  bool ok = false;
  const EvalContext* Get(std::string_view zone) {
    if (ok && name == zone) return &ctx;
    name = std::string(zone);
    ok = ResolveTimeZone(name, &ctx.time_zone, &ctx.fixed_offset_micros).ok();
    ctx.cached_begin_ = 1;
    ctx.cached_end_ = 0;
    return ok ? &ctx : nullptr;
  }
};

Result<FnPtr> ResolveConvertTz(const CallInfo& c) {
  for (size_t k = 1; k < c.size(); ++k) {
    if (const std::string* z = ConstantString(c, k)) {
      const date::time_zone* zone;
      int64_t off;
      RETURN_IF_ERROR(ResolveTimeZone(*z, &zone, &off).WithContext("CONVERT_TZ"));
    }
  }
  return Simple(c, {AsString, AsString, AsString}, LogicalType::String(),
                [](EvalContext&, const Vector* const* args, size_t n, size_t rows, Vector* out) {
                  ZoneCache from_cache, to_cache;
                  std::string buf;
                  return ForEachValidRow(args, n, rows, out, [&](size_t i) {
                    const EvalContext* from = from_cache.Get(args[1]->GetString(i));
                    const EvalContext* to = to_cache.Get(args[2]->GetString(i));
                    auto ts = ParseTimestamp(args[0]->GetString(i));
                    if (from == nullptr || to == nullptr || !ts) {
                      out->SetNull(i, true);
                      return Status::OK();
                    }
                    int64_t local = to->UtcToLocal(from->LocalToUtc(*ts));
                    buf.clear();
                    AppendTimestamp(FloorDiv(local, kMicrosPerSecond) * kMicrosPerSecond, 0, &buf);
                    out->SetString(i, buf);
                    return Status::OK();
                  });
                },
                true);
}

}  // namespace

void RegisterTemporalFunctions(FunctionTable* t) {
  t->Add({"CURRENT_TIMESTAMP", {"CURRENT_TIMESTAMP"}, [](const CallInfo& c) { return ResolveNow(c, Now::kTimestampLtz); }});
  t->Alias("NOW", "CURRENT_TIMESTAMP");
  t->Alias("CURRENT_ROW_TIMESTAMP", "CURRENT_TIMESTAMP");
  t->Add({"PROCTIME", {"PROCTIME()"}, [](const CallInfo& c) { return ResolveNow(c, Now::kTimestampLtz, TimeAttribute::kProctime); }});
  // CURRENT_WATERMARK(rowtime): the evaluating operator's watermark, NULL before the first one (Flink).
  t->Add({"CURRENT_WATERMARK", {"CURRENT_WATERMARK(<rowtime attribute>)"}, [](const CallInfo& c) -> Result<FnPtr> {
            if (c.size() != 1 || !c.type(0).IsTimestamp()) return FnPtr();
            if (c.type(0).time_attribute() != TimeAttribute::kRowtime) {
              return Status::InvalidArgument("The argument of CURRENT_WATERMARK must be a rowtime attribute, but is " +
                                             c.type(0).ToString() + ".");
            }
            const LogicalType ret = c.type(0).WithTimeAttribute(TimeAttribute::kNone).WithNullable(true);
            return MakeFunction(c.name, {c.type(0)}, ret,
                                [](EvalContext& ctx, const Vector* const*, size_t, size_t rows, Vector* out) {
                                  if (ctx.current_watermark == std::numeric_limits<int64_t>::min()) {
                                    for (size_t i = 0; i < rows; ++i) out->SetNull(i, true);
                                  } else {
                                    std::fill_n(out->data<int64_t>(), rows, ctx.current_watermark);
                                  }
                                  return Status::OK();
                                },
                                /*deterministic=*/false);
          }});
  t->Add({"LOCALTIMESTAMP", {"LOCALTIMESTAMP"}, [](const CallInfo& c) { return ResolveNow(c, Now::kLocalTimestamp); }});
  t->Add({"CURRENT_DATE", {"CURRENT_DATE"}, [](const CallInfo& c) { return ResolveNow(c, Now::kDate); }});
  t->Add({"CURRENT_TIME", {"CURRENT_TIME"}, [](const CallInfo& c) { return ResolveNow(c, Now::kTime); }});
  t->Alias("LOCALTIME", "CURRENT_TIME");
  t->Add({"EXTRACT", {"EXTRACT(<TIME_UNIT> FROM <DATETIME>)"}, ResolveExtract, false});
  static const std::pair<const char*, Unit> kFieldFunctions[] = {
      {"YEAR", Unit::kYear},   {"QUARTER", Unit::kQuarter},   {"MONTH", Unit::kMonth},
      {"WEEK", Unit::kWeek},   {"DAYOFYEAR", Unit::kDoy},     {"DAYOFMONTH", Unit::kDay},
      {"DAYOFWEEK", Unit::kDow}, {"HOUR", Unit::kHour},       {"MINUTE", Unit::kMinute},
      {"SECOND", Unit::kSecond}};
  for (const auto& [name, unit] : kFieldFunctions) {
    Unit u = unit;
    t->Add({name, {std::string(name) + "(<DATETIME>)"}, [u](const CallInfo& c) -> Result<FnPtr> {
              if (c.size() != 1) return FnPtr();
              return MakeExtract(c, u, 0, c.type(0));
            }});
  }
  t->Add({"FLOOR_TO", {"FLOOR(<DATETIME> TO <TIME_UNIT>)"}, [](const CallInfo& c) { return ResolveFloorCeilTo(c, false); }, false});
  t->Add({"CEIL_TO", {"CEIL(<DATETIME> TO <TIME_UNIT>)"}, [](const CallInfo& c) { return ResolveFloorCeilTo(c, true); }, false});
  t->Add({"TIMESTAMPADD", {"TIMESTAMPADD(<TIME_UNIT>, <INTEGER>, <DATETIME>)"}, ResolveTimestampAdd});
  t->Add({"TIMESTAMPDIFF", {"TIMESTAMPDIFF(<TIME_UNIT>, <DATETIME>, <DATETIME>)"}, ResolveTimestampDiff});
  t->Add({"DATE_FORMAT", {"DATE_FORMAT(<TIMESTAMP>, <CHARACTER>)", "DATE_FORMAT(<CHARACTER>, <CHARACTER>)"}, ResolveDateFormat});
  t->Add({"TO_TIMESTAMP", {"TO_TIMESTAMP(<CHARACTER>)", "TO_TIMESTAMP(<CHARACTER>, <CHARACTER>)"},
          [](const CallInfo& c) { return ResolveToTimestamp(c, false); }});
  t->Add({"TO_DATE", {"TO_DATE(<CHARACTER>)", "TO_DATE(<CHARACTER>, <CHARACTER>)"},
          [](const CallInfo& c) { return ResolveToTimestamp(c, true); }});
  t->Add({"TO_TIMESTAMP_LTZ", {"TO_TIMESTAMP_LTZ(<NUMERIC>, <INTEGER>)"}, ResolveToTimestampLtz});
  t->Add({"UNIX_TIMESTAMP", {"UNIX_TIMESTAMP()", "UNIX_TIMESTAMP(<CHARACTER>)", "UNIX_TIMESTAMP(<CHARACTER>, <CHARACTER>)"},
          ResolveUnixTimestamp});
  t->Add({"FROM_UNIXTIME", {"FROM_UNIXTIME(<NUMERIC>)", "FROM_UNIXTIME(<NUMERIC>, <CHARACTER>)"}, ResolveFromUnixtime});
  t->Add({"CONVERT_TZ", {"CONVERT_TZ(<CHARACTER>, <CHARACTER>, <CHARACTER>)"}, ResolveConvertTz});
}

}  // namespace sluice::fn
