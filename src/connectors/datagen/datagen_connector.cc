#include "connectors/datagen/datagen_connector.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "common/check.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "common/config.h"
#include "connectors/connector_options.h"
#include "connectors/datagen/generator_options.h"
#include "formats/format.h"
#include "connectors/nexmark/splittable_random.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice {

namespace {

constexpr int32_t kDefaultStringLength = 100;
constexpr int32_t kDefaultCollectionLength = 3;
constexpr int64_t kDefaultRowsPerSecond = 10000;

// How one field (a column or a nested field) is generated; the tree mirrors the type.
struct FieldConfig {
  std::string path;  // "buyer.first_name", as it appears in 'fields.<path>.<option>'
  LogicalType type;
  bool sequence = false;
  double null_rate = 0;
  // random integers (TINYINT..BIGINT, intervals) and random FLOAT/DOUBLE/DECIMAL
  int64_t min_i = 0, max_i = 0;
  double min_d = 0, max_d = 0;
  int64_t max_past_ms = 0;
  int32_t length = 0;  // string length or collection size
  bool var_len = false;
  // sequence: start + k for k in [0, count)
  int64_t start_i = 0;
  double start_d = 0;
  int64_t count = 0;
  std::vector<FieldConfig> children;
  // The seeds of this field's random values and of its NULL decisions (AssignSeeds): row i's draws
  // come from a generator seeded by (seed, i) alone.
  uint64_t seed = 0;
  uint64_t null_seed = 0;
};

// Gives `f` and its nested fields their seeds, derived from the column's.
void AssignSeeds(FieldConfig* f, uint64_t seed) {
  f->seed = seed;
  f->null_seed = SplittableRandom::Mix64(seed ^ 0x6e756c6c2d726174ULL);
  for (size_t c = 0; c < f->children.size(); ++c) {
    AssignSeeds(&f->children[c], SplittableRandom::Mix64(seed + (c + 1) * SplittableRandom::kGoldenGamma));
  }
}

// The generator of the draws of value `index` (a row, or an element of a collection) of a field
// with seed `seed`: a function of the two only, so a value never depends on the values before it.
SplittableRandom IndexRandom(uint64_t seed, int64_t index) {
  return SplittableRandom(
      static_cast<int64_t>(SplittableRandom::Mix64(seed + static_cast<uint64_t>(index) * SplittableRandom::kGoldenGamma)));
}

bool IsIntegerLike(TypeId id) {
  return id == TypeId::kTinyInt || id == TypeId::kSmallInt || id == TypeId::kInteger || id == TypeId::kBigInt ||
         id == TypeId::kIntervalYearMonth || id == TypeId::kIntervalDayTime;
}

void IntegerRange(const LogicalType& t, int64_t* lo, int64_t* hi) {
  switch (t.id()) {
    case TypeId::kTinyInt: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case TypeId::kSmallInt: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case TypeId::kInteger: *lo = INT32_MIN; *hi = INT32_MAX; break;
    case TypeId::kIntervalYearMonth: *lo = 0; *hi = 120000; break;  // Flink's default (Period max)
    default: *lo = INT64_MIN; *hi = INT64_MAX; break;
  }
}

__int128 Pow10(int n) {
  __int128 r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

class FieldParser {
 public:
  FieldParser(const std::string& table, const std::map<std::string, std::string>& options,
              std::vector<std::string>* known)
      : table_(table), options_(options), reader_(table, &options), known_(known) {}

  Result<FieldConfig> Parse(const std::string& path, const LogicalType& type) {
    FieldConfig f;
    f.path = path;
    f.type = type;
    const TypeId id = type.id();
    const bool seq_capable = IsIntegerLike(id) && !type.IsInterval();
    const bool is_decimal_or_float = id == TypeId::kFloat || id == TypeId::kDouble || id == TypeId::kDecimal;
    const bool is_string = type.IsStringLike();
    const bool can_sequence = seq_capable || is_decimal_or_float || is_string;

    RETURN_IF_ERROR(ParseKind(path, &f));
    if (f.sequence && !can_sequence) {
      return Status::InvalidArgument("Field '" + path + "' of datagen table '" + table_ + "' has type " +
                                     type.ToString() + ", which the sequence generator does not support");
    }
    if (can_sequence && f.sequence) RETURN_IF_ERROR(ParseSequence(path, type, seq_capable, is_string, &f));
    if (IsIntegerLike(id)) {
      RETURN_IF_ERROR(ParseIntegerRange(path, type, &f));
    } else if (is_decimal_or_float) {
      RETURN_IF_ERROR(ParseFloatRange(path, type, &f));
    } else if (is_string) {
      RETURN_IF_ERROR(ParseStringLength(path, type, &f));
    } else if (type.IsTimestamp()) {
      if (Get(path, "max-past")) {
        ASSIGN_OR_RETURN(f.max_past_ms, reader_.GetDurationMillis(Key(path, "max-past"), 0));
      }
    } else if (type.IsList() || id == TypeId::kRow) {
      RETURN_IF_ERROR(ParseChildren(path, type, &f));
    } else if (id == TypeId::kNull) {
      return Status::InvalidArgument("Field '" + path + "' of datagen table '" + table_ +
                                     "' has type NULL, which datagen cannot generate");
    }
    // The keys this field understands, for the unknown-option check.
    std::vector<const char*> keys = {"kind", "null-rate"};
    if (can_sequence) {
      keys.push_back("start");
      keys.push_back("end");
    }
    if (IsIntegerLike(id) || is_decimal_or_float) {
      keys.push_back("min");
      keys.push_back("max");
    }
    if (is_string || type.IsList()) keys.push_back("length");
    if (is_string && id != TypeId::kChar && id != TypeId::kBinary) keys.push_back("var-len");
    if (type.IsTimestamp()) keys.push_back("max-past");
    for (const char* k : keys) known_->push_back(Key(path, k));
    return f;
  }

 private:
  // 'fields.<path>.kind' and '.null-rate'.
  Status ParseKind(const std::string& path, FieldConfig* f) const {
    if (const std::string* v = Get(path, "kind")) {
      if (*v == "sequence") {
        f->sequence = true;
      } else if (*v != "random") {
        return reader_.InvalidValue(Key(path, "kind"), "'" + *v + "' is not one of 'random', 'sequence'");
      }
    }
    if (const std::string* v = Get(path, "null-rate")) {
      ASSIGN_OR_RETURN(f->null_rate, GetDouble(reader_, Key(path, "null-rate"), 0));
      if (f->null_rate < 0 || f->null_rate > 1) {
        return reader_.InvalidValue(Key(path, "null-rate"), "'" + *v + "' is not within [0, 1]");
      }
    }
    return Status::OK();
  }

  // A sequence's 'start' and 'end': integers (within the type's range when `seq_capable`) for an
  // integer or string field, else doubles.
  Status ParseSequence(const std::string& path, const LogicalType& type, bool seq_capable, bool is_string,
                       FieldConfig* f) const {
    const std::string* start = Get(path, "start");
    const std::string* end = Get(path, "end");
    if (start == nullptr || end == nullptr) {
      return Status::InvalidArgument("Could not find required property '" + Key(path, start ? "end" : "start") +
                                     "' for the sequence generator of datagen table '" + table_ + "'");
    }
    if (seq_capable || is_string) {
      int64_t lo = INT64_MIN, hi = INT64_MAX;
      if (seq_capable) IntegerRange(type, &lo, &hi);
      ASSIGN_OR_RETURN(f->start_i, GetIntInRange(reader_, Key(path, "start"), 0, lo, hi));
      ASSIGN_OR_RETURN(int64_t e, GetIntInRange(reader_, Key(path, "end"), 0, lo, hi));
      if (e < f->start_i) return reader_.InvalidValue(Key(path, "end"), "'" + *end + "' is before the start");
      __int128 count = static_cast<__int128>(e) - f->start_i + 1;
      f->count = count > INT64_MAX ? INT64_MAX : static_cast<int64_t>(count);
    } else {
      ASSIGN_OR_RETURN(f->start_d, GetDouble(reader_, Key(path, "start"), 0));
      ASSIGN_OR_RETURN(double e, GetDouble(reader_, Key(path, "end"), 0));
      if (e < f->start_d) return reader_.InvalidValue(Key(path, "end"), "'" + *end + "' is before the start");
      f->count = static_cast<int64_t>(std::min(std::floor(e - f->start_d) + 1, 9.2e18));
    }
    return Status::OK();
  }

  Status ParseIntegerRange(const std::string& path, const LogicalType& type, FieldConfig* f) const {
    const TypeId id = type.id();
    int64_t lo, hi;
    IntegerRange(type, &lo, &hi);
    if (id == TypeId::kIntervalYearMonth) IntegerRange(LogicalType::Integer(), &lo, &hi);
    f->min_i = id == TypeId::kIntervalYearMonth ? 0 : lo;
    f->max_i = id == TypeId::kIntervalYearMonth ? 120000 : hi;
    if (Get(path, "min")) {
      ASSIGN_OR_RETURN(f->min_i, GetIntInRange(reader_, Key(path, "min"), 0, lo, hi));
    }
    if (Get(path, "max")) {
      ASSIGN_OR_RETURN(f->max_i, GetIntInRange(reader_, Key(path, "max"), 0, lo, hi));
    }
    if (f->min_i > f->max_i) return reader_.InvalidValue(Key(path, "max"), "max is smaller than min");
    return Status::OK();
  }

  Status ParseFloatRange(const std::string& path, const LogicalType& type, FieldConfig* f) const {
    const TypeId id = type.id();
    // Flink's defaults: the smallest positive value up to the largest (Float/Double.MIN_VALUE,
    // MAX_VALUE); DECIMAL then clamps to what its precision can hold.
    if (id == TypeId::kFloat) {
      f->min_d = std::numeric_limits<float>::denorm_min();
      f->max_d = FLT_MAX;
    } else {
      f->min_d = std::numeric_limits<double>::denorm_min();
      f->max_d = DBL_MAX;
    }
    if (Get(path, "min")) {
      ASSIGN_OR_RETURN(f->min_d, GetDouble(reader_, Key(path, "min"), 0));
    }
    if (Get(path, "max")) {
      ASSIGN_OR_RETURN(f->max_d, GetDouble(reader_, Key(path, "max"), 0));
    }
    if (id == TypeId::kDecimal) {
      double limit = std::pow(10.0, type.precision() - type.scale()) - std::pow(10.0, -type.scale());
      f->min_d = std::max(f->min_d, -limit);
      f->max_d = std::min(f->max_d, limit);
    }
    if (f->min_d > f->max_d) return reader_.InvalidValue(Key(path, "max"), "max is smaller than min");
    return Status::OK();
  }

  Status ParseStringLength(const std::string& path, const LogicalType& type, FieldConfig* f) const {
    const TypeId id = type.id();
    const bool fixed = id == TypeId::kChar || id == TypeId::kBinary;
    const bool bounded_var = !fixed && type.length() < LogicalType::kMaxVarCharLength;
    f->length = fixed ? type.length() : std::min<int32_t>(kDefaultStringLength, type.length());
    if (const std::string* v = Get(path, "length")) {
      if (fixed) {
        return Status::InvalidArgument("Custom length for fixed-length type (CHAR/BINARY) field '" + path +
                                       "' of datagen table '" + table_ + "' is not supported");
      }
      ASSIGN_OR_RETURN(int64_t n, GetIntInRange(reader_, Key(path, "length"), 0, 0, INT32_MAX));
      if (bounded_var && n > type.length()) {
        return reader_.InvalidValue(Key(path, "length"),
                                    "custom length '" + *v + "' for variable-length field '" + path +
                                        "' should not be longer than the " + std::to_string(type.length()) +
                                        " defined in the schema");
      }
      f->length = static_cast<int32_t>(n);
    }
    if (!fixed) {
      if (Get(path, "var-len")) {
        ASSIGN_OR_RETURN(f->var_len, reader_.GetBool(Key(path, "var-len"), false));
      }
    }
    return Status::OK();
  }

  // ARRAY/MULTISET/MAP (a length, then the element's or the key's and value's fields) and ROW.
  Status ParseChildren(const std::string& path, const LogicalType& type, FieldConfig* f) {
    const TypeId id = type.id();
    if (id == TypeId::kRow) {
      for (size_t i = 0; i < type.num_children(); ++i) {
        ASSIGN_OR_RETURN(FieldConfig c, Parse(path + "." + type.field_name(i), type.child(i)));
        f->children.push_back(std::move(c));
      }
      return Status::OK();
    }
    f->length = kDefaultCollectionLength;
    if (Get(path, "length")) {
      ASSIGN_OR_RETURN(int64_t n, GetIntInRange(reader_, Key(path, "length"), 0, 0, 1 << 20));
      f->length = static_cast<int32_t>(n);
    }
    if (id == TypeId::kMap) {
      ASSIGN_OR_RETURN(FieldConfig k, Parse(path + ".key", type.child(0)));
      ASSIGN_OR_RETURN(FieldConfig val, Parse(path + ".value", type.child(1)));
      f->children.push_back(std::move(k));
      f->children.push_back(std::move(val));
    } else {
      ASSIGN_OR_RETURN(FieldConfig e, Parse(path + ".element", type.child(0)));
      f->children.push_back(std::move(e));
    }
    return Status::OK();
  }

  static std::string Key(const std::string& path, const char* option) { return "fields." + path + "." + option; }
  const std::string* Get(const std::string& path, const char* option) const {
    auto it = options_.find(Key(path, option));
    return it == options_.end() ? nullptr : &it->second;
  }

  const std::string& table_;
  const std::map<std::string, std::string>& options_;
  const OptionReader reader_;
  std::vector<std::string>* known_;
};

// Fills rows [begin, begin + n) of vectors from a FieldConfig; `row_index` is the global index of
// row `begin` (the value of sequences; the random draws of row i come from IndexRandom(seed,
// row_index + i)). Elements of collections are indexed globally: element e of row r of a
// collection of length L has index r * L + e.
class FieldFiller {
 public:
  explicit FieldFiller(const Clock& clock) : clock_(clock) {}

  void Fill(const FieldConfig& f, Vector& v, size_t begin, size_t n, int64_t row_index) {
    const TypeId id = f.type.id();
    switch (id) {
      case TypeId::kBoolean: {
        uint8_t* d = v.data<uint8_t>() + begin;
        for (size_t i = 0; i < n; ++i) {
          StartValue(f, row_index, i);
          d[i] = static_cast<uint8_t>(random_.NextInt() & 1);
        }
        break;
      }
      case TypeId::kTinyInt: FillIntegers<int8_t>(f, v, begin, n, row_index); break;
      case TypeId::kSmallInt: FillIntegers<int16_t>(f, v, begin, n, row_index); break;
      case TypeId::kInteger:
      case TypeId::kIntervalYearMonth: FillIntegers<int32_t>(f, v, begin, n, row_index); break;
      case TypeId::kBigInt:
      case TypeId::kIntervalDayTime: FillIntegers<int64_t>(f, v, begin, n, row_index); break;
      case TypeId::kFloat: FillFloats<float>(f, v, begin, n, row_index); break;
      case TypeId::kDouble: FillFloats<double>(f, v, begin, n, row_index); break;
      case TypeId::kDecimal: {
        __int128* d = v.data<__int128>() + begin;
        const double scale = std::pow(10.0, f.type.scale());
        const __int128 unit = Pow10(f.type.scale());
        for (size_t i = 0; i < n; ++i) {
          if (f.sequence) {
            d[i] = static_cast<__int128>(f.start_d + static_cast<double>(row_index + static_cast<int64_t>(i))) * unit;
          } else {
            StartValue(f, row_index, i);
            double x = f.min_d + random_.NextDouble() * (f.max_d - f.min_d);
            d[i] = static_cast<__int128>(std::llround(std::clamp(x * scale, -9.2e18, 9.2e18)));
          }
        }
        break;
      }
      case TypeId::kChar:
      case TypeId::kVarChar:
      case TypeId::kBinary:
      case TypeId::kVarBinary: FillStrings(f, v, begin, n, row_index); break;
      case TypeId::kDate: {
        int32_t* d = v.data<int32_t>() + begin;
        const int32_t today = static_cast<int32_t>(FloorDiv(clock_.NowMicros(), kMicrosPerDay));
        std::fill(d, d + n, today);
        break;
      }
      case TypeId::kTime: {
        int32_t* d = v.data<int32_t>() + begin;
        const int32_t now = static_cast<int32_t>(FloorMod(clock_.NowMicros(), kMicrosPerDay) / kMicrosPerMilli);
        std::fill(d, d + n, now);
        break;
      }
      case TypeId::kTimestamp:
      case TypeId::kTimestampLtz: {
        int64_t* d = v.data<int64_t>() + begin;
        const int64_t now_ms = FloorDiv(clock_.NowMicros(), kMicrosPerMilli);
        for (size_t i = 0; i < n; ++i) {
          StartValue(f, row_index, i);
          int64_t past = f.max_past_ms > 0 ? BoundedLong(0, f.max_past_ms) : 0;
          d[i] = (now_ms - past) * kMicrosPerMilli;
        }
        break;
      }
      case TypeId::kArray:
      case TypeId::kMultiset:
      case TypeId::kMap: FillList(f, v, begin, n, row_index); break;
      case TypeId::kRow:
        for (size_t c = 0; c < f.children.size(); ++c) Fill(f.children[c], v.child(c), begin, n, row_index);
        break;
      case TypeId::kNull: SLUICE_UNREACHABLE();
    }
    if (f.null_rate > 0) {
      for (size_t i = 0; i < n; ++i) {
        random_ = IndexRandom(f.null_seed, row_index + static_cast<int64_t>(i));
        if (random_.NextDouble() < f.null_rate) {
          v.SetNull(begin + i, true);
          if (id == TypeId::kRow) {
            for (size_t c = 0; c < v.num_children(); ++c) v.child(c).SetNull(begin + i, true);
          }
        }
      }
    }
  }

 private:
  // The draws of value `i` of this fill come next.
  void StartValue(const FieldConfig& f, int64_t row_index, size_t i) {
    random_ = IndexRandom(f.seed, row_index + static_cast<int64_t>(i));
  }

  // Uniform in [lo, hi].
  int64_t BoundedLong(int64_t lo, int64_t hi) {
    const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    const uint64_t r = static_cast<uint64_t>(random_.NextLong());
    if (range == UINT64_MAX) return static_cast<int64_t>(r);
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + r % (range + 1));
  }

  template <typename T>
  void FillIntegers(const FieldConfig& f, Vector& v, size_t begin, size_t n, int64_t row_index) {
    T* d = v.data<T>() + begin;
    if (f.sequence) {
      for (size_t i = 0; i < n; ++i) d[i] = static_cast<T>(f.start_i + row_index + static_cast<int64_t>(i));
    } else {
      for (size_t i = 0; i < n; ++i) {
        StartValue(f, row_index, i);
        d[i] = static_cast<T>(BoundedLong(f.min_i, f.max_i));
      }
    }
  }

  template <typename T>
  void FillFloats(const FieldConfig& f, Vector& v, size_t begin, size_t n, int64_t row_index) {
    T* d = v.data<T>() + begin;
    if (f.sequence) {
      for (size_t i = 0; i < n; ++i) d[i] = static_cast<T>(f.start_d + static_cast<double>(row_index + static_cast<int64_t>(i)));
    } else {
      // max - min may overflow to infinity for the default range; scale both ends instead.
      for (size_t i = 0; i < n; ++i) {
        StartValue(f, row_index, i);
        double r = random_.NextDouble();
        d[i] = static_cast<T>(f.min_d * (1 - r) + f.max_d * r);
      }
    }
  }

  void FillStrings(const FieldConfig& f, Vector& v, size_t begin, size_t n, int64_t row_index) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string_view* d = v.data<std::string_view>() + begin;
    StringHeap& heap = v.heap();
    const bool binary = f.type.IsBinaryString();
    for (size_t i = 0; i < n; ++i) {
      if (f.sequence) {
        d[i] = heap.Add(std::to_string(f.start_i + row_index + static_cast<int64_t>(i)));
        continue;
      }
      StartValue(f, row_index, i);
      int32_t len = f.length;
      if (f.var_len && len > 0) len = 1 + random_.NextInt(len);
      char* p = heap.Allocate(static_cast<size_t>(len));
      // One random long gives 16 hex digits or 8 bytes.
      const int32_t per_long = binary ? 8 : 16;
      for (int32_t k = 0; k < len; k += per_long) {
        uint64_t bits = static_cast<uint64_t>(random_.NextLong());
        for (int32_t j = k; j < std::min(len, k + per_long); ++j) {
          p[j] = binary ? static_cast<char>(bits & 0xff) : kHex[bits & 15];
          bits >>= binary ? 8 : 4;
        }
      }
      d[i] = std::string_view(p, static_cast<size_t>(len));
    }
  }

  void FillList(const FieldConfig& f, Vector& v, size_t begin, size_t n, int64_t row_index) {
    const size_t len = static_cast<size_t>(f.length);
    const size_t child_begin = v.child(0).size();
    for (size_t c = 0; c < v.num_children(); ++c) v.child(c).Resize(child_begin + n * len);
    ListEntry* d = v.data<ListEntry>() + begin;
    for (size_t i = 0; i < n; ++i) d[i] = ListEntry{static_cast<uint32_t>(child_begin + i * len), static_cast<uint32_t>(len)};
    const int64_t first_element = static_cast<int64_t>(static_cast<uint64_t>(row_index) * len);
    for (size_t c = 0; c < f.children.size(); ++c) Fill(f.children[c], v.child(c), child_begin, n * len, first_element);
    if (f.type.id() == TypeId::kMap && len > 1) DedupMapKeys(v, begin, n, child_begin);
  }

  // A MAP holds each key once (Flink fills a HashMap): later duplicates of a row's key are dropped.
  static void DedupMapKeys(Vector& v, size_t begin, size_t n, size_t child_begin) {
    Vector& keys = v.child(0);
    std::vector<uint32_t> keep;
    keep.reserve(keys.size());
    for (uint32_t k = 0; k < child_begin; ++k) keep.push_back(k);
    bool dropped = false;
    ListEntry* d = v.data<ListEntry>() + begin;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t first = d[i].offset, count = d[i].length;
      const uint32_t new_offset = static_cast<uint32_t>(keep.size());
      for (uint32_t a = first; a < first + count; ++a) {
        Value key = keys.GetValue(a);
        bool dup = false;
        for (uint32_t b = new_offset; b < keep.size() && !dup; ++b) dup = keys.GetValue(keep[b]) == key;
        if (dup) {
          dropped = true;
        } else {
          keep.push_back(a);
        }
      }
      d[i] = ListEntry{new_offset, static_cast<uint32_t>(keep.size()) - new_offset};
    }
    if (!dropped) return;
    for (size_t c = 0; c < v.num_children(); ++c) {
      Vector compact(v.child(c).type(), 0);
      compact.AppendFrom(v.child(c), keep.data(), 0, keep.size());
      v.child(c) = std::move(compact);
    }
  }

  const Clock& clock_;
  SplittableRandom random_{0};  // the draws of the value being filled
};

// Rows in the shortest sequence of this field or its nested fields, or -1 when there is none.
int64_t ShortestSequence(const FieldConfig& f) {
  int64_t best = f.sequence ? f.count : -1;
  for (const FieldConfig& c : f.children) {
    int64_t n = ShortestSequence(c);
    if (n >= 0 && (best < 0 || n < best)) best = n;
  }
  return best;
}

struct DatagenSettings {
  int64_t rows_per_second = kDefaultRowsPerSecond;
  int64_t total_rows = INT64_MAX;  // min of 'number-of-rows' and the shortest sequence
  bool bounded = false;
  std::vector<FieldConfig> columns;  // projected, in output order, with their seeds
};

class DatagenSplit final : public SourceSplit {
 public:
  DatagenSplit(std::shared_ptr<const DatagenSettings> settings, GeneratorTiming timing)
      : settings_(std::move(settings)), timing_(std::move(timing)) {}

  std::string id() const override { return "datagen-0"; }

  Result<bool> Read(size_t max_rows, Chunk* out) override {
    last_read_rows_ = 0;
    const int64_t remaining = settings_->total_rows - emitted_;
    if (remaining <= 0) return false;
    if (max_rows == 0) return true;
    const size_t n = static_cast<size_t>(std::min<int64_t>(Throttle(max_rows), remaining));
    const size_t begin = out->size();
    out->Resize(begin + n);
    FieldFiller filler(*timing_.clock);
    for (size_t c = 0; c < settings_->columns.size(); ++c) {
      filler.Fill(settings_->columns[c], out->column(c), begin, n, emitted_);
    }
    emitted_ += static_cast<int64_t>(n);
    last_read_rows_ = n;
    return true;
  }

  // The position is "datagen-v1 <rows generated>": every value is a function of the seed, its
  // field and its row number (FieldFiller), so the rows after it are those of an uninterrupted run.
  std::string CheckpointPosition(size_t rows_of_last_read) const override {
    SLUICE_CHECK_LE(rows_of_last_read, last_read_rows_);
    const int64_t rows = emitted_ - static_cast<int64_t>(last_read_rows_ - rows_of_last_read);
    return std::string(kPositionTag) + " " + std::to_string(rows);
  }

  Status SeekToPosition(const std::string& position) override {
    uint64_t rows = 0;
    RETURN_IF_ERROR(ParseGeneratorPosition(position, kPositionTag, 1, &rows, "split " + id(), "datagen-v1 <rows>"));
    if (rows > static_cast<uint64_t>(settings_->total_rows)) {
      return Status::InvalidArgument("split " + id() + " has " + std::to_string(settings_->total_rows) +
                                     " rows, the checkpoint had read " + std::to_string(rows) +
                                     " ('number-of-rows' or a sequence changed since the checkpoint?)");
    }
    emitted_ = static_cast<int64_t>(rows);
    last_read_rows_ = 0;
    return Status::OK();
  }

 private:
  // 'rows-per-second' on processing time: rows become available at that rate, starting with one
  // chunk's worth at the first read (of this run: a restored split starts its pace afresh).
  // Returns how many rows may be emitted now (>= 1), after waiting when none may.
  int64_t Throttle(size_t max_rows) {
    const int64_t rps = settings_->rows_per_second;
    const int64_t burst = std::min<int64_t>(rps, static_cast<int64_t>(max_rows));
    if (start_us_ < 0) {
      start_us_ = timing_.clock->NowMicros();
      start_rows_ = emitted_;
    }
    const int64_t emitted = emitted_ - start_rows_;
    for (;;) {
      const int64_t elapsed = timing_.clock->NowMicros() - start_us_;
      const __int128 allowed = static_cast<__int128>(rps) * elapsed / kMicrosPerSecond + burst;
      if (allowed > emitted) {
        return static_cast<int64_t>(std::min<__int128>(allowed - emitted, static_cast<__int128>(max_rows)));
      }
      // Wait until a batch of rows (10 ms worth, at least one) is allowed: rps * elapsed / 1e6 >=
      // emitted - burst + batch.
      const int64_t batch = std::clamp<int64_t>(rps / 100, 1, static_cast<int64_t>(std::max<size_t>(max_rows, 1)));
      const __int128 due = (static_cast<__int128>(emitted - burst + batch) * kMicrosPerSecond + rps - 1) / rps;
      timing_.sleep_micros(std::max<int64_t>(static_cast<int64_t>(due) - elapsed, 1));
    }
  }

  static constexpr char kPositionTag[] = "datagen-v1";

  std::shared_ptr<const DatagenSettings> settings_;
  GeneratorTiming timing_;
  int64_t emitted_ = 0;          // rows generated (the next row's number)
  size_t last_read_rows_ = 0;    // rows the last Read appended
  int64_t start_us_ = -1;        // the clock at this run's first Read (for 'rows-per-second')
  int64_t start_rows_ = 0;       // rows generated before it
};

class DatagenSource final : public TableSource {
 public:
  DatagenSource(std::shared_ptr<const DatagenSettings> settings, GeneratorTiming timing)
      : settings_(std::move(settings)), timing_(std::move(timing)) {}
  bool bounded() const override { return settings_->bounded; }
  Result<std::vector<std::unique_ptr<SourceSplit>>> CreateSplits() override {
    std::vector<std::unique_ptr<SourceSplit>> splits;
    splits.push_back(std::make_unique<DatagenSplit>(settings_, timing_));
    return splits;
  }

 private:
  std::shared_ptr<const DatagenSettings> settings_;
  GeneratorTiming timing_;
};

class DatagenFactory final : public ConnectorFactory {
 public:
  explicit DatagenFactory(GeneratorTiming timing) : timing_(std::move(timing)) {}
  std::string identifier() const override { return "datagen"; }
  std::vector<OptionSpec> options() const override {
    return {
        {"rows-per-second", false, "10000", "Rows per second to control the emit rate."},
        {"number-of-rows", false, "", "The total number of rows to emit. By default, the table is unbounded. A table with a sequence field ends when its shortest sequence ends, but, as Flink's DataGenTableSource, it counts as bounded only with number-of-rows: batch mode and lookup joins refuse it without."},
        {"fields.#.kind", false, "random", "Generator of this '#' field. Can be 'sequence' or 'random'."},
        {"fields.#.min", false, "(minimum value of type)", "Minimum value of the random generator (numeric types)."},
        {"fields.#.max", false, "(maximum value of type)", "Maximum value of the random generator (numeric types)."},
        {"fields.#.max-past", false, "0", "Maximum past of the timestamp random generator."},
        {"fields.#.length", false, "100", "Length of strings; size of ARRAY/MAP/MULTISET values (default 3)."},
        {"fields.#.var-len", false, "false", "Generate variable-length VARCHAR/VARBINARY values."},
        {"fields.#.start", false, "", "Start value of the sequence generator."},
        {"fields.#.end", false, "", "End value of the sequence generator."},
        {"fields.#.null-rate", false, "0", "The proportion of null values."},
        {"sluice.seed", false, "0", "Seed of the random generators (Sluice addition). Every random value is a function of the seed, the field and the row number, so the rows do not depend on read sizes, and a restore from a checkpoint continues with the rows an uninterrupted run gives."},
    };
  }
  bool supports_source() const override { return true; }
  bool supports_sink() const override { return false; }

  Result<std::unique_ptr<TableSource>> CreateSource(const ConnectorContext& ctx) const override {
    auto settings = Build(ctx);
    if (!settings.ok()) return settings.status().WithContext(ConnectorErrorContext(ctx, ConnectorRole::kSource));
    return std::unique_ptr<TableSource>(new DatagenSource(std::move(settings).value(), timing_));
  }

  Result<std::unique_ptr<TableSink>> CreateSink(const ConnectorContext& ctx) const override {
    return Status::NotSupported("Connector 'datagen' can only be used as a source; table '" + ctx.table_name +
                                "' cannot be written to");
  }

 private:
  Result<std::shared_ptr<DatagenSettings>> Build(const ConnectorContext& ctx) const {
    const std::string& table = ctx.table_name;
    // Option shapes first ('fields.#.kind', ...), then each field's own keys below.
    ASSIGN_OR_RETURN(const FormatFactory* format, ValidateConnectorOptions(ctx, *this, ConnectorRole::kSource));
    if (format != nullptr) return Status::InvalidArgument("the datagen connector takes no 'format' option");
    if (!ctx.metadata.empty()) {
      return Status::InvalidArgument("Connector 'datagen' offers no metadata, but table '" + table +
                                     "' declares metadata column '" + ctx.metadata[0].name + "'");
    }
    auto settings = std::make_shared<DatagenSettings>();
    std::vector<std::string> known = {"connector", "rows-per-second", "number-of-rows", "sluice.seed"};
    FieldParser parser(table, ctx.options, &known);
    std::vector<FieldConfig> all;
    for (const Field& field : ctx.physical_schema.fields()) {
      ASSIGN_OR_RETURN(FieldConfig f, parser.Parse(field.name, field.type));
      all.push_back(std::move(f));
    }
    // As Flink, a 'fields.<name>.<option>' key must name a field and an option that applies to it.
    for (const auto& [key, value] : ctx.options) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      std::string msg = "Unsupported options found for 'datagen'. Unsupported options: " + key + ".";
      if (auto near = DidYouMean(key, known)) msg += " Did you mean '" + *near + "'?";
      return Status::InvalidArgument(msg);
    }
    const OptionReader reader(table, &ctx.options);
    ASSIGN_OR_RETURN(settings->rows_per_second,
                     GetIntInRange(reader, "rows-per-second", kDefaultRowsPerSecond, 1, INT64_MAX));
    if (reader.Has("number-of-rows")) {
      ASSIGN_OR_RETURN(settings->total_rows, GetIntInRange(reader, "number-of-rows", 0, 0, INT64_MAX));
      settings->bounded = true;
    }
    ASSIGN_OR_RETURN(int64_t seed, reader.GetInt("sluice.seed", 0));
    for (const FieldConfig& f : all) {
      int64_t count = ShortestSequence(f);
      // A sequence ends the table, but as Flink's DataGenTableSource it is declared bounded (batch
      // mode, a lookup table) only with 'number-of-rows'.
      if (count >= 0) settings->total_rows = std::min(settings->total_rows, count);
    }
    // Per-column streams derived from the seed, by physical position.
    SplittableRandom seeds(seed);
    std::vector<int64_t> physical_seeds;
    for (size_t i = 0; i < all.size(); ++i) physical_seeds.push_back(seeds.NextLong());
    std::vector<int> projection = ctx.projection;
    if (projection.empty()) {
      for (size_t i = 0; i < all.size(); ++i) projection.push_back(static_cast<int>(i));
    }
    for (int i : projection) {
      if (i < 0 || static_cast<size_t>(i) >= all.size()) {
        return Status::Internal("projection index " + std::to_string(i) + " out of range for table '" + table + "'");
      }
      settings->columns.push_back(all[static_cast<size_t>(i)]);
      AssignSeeds(&settings->columns.back(), static_cast<uint64_t>(physical_seeds[static_cast<size_t>(i)]));
    }
    return settings;
  }

  GeneratorTiming timing_;
};

}  // namespace

std::unique_ptr<ConnectorFactory> MakeDatagenConnectorFactory() {
  return MakeDatagenConnectorFactory(GeneratorTiming::System());
}

std::unique_ptr<ConnectorFactory> MakeDatagenConnectorFactory(GeneratorTiming timing) {
  return std::make_unique<DatagenFactory>(std::move(timing));
}

}  // namespace sluice
