#include "formats/parquet/column_writer.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>
#include <utility>

#include "common/check.h"
#include "formats/parquet/rle_bitpacked.h"
#include "types/vector.h"

namespace sluice::parquet {
namespace {

// Above this size min/max are left out of the footer (as parquet-mr does); the file metrics keep them.
constexpr size_t kMaxFooterStatBytes = 4096;
// Size of the blocks a column chunk's pages are buffered in.
constexpr size_t kBlockBytes = 1 << 20;
// Rows appended to a page between two checks of its size.
constexpr int64_t kSliceRows = 1024;

// ---------------------------------------------------------------------------------------------
// Sources: read one physical value from a vector's data buffer (logical_type.h's layouts).

template <typename S, typename P>
struct Cast {
  static P Get(const uint8_t* d, uint32_t i) { return static_cast<P>(reinterpret_cast<const S*>(d)[i]); }
};

// Sluice keeps TIME in milliseconds; Iceberg's time is microseconds.
struct TimeMillisToMicros {
  static int64_t Get(const uint8_t* d, uint32_t i) { return int64_t{reinterpret_cast<const int32_t*>(d)[i]} * 1000; }
};

// ---------------------------------------------------------------------------------------------
// Per-physical-type helpers: PLAIN encoding, dictionary keys, ordering.

template <typename P>
void AppendFixed(std::string* out, P v) {
  char buf[sizeof(P)];
  std::memcpy(buf, &v, sizeof(P));
  out->append(buf, sizeof(P));
}

void AppendBigEndian(std::string* out, __int128 v, int width) {
  char buf[16];
  for (int i = 0; i < width; ++i) buf[i] = static_cast<char>(v >> (8 * (width - 1 - i)));
  out->append(buf, width);
}

template <typename P>
struct DictKeyOf {
  using type = P;
  static type Of(P v) { return v; }
};
template <>
struct DictKeyOf<float> {
  using type = uint32_t;
  static type Of(float v) { return std::bit_cast<uint32_t>(v); }
};
template <>
struct DictKeyOf<double> {
  using type = uint64_t;
  static type Of(double v) { return std::bit_cast<uint64_t>(v); }
};
template <>
struct DictKeyOf<__int128> {
  using type = std::pair<uint64_t, uint64_t>;
  static type Of(__int128 v) {
    auto u = static_cast<unsigned __int128>(v);
    return {static_cast<uint64_t>(u >> 64), static_cast<uint64_t>(u)};
  }
};

// Strings in dictionaries and statistics are short (keys, codes, ids): hash and compare them with
// inline 8-byte loads rather than library calls.
inline uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline uint64_t Mix64(uint64_t a, uint64_t b) {
  unsigned __int128 m = static_cast<unsigned __int128>(a ^ 0x9E3779B97F4A7C15ULL) * (b ^ 0xD6E8FEB86659FD93ULL);
  return static_cast<uint64_t>(m) ^ static_cast<uint64_t>(m >> 64);
}

struct StringKeyHash {
  size_t operator()(std::string_view s) const {
    const char* p = s.data();
    size_t n = s.size();
    uint64_t h = n;
    if (n > 16) {
      const char* end = p + n;
      for (; end - p > 16; p += 16) h = Mix64(h ^ Load64(p), Load64(p + 8));
      // The last 16 bytes (overlapping the words already mixed when n is not a multiple of 16).
      return Mix64(h ^ Load64(end - 16), Load64(end - 8));
    }
    if (n >= 8) return Mix64(h ^ Load64(p), Load64(p + n - 8));
    uint64_t w = 0;
    if (n > 0) std::memcpy(&w, p, n);
    return Mix64(h, w);
  }
};

struct StringKeyEq {
  bool operator()(std::string_view a, std::string_view b) const {
    if (a.size() != b.size()) return false;
    size_t n = a.size();
    if (n >= 8 && n <= 16) {
      return Load64(a.data()) == Load64(b.data()) && Load64(a.data() + n - 8) == Load64(b.data() + n - 8);
    }
    return n == 0 || std::memcmp(a.data(), b.data(), n) == 0;
  }
};

// a < b as unsigned bytes; the first 8 bytes (big-endian, zero-padded) decide most comparisons.
inline bool BytesLess(std::string_view a, std::string_view b) {
  uint64_t pa = 0;
  uint64_t pb = 0;
  // An empty view may carry a null pointer, which memcpy must not get even for 0 bytes.
  if (!a.empty()) std::memcpy(&pa, a.data(), std::min<size_t>(8, a.size()));
  if (!b.empty()) std::memcpy(&pb, b.data(), std::min<size_t>(8, b.size()));
  pa = __builtin_bswap64(pa);
  pb = __builtin_bswap64(pb);
  if (pa != pb) return pa < pb;
  return a < b;
}

template <typename P>
bool Less(const P& a, const P& b) {
  if constexpr (std::is_same_v<P, std::string_view>) {
    return BytesLess(a, b);
  } else {
    return a < b;
  }
}

template <typename P>
struct DictMap {
  using type = absl::flat_hash_map<typename DictKeyOf<P>::type, uint32_t>;
};
template <>
struct DictMap<std::string_view> {
  using type = absl::flat_hash_map<std::string_view, uint32_t, StringKeyHash, StringKeyEq>;
};

template <typename P>
bool IsNaN(P v) {
  if constexpr (std::is_floating_point_v<P>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// Min/max in the type's order. Strings are copied, since the batch's heaps do not outlive it.
template <typename P>
class MinMax {
 public:
  using Stored = std::conditional_t<std::is_same_v<P, std::string_view>, std::string, P>;
  void Update(P v) {
    if (IsNaN(v)) return;
    if (!has_) {
      min_ = Stored(v);
      max_ = Stored(v);
      has_ = true;
      return;
    }
    if (Less<P>(v, P(min_))) {
      min_ = Stored(v);
    } else if (Less<P>(P(max_), v)) {
      max_ = Stored(v);
    }
  }
  void Merge(const MinMax& o) {
    if (!o.has_) return;
    Update(P(o.min_));
    Update(P(o.max_));
  }
  bool has() const { return has_; }
  // Floats: a zero minimum is written as -0.0 and a zero maximum as +0.0 (parquet-format's rule
  // for readers that compare -0.0 and +0.0 as equal).
  P min() const {
    if constexpr (std::is_floating_point_v<P>) {
      if (min_ == 0) return -P(0);
    }
    return P(min_);
  }
  P max() const {
    if constexpr (std::is_floating_point_v<P>) {
      if (max_ == 0) return P(0);
    }
    return P(max_);
  }
  void Reset() { has_ = false; }

 private:
  bool has_ = false;
  Stored min_{};
  Stored max_{};
};

// ---------------------------------------------------------------------------------------------

template <typename P, typename Source>
class TypedColumnWriter final : public ColumnWriter {
 public:
  TypedColumnWriter(const ColumnDescriptor& col, PageCodec* codec, const ColumnWriterOptions& options)
      : col_(col), codec_(codec), options_(options) {
    if (col_.physical_type == Type::FIXED_LEN_BYTE_ARRAY) fixed_width_ = col_.type_length;
    def_bits_ = BitWidthOf(static_cast<uint64_t>(col_.max_definition_level));
    rep_bits_ = BitWidthOf(static_cast<uint64_t>(col_.max_repetition_level));
    ResetChunk();
  }

  Status Write(const LeafBatch& b) override;
  int64_t EstimatedSize() const override {
    // Pages written are counted as stored; the open page and the dictionary are scaled by the
    // compression ratio seen so far in this chunk (or file), so the estimate does not jump down
    // when a row group is flushed.
    int64_t unc = chunk_uncompressed_ > 0 ? chunk_uncompressed_ : file_uncompressed_;
    int64_t comp = chunk_uncompressed_ > 0 ? chunk_compressed_ : file_compressed_;
    int64_t pending = dict_bytes_ + PageBytes();
    if (unc > 0) pending = static_cast<int64_t>(static_cast<double>(pending) * static_cast<double>(comp) / unc);
    return pages_bytes_ + pending;
  }
  Status FinishChunk(int64_t file_offset, WritableFile* file, ColumnChunk* chunk) override;
  ColumnStatsSummary FileStats() const override {
    ColumnStatsSummary s;
    s.null_count = file_nulls_;
    s.nan_count = file_nans_;
    if (file_minmax_.has()) {
      s.min = StatBytes(file_minmax_.min());
      s.max = StatBytes(file_minmax_.max());
    }
    return s;
  }
  int64_t FileValueCount() const override { return file_values_; }
  int64_t FileCompressedSize() const override { return file_compressed_; }

 private:
  static constexpr bool kIsBool = std::is_same_v<P, bool>;
  static constexpr bool kIsString = std::is_same_v<P, std::string_view>;

  void AppendPlain(std::string* out, P v) const {
    if constexpr (kIsString) {
      if (fixed_width_ > 0) {
        out->append(v);
        out->append(fixed_width_ - v.size(), '\0');
      } else {
        AppendFixed(out, static_cast<uint32_t>(v.size()));
        out->append(v);
      }
    } else if constexpr (std::is_same_v<P, __int128>) {
      AppendBigEndian(out, v, fixed_width_);
    } else {
      AppendFixed(out, v);
    }
  }
  size_t PlainSize(P v) const {
    if constexpr (kIsString) {
      return fixed_width_ > 0 ? fixed_width_ : 4 + v.size();
    } else if constexpr (std::is_same_v<P, __int128>) {
      return fixed_width_;
    } else {
      return sizeof(P);
    }
  }
  // A statistic value: PLAIN without BYTE_ARRAY's length prefix; BOOLEAN as one byte.
  std::string StatBytes(P v) const {
    std::string s;
    if constexpr (kIsBool) {
      s.push_back(v ? 1 : 0);
    } else if constexpr (kIsString) {
      s.assign(v);
      if (fixed_width_ > 0) s.append(fixed_width_ - v.size(), '\0');
    } else {
      AppendPlain(&s, v);
    }
    return s;
  }

  int64_t PageBytes() const {
    int64_t levels = (page_levels_ * (def_bits_ + rep_bits_) + 7) / 8;
    if (dict_mode_) return levels + static_cast<int64_t>(indices_.size() * (dict_bits_ + 1) / 8);
    if constexpr (kIsBool) return levels + static_cast<int64_t>(bools_.size() / 8);
    return levels + static_cast<int64_t>(plain_.size());
  }

  Status CheckFixedWidths(const LeafBatch& b) const;
  void EncodeValues(const LeafBatch& b, size_t first, size_t count);
  uint32_t DictIndex(P v);
  Status FlushPage();
  Status FallBackToPlain();
  Status AppendPage(PageType type, std::string_view payload, int32_t num_values, Encoding encoding);
  void ResetChunk();
  void AppendToBlocks(std::string_view bytes) {
    if (used_blocks_ == 0 || blocks_[used_blocks_ - 1].size() + bytes.size() > blocks_[used_blocks_ - 1].capacity()) {
      // The next block: one kept from an earlier row group when there is one.
      if (used_blocks_ == blocks_.size()) blocks_.emplace_back();
      blocks_[used_blocks_].clear();
      blocks_[used_blocks_].reserve(std::max(bytes.size(), kBlockBytes));
      ++used_blocks_;
    }
    blocks_[used_blocks_ - 1].append(bytes);
    pages_bytes_ += static_cast<int64_t>(bytes.size());
  }

  const ColumnDescriptor col_;
  PageCodec* codec_;
  const ColumnWriterOptions options_;
  int32_t fixed_width_ = 0;
  int def_bits_ = 0;
  int rep_bits_ = 0;

  // The open page.
  std::vector<int16_t> def_;
  std::vector<int16_t> rep_;
  std::string plain_;
  std::vector<uint32_t> bools_;
  std::vector<uint32_t> indices_;
  int64_t page_levels_ = 0;
  int64_t page_rows_ = 0;
  int64_t page_plain_bytes_ = 0;  // what the page's values would take as PLAIN (dictionary mode)

  // The column chunk.
  bool dict_mode_ = false;
  bool dict_pages_written_ = false;
  typename DictMap<P>::type dict_index_;
  std::vector<P> dict_values_;
  std::unique_ptr<StringHeap> dict_heap_;
  int64_t dict_bytes_ = 0;
  int dict_bits_ = 0;
  // Data pages with their headers, in blocks of about kBlockBytes (a growing string would copy the
  // chunk over and over, and hold twice its size while doing so).
  std::vector<std::string> blocks_;
  size_t used_blocks_ = 0;  // blocks_ beyond this are spare capacity from earlier row groups
  int64_t pages_bytes_ = 0;
  int64_t chunk_values_ = 0;
  int64_t chunk_nulls_ = 0;
  int64_t chunk_uncompressed_ = 0;
  int64_t chunk_compressed_ = 0;
  bool used_plain_ = false;
  MinMax<P> chunk_minmax_;

  // The file.
  MinMax<P> file_minmax_;
  int64_t file_values_ = 0;
  int64_t file_nulls_ = 0;
  int64_t file_nans_ = 0;
  int64_t file_compressed_ = 0;
  int64_t file_uncompressed_ = 0;

  std::string payload_;
  ByteBuffer compressed_;
  std::string_view body_;  // the last page's stored bytes: compressed_, or the payload itself
  std::string header_;
};

template <typename P, typename Source>
void TypedColumnWriter<P, Source>::ResetChunk() {
  dict_mode_ = options_.enable_dictionary && !kIsBool;
  dict_pages_written_ = false;
  dict_index_.clear();
  dict_values_.clear();
  dict_heap_.reset();
  dict_bytes_ = 0;
  dict_bits_ = 0;
  used_blocks_ = 0;
  pages_bytes_ = 0;
  chunk_values_ = chunk_nulls_ = chunk_uncompressed_ = chunk_compressed_ = 0;
  used_plain_ = false;
  chunk_minmax_.Reset();
}

template <typename P, typename Source>
Status TypedColumnWriter<P, Source>::CheckFixedWidths(const LeafBatch& b) const {
  if constexpr (kIsString) {
    if (fixed_width_ == 0) return Status::OK();
    const auto* d = reinterpret_cast<const std::string_view*>(b.values->raw_data());
    for (size_t k = 0; k < b.num_values; ++k) {
      uint32_t row = b.dense ? static_cast<uint32_t>(k) : b.positions[k];
      if (d[row].size() > static_cast<size_t>(fixed_width_)) {
        return Status::InvalidArgument("Parquet column '" + col_.DottedPath() + "': a value of " +
                                       std::to_string(d[row].size()) + " bytes does not fit BINARY(" +
                                       std::to_string(fixed_width_) + ")");
      }
    }
  }
  return Status::OK();
}

template <typename P, typename Source>
uint32_t TypedColumnWriter<P, Source>::DictIndex(P v) {
  auto key = DictKeyOf<P>::Of(v);
  auto it = dict_index_.find(key);
  if (it != dict_index_.end()) return it->second;
  if constexpr (kIsString) {
    if (!dict_heap_) dict_heap_ = std::make_unique<StringHeap>();
    v = dict_heap_->Add(v);
    key = v;
  }
  auto idx = static_cast<uint32_t>(dict_values_.size());
  dict_values_.push_back(v);
  dict_index_.emplace(key, idx);
  dict_bytes_ += static_cast<int64_t>(PlainSize(v));
  dict_bits_ = BitWidthOf(idx);
  // Every distinct value passes here once: the chunk's min/max need look at nothing else.
  chunk_minmax_.Update(v);
  return idx;
}

template <typename P, typename Source>
void TypedColumnWriter<P, Source>::EncodeValues(const LeafBatch& b, size_t first, size_t count) {
  const uint8_t* raw = b.values->raw_data();
  const uint32_t* pos = b.dense ? nullptr : b.positions.data();
  const size_t end = first + count;
  int64_t nans = 0;
  if (dict_mode_) {
    int64_t plain_bytes = 0;
    // Runs of one value are common (a basket's store, a window's key): the previous value's index
    // is reused without a hash lookup.
    P last{};
    uint32_t last_index = UINT32_MAX;
    for (size_t k = first; k < end; ++k) {
      P v = Source::Get(raw, pos ? pos[k] : static_cast<uint32_t>(k));
      if constexpr (std::is_floating_point_v<P>) nans += IsNaN(v);
      plain_bytes += static_cast<int64_t>(PlainSize(v));
      bool same;
      if constexpr (kIsString) {
        same = StringKeyEq()(v, last);
      } else {
        same = DictKeyOf<P>::Of(v) == DictKeyOf<P>::Of(last);
      }
      if (last_index == UINT32_MAX || !same) {
        last_index = DictIndex(v);
        last = v;
      }
      indices_.push_back(last_index);
    }
    page_plain_bytes_ += plain_bytes;
  } else if constexpr (kIsBool) {
    for (size_t k = first; k < end; ++k) {
      P v = Source::Get(raw, pos ? pos[k] : static_cast<uint32_t>(k));
      chunk_minmax_.Update(v);
      bools_.push_back(v ? 1u : 0u);
    }
  } else {
    for (size_t k = first; k < end; ++k) {
      P v = Source::Get(raw, pos ? pos[k] : static_cast<uint32_t>(k));
      if constexpr (std::is_floating_point_v<P>) nans += IsNaN(v);
      chunk_minmax_.Update(v);
      AppendPlain(&plain_, v);
    }
  }
  file_nans_ += nans;
}

template <typename P, typename Source>
Status TypedColumnWriter<P, Source>::Write(const LeafBatch& b) {
  RETURN_IF_ERROR(CheckFixedWidths(b));
  const int16_t* def = b.def_levels.empty() ? nullptr : b.def_levels.data();
  const int16_t* rep = b.rep_levels.empty() ? nullptr : b.rep_levels.data();
  const int16_t max_def = col_.max_definition_level;
  const size_t total = b.num_levels;
  size_t lv = 0;
  size_t vv = 0;
  while (lv < total) {
    // A slice of whole records within the page's row budget.
    int64_t budget = std::min<int64_t>(kSliceRows, std::max<int64_t>(1, options_.page_row_limit - page_rows_));
    size_t end;
    int64_t rows;
    if (rep == nullptr) {
      end = std::min(total, lv + static_cast<size_t>(budget));
      rows = static_cast<int64_t>(end - lv);
    } else {
      end = lv + 1;
      rows = 1;
      for (; end < total; ++end) {
        if (rep[end] == 0) {
          if (rows == budget) break;
          ++rows;
        }
      }
    }
    size_t nv = end - lv;
    if (def != nullptr) {
      def_.insert(def_.end(), def + lv, def + end);
      nv = static_cast<size_t>(std::count(def + lv, def + end, max_def));
    } else if (max_def > 0) {
      def_.resize(def_.size() + (end - lv), max_def);  // no NULL in the batch (LeafBatch)
    }
    if (rep != nullptr) rep_.insert(rep_.end(), rep + lv, rep + end);
    EncodeValues(b, vv, nv);
    chunk_nulls_ += static_cast<int64_t>(end - lv - nv);
    page_levels_ += static_cast<int64_t>(end - lv);
    page_rows_ += rows;
    vv += nv;
    lv = end;
    if (page_rows_ >= options_.page_row_limit || PageBytes() >= options_.page_size_bytes) {
      RETURN_IF_ERROR(FlushPage());
    }
    if (dict_mode_ && dict_bytes_ > options_.dict_size_bytes) RETURN_IF_ERROR(FallBackToPlain());
  }
  SLUICE_CHECK_EQ(vv, b.num_values);
  return Status::OK();
}

template <typename P, typename Source>
Status TypedColumnWriter<P, Source>::FallBackToPlain() {
  if (!dict_pages_written_) {
    // No page refers to the dictionary yet: re-encode the open page and drop the dictionary.
    plain_.clear();
    for (uint32_t idx : indices_) AppendPlain(&plain_, dict_values_[idx]);
    indices_.clear();
    dict_index_.clear();
    dict_values_.clear();
    dict_heap_.reset();
    dict_bytes_ = 0;
    dict_mode_ = false;
    return Status::OK();
  }
  RETURN_IF_ERROR(FlushPage());
  dict_mode_ = false;
  return Status::OK();
}

template <typename P, typename Source>
Status TypedColumnWriter<P, Source>::AppendPage(PageType type, std::string_view payload, int32_t num_values,
                                                Encoding encoding) {
  if (codec_->codec() == CompressionCodec::UNCOMPRESSED) {
    body_ = payload;
  } else {
    RETURN_IF_ERROR(codec_->Compress(payload, &compressed_));
    body_ = std::string_view(reinterpret_cast<const char*>(compressed_.data()), compressed_.size());
  }
  if (payload.size() > INT32_MAX || body_.size() > INT32_MAX) {
    return Status::InvalidArgument("Parquet column '" + col_.DottedPath() + "': a page exceeds 2 GB");
  }
  PageHeader h;
  h.type = type;
  h.uncompressed_page_size = static_cast<int32_t>(payload.size());
  h.compressed_page_size = static_cast<int32_t>(body_.size());
  if (type == PageType::DICTIONARY_PAGE) {
    h.dictionary_page_header = DictionaryPageHeader{.num_values = num_values, .encoding = encoding, .is_sorted = {}};
  } else {
    h.data_page_header = DataPageHeader{.num_values = num_values,
                                        .encoding = encoding,
                                        .definition_level_encoding = Encoding::RLE,
                                        .repetition_level_encoding = Encoding::RLE,
                                        .statistics = {}};
  }
  header_.clear();
  Serialize(h, &header_);
  chunk_uncompressed_ += static_cast<int64_t>(header_.size() + payload.size());
  chunk_compressed_ += static_cast<int64_t>(header_.size() + body_.size());
  return Status::OK();
}

template <typename P, typename Source>
Status TypedColumnWriter<P, Source>::FlushPage() {
  if (page_levels_ == 0) return Status::OK();
  if (dict_mode_ && !dict_pages_written_) {
    // The first page decides whether the dictionary pays: it must beat PLAIN, dictionary included.
    int64_t encoded = static_cast<int64_t>(indices_.size()) * BitWidthOf(dict_values_.size()) / 8 + dict_bytes_;
    if (encoded >= page_plain_bytes_) RETURN_IF_ERROR(FallBackToPlain());
  }
  payload_.clear();
  if (col_.max_repetition_level > 0) EncodeLevelsV1(rep_.data(), rep_.size(), col_.max_repetition_level, &payload_);
  if (col_.max_definition_level > 0) EncodeLevelsV1(def_.data(), def_.size(), col_.max_definition_level, &payload_);
  Encoding encoding = Encoding::PLAIN;
  if (dict_mode_) {
    int bits = BitWidthOf(dict_values_.empty() ? 0 : dict_values_.size() - 1);
    payload_.push_back(static_cast<char>(bits));
    EncodeRleBitPacked(indices_.data(), indices_.size(), bits, &payload_);
    encoding = Encoding::RLE_DICTIONARY;
    dict_pages_written_ = true;
  } else if constexpr (kIsBool) {
    BitPack(bools_.data(), bools_.size(), 1, &payload_);
    used_plain_ = true;
  } else {
    payload_ += plain_;
    used_plain_ = true;
  }
  RETURN_IF_ERROR(AppendPage(PageType::DATA_PAGE, payload_, static_cast<int32_t>(page_levels_), encoding));
  AppendToBlocks(header_);
  AppendToBlocks(body_);
  chunk_values_ += page_levels_;
  def_.clear();
  rep_.clear();
  plain_.clear();
  bools_.clear();
  indices_.clear();
  page_levels_ = page_rows_ = page_plain_bytes_ = 0;
  return Status::OK();
}

template <typename P, typename Source>
Status TypedColumnWriter<P, Source>::FinishChunk(int64_t file_offset, WritableFile* file, ColumnChunk* chunk) {
  RETURN_IF_ERROR(FlushPage());
  ColumnMetaData md;
  md.type = col_.physical_type;
  md.path_in_schema = col_.path;
  md.codec = codec_->codec();
  int64_t offset = file_offset;
  if (dict_pages_written_) {
    payload_.clear();
    for (const P& v : dict_values_) AppendPlain(&payload_, v);
    RETURN_IF_ERROR(
        AppendPage(PageType::DICTIONARY_PAGE, payload_, static_cast<int32_t>(dict_values_.size()), Encoding::PLAIN));
    md.dictionary_page_offset = offset;
    RETURN_IF_ERROR(file->Append(header_));
    RETURN_IF_ERROR(file->Append(body_));
    offset += static_cast<int64_t>(header_.size() + body_.size());
  }
  md.data_page_offset = offset;
  for (size_t b = 0; b < used_blocks_; ++b) RETURN_IF_ERROR(file->Append(blocks_[b]));
  if (dict_pages_written_ || used_plain_) md.encodings.push_back(Encoding::PLAIN);
  md.encodings.push_back(Encoding::RLE);
  if (dict_pages_written_) md.encodings.push_back(Encoding::RLE_DICTIONARY);
  md.num_values = chunk_values_;
  md.total_uncompressed_size = chunk_uncompressed_;
  md.total_compressed_size = chunk_compressed_;
  Statistics st;
  st.null_count = chunk_nulls_;
  if (chunk_minmax_.has()) {
    std::string mn = StatBytes(chunk_minmax_.min());
    std::string mx = StatBytes(chunk_minmax_.max());
    if (mn.size() <= kMaxFooterStatBytes && mx.size() <= kMaxFooterStatBytes) {
      st.min_value = std::move(mn);
      st.max_value = std::move(mx);
    }
  }
  md.statistics = std::move(st);
  chunk->file_path.reset();
  chunk->file_offset = file_offset;
  chunk->meta_data = std::move(md);

  file_minmax_.Merge(chunk_minmax_);
  file_values_ += chunk_values_;
  file_nulls_ += chunk_nulls_;
  file_compressed_ += chunk_compressed_;
  file_uncompressed_ += chunk_uncompressed_;
  ResetChunk();
  return Status::OK();
}

template <typename P, typename Source>
std::unique_ptr<ColumnWriter> Make(const ColumnDescriptor& col, PageCodec* codec, const ColumnWriterOptions& options) {
  return std::make_unique<TypedColumnWriter<P, Source>>(col, codec, options);
}

}  // namespace

Result<std::unique_ptr<ColumnWriter>> MakeColumnWriter(const ColumnDescriptor& col, PageCodec* codec,
                                                       const ColumnWriterOptions& options) {
  const LogicalType& t = col.sluice_type;
  switch (t.id()) {
    case TypeId::kBoolean: return Make<bool, Cast<uint8_t, bool>>(col, codec, options);
    case TypeId::kTinyInt: return Make<int32_t, Cast<int8_t, int32_t>>(col, codec, options);
    case TypeId::kSmallInt: return Make<int32_t, Cast<int16_t, int32_t>>(col, codec, options);
    case TypeId::kInteger:
    case TypeId::kDate: return Make<int32_t, Cast<int32_t, int32_t>>(col, codec, options);
    case TypeId::kBigInt:
    case TypeId::kTimestamp:
    case TypeId::kTimestampLtz: return Make<int64_t, Cast<int64_t, int64_t>>(col, codec, options);
    case TypeId::kTime: return Make<int64_t, TimeMillisToMicros>(col, codec, options);
    case TypeId::kFloat: return Make<float, Cast<float, float>>(col, codec, options);
    case TypeId::kDouble: return Make<double, Cast<double, double>>(col, codec, options);
    case TypeId::kDecimal:
      switch (col.physical_type) {
        case Type::INT32: return Make<int32_t, Cast<__int128, int32_t>>(col, codec, options);
        case Type::INT64: return Make<int64_t, Cast<__int128, int64_t>>(col, codec, options);
        default: return Make<__int128, Cast<__int128, __int128>>(col, codec, options);
      }
    case TypeId::kChar:
    case TypeId::kVarChar:
    case TypeId::kBinary:
    case TypeId::kVarBinary:
      return Make<std::string_view, Cast<std::string_view, std::string_view>>(col, codec, options);
    default:
      break;
  }
  return Status::NotSupported("Parquet column '" + col.DottedPath() + "' has type " + t.ToString() +
                              ", which the Parquet writer cannot write");
}

}  // namespace sluice::parquet
