#include "formats/parquet/column_reader.h"

#include <algorithm>
#include <cstring>

namespace sluice::parquet {

namespace {

// A page may announce at most this many level entries (a hostile header must not make the reader
// allocate gigabytes; real writers stay far below).
constexpr int64_t kMaxPageEntries = int64_t{1} << 26;
// Nor may it announce more than this many uncompressed bytes (decompression allocates them first).
constexpr int32_t kMaxPageBytes = int32_t{1} << 29;

Status Malformed(std::string msg) { return Status::InvalidArgument(std::move(msg)); }

bool IsDictionaryEncoding(Encoding e) { return e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY; }

// Smallest number of bytes one PLAIN value takes (bounds a dictionary's announced size).
size_t MinPlainBytes(Type t, int32_t type_length) {
  switch (t) {
    case Type::BOOLEAN: return 0;
    case Type::FIXED_LEN_BYTE_ARRAY: return static_cast<size_t>(std::max(type_length, 1));
    case Type::INT96: return 12;
    case Type::INT64:
    case Type::DOUBLE: return 8;
    default: return 4;
  }
}

// Moves the n dense values at the start of `data` (width W) to their slots: slot j (of `slots`)
// holds a value when present[j]; absent slots are zeroed. Walks backward so it works in place.
template <size_t W>
void Spread(uint8_t* data, const uint8_t* present, size_t slots, size_t n) {
  size_t k = n;
  for (size_t j = slots; j-- > 0;) {
    if (present[j]) {
      --k;
      if (k != j) std::memcpy(data + j * W, data + k * W, W);
    } else {
      std::memset(data + j * W, 0, W);
    }
  }
}

void SpreadValues(size_t width, uint8_t* data, const uint8_t* present, size_t slots, size_t n) {
  switch (width) {
    case 1: Spread<1>(data, present, slots, n); break;
    case 2: Spread<2>(data, present, slots, n); break;
    case 4: Spread<4>(data, present, slots, n); break;
    case 8: Spread<8>(data, present, slots, n); break;
    default: Spread<16>(data, present, slots, n); break;
  }
}

template <size_t W>
bool Gather(const uint8_t* dict, size_t dict_size, const uint32_t* idx, size_t n, uint8_t* dst) {
  for (size_t i = 0; i < n; ++i) {
    if (idx[i] >= dict_size) return false;
    std::memcpy(dst + i * W, dict + static_cast<size_t>(idx[i]) * W, W);
  }
  return true;
}

bool GatherValues(size_t width, const uint8_t* dict, size_t dict_size, const uint32_t* idx, size_t n, uint8_t* dst) {
  switch (width) {
    case 1: return Gather<1>(dict, dict_size, idx, n, dst);
    case 2: return Gather<2>(dict, dict_size, idx, n, dst);
    case 4: return Gather<4>(dict, dict_size, idx, n, dst);
    case 8: return Gather<8>(dict, dict_size, idx, n, dst);
    default: return Gather<16>(dict, dict_size, idx, n, dst);
  }
}

}  // namespace

ColumnChunkReader::ColumnChunkReader(const ColumnDescriptor& column, LeafConversion conv, int16_t slot_def,
                                     bool keep_levels)
    : column_(column),
      conv_(std::move(conv)),
      slot_def_(slot_def),
      keep_levels_(keep_levels),
      max_def_(column.max_definition_level),
      max_rep_(column.max_repetition_level),
      byte_array_((column.physical_type == Type::BYTE_ARRAY || column.physical_type == Type::FIXED_LEN_BYTE_ARRAY) &&
                  conv_.target.IsStringLike()) {}

Status ColumnChunkReader::Fail(const Status& st) const {
  std::string where = context_;
  if (page_index_ >= 0) where += ", page " + std::to_string(page_index_);
  return st.WithContext(where);
}

Status ColumnChunkReader::Start(const ColumnMetaData& meta, std::string context) {
  context_ = std::move(context);
  chunk_pos_ = 0;
  page_index_ = -1;
  values_left_ = meta.num_values;
  page_entries_ = page_pos_ = 0;
  has_dict_ = false;
  dict_size_ = 0;
  dict_heap_.reset();
  page_heap_.reset();
  if (meta.type != column_.physical_type) {
    return Fail(Malformed("the column chunk's type " + std::string(TypeName(meta.type)) +
                          " differs from the schema's " + std::string(TypeName(column_.physical_type))));
  }
  if (!codec_ || codec_->codec() != meta.codec) {
    auto codec = PageCodec::Make(meta.codec);
    if (!codec.ok()) return Fail(codec.status());
    codec_ = std::move(codec).value();
  }
  return Status::OK();
}

Status ColumnChunkReader::PageBytes(const uint8_t* in, size_t in_size, size_t uncompressed_size, bool compressed,
                                    const uint8_t** out, size_t* out_size) {
  const bool decompress = compressed && codec_->codec() != CompressionCodec::UNCOMPRESSED;
  if (decompress) {
    RETURN_IF_ERROR(codec_->Decompress(std::string_view(reinterpret_cast<const char*>(in), in_size), uncompressed_size,
                                       &page_buf_));
    in = reinterpret_cast<const uint8_t*>(page_buf_.data());
    in_size = page_buf_.size();
  }
  if (byte_array_) {
    // Values will be views into these bytes: keep them in a heap the vectors can share.
    page_heap_ = std::make_shared<StringHeap>();
    char* p = page_heap_->Allocate(std::max<size_t>(in_size, 1));
    if (in_size > 0) std::memcpy(p, in, in_size);
    in = reinterpret_cast<const uint8_t*>(p);
  }
  *out = in;
  *out_size = in_size;
  return Status::OK();
}

Status ColumnChunkReader::NextPage(bool* done) {
  while (true) {
    if (chunk_pos_ >= chunk_.size()) {
      *done = true;
      return Status::OK();
    }
    ++page_index_;
    const auto* base = reinterpret_cast<const uint8_t*>(chunk_.data());
    ThriftReader r(base + chunk_pos_, chunk_.size() - chunk_pos_);
    PageHeader h;
    Status st = Parse(&r, &h);
    if (!st.ok()) return Fail(st.WithContext("page header"));
    size_t body = chunk_pos_ + r.position();
    if (h.uncompressed_page_size > kMaxPageBytes) {
      return Fail(Malformed("page announces " + std::to_string(h.uncompressed_page_size) +
                            " uncompressed bytes, more than the reader accepts (" + std::to_string(kMaxPageBytes) + ")"));
    }
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
        static_cast<size_t>(h.compressed_page_size) > chunk_.size() - body) {
      return Fail(Malformed("page of " + std::to_string(h.compressed_page_size) +
                            " bytes runs past the end of the column chunk"));
    }
    chunk_pos_ = body + static_cast<size_t>(h.compressed_page_size);
    const size_t size = static_cast<size_t>(h.compressed_page_size);
    if (h.type == PageType::DICTIONARY_PAGE) {
      st = LoadDictionary(h, base + body, size);
      if (!st.ok()) return Fail(st);
      continue;
    }
    if (h.type != PageType::DATA_PAGE && h.type != PageType::DATA_PAGE_V2) continue;  // index pages
    st = LoadDataPage(h, base + body, size);
    if (!st.ok()) return Fail(st);
    if (page_entries_ == 0) continue;
    *done = false;
    return Status::OK();
  }
}

Status ColumnChunkReader::LoadDictionary(const PageHeader& h, const uint8_t* body, size_t size) {
  if (!h.dictionary_page_header) return Malformed("dictionary page without a dictionary page header");
  const DictionaryPageHeader& d = *h.dictionary_page_header;
  if (d.encoding != Encoding::PLAIN && d.encoding != Encoding::PLAIN_DICTIONARY) {
    return Status::NotSupported("dictionary page encoding " + std::string(EncodingName(d.encoding)));
  }
  const uint8_t* data;
  size_t data_size;
  RETURN_IF_ERROR(PageBytes(body, size, static_cast<size_t>(h.uncompressed_page_size), true, &data, &data_size));
  size_t min_bytes = MinPlainBytes(column_.physical_type, column_.type_length);
  if (d.num_values < 0 || (min_bytes > 0 && static_cast<size_t>(d.num_values) > data_size / min_bytes) ||
      (min_bytes == 0 && static_cast<size_t>(d.num_values) > data_size * 8)) {
    return Malformed("dictionary page announces " + std::to_string(d.num_values) + " values in " +
                     std::to_string(data_size) + " bytes");
  }
  const size_t n = static_cast<size_t>(d.num_values);
  dict_heap_ = byte_array_ ? page_heap_ : std::make_shared<StringHeap>();
  plain_ = PlainDecoder(data, data_size, column_.type_length);
  scratch_.resize(std::max<size_t>(n, 1) * conv_.physical_width);
  encoding_ = Encoding::PLAIN;
  RETURN_IF_ERROR(DecodePhysical(n, scratch_.data()));
  dict_.resize(std::max<size_t>(n, 1) * conv_.target_width);
  RETURN_IF_ERROR(Convert(conv_, scratch_.data(), n, dict_.data(), dict_heap_.get()));
  dict_size_ = n;
  has_dict_ = true;
  return Status::OK();
}

Status ColumnChunkReader::DecodeLevels(const uint8_t* data, size_t size, int16_t max_level, size_t n,
                                       std::vector<int16_t>* out) {
  out->resize(n);
  const int width = BitWidthOf(static_cast<uint64_t>(max_level));
  rle_.Reset(data, size, width);
  RETURN_IF_ERROR(rle_.Get(out->data(), n));
  // Checked even when the bit width holds no value above the maximum: an RLE run stores its value in
  // whole bytes.
  int16_t worst = 0;
  for (int16_t v : *out) worst = std::max(worst, v);
  if (worst > max_level) {
    return Malformed("level " + std::to_string(worst) + " exceeds the column's maximum " + std::to_string(max_level));
  }
  return Status::OK();
}

Status ColumnChunkReader::LoadDataPage(const PageHeader& h, const uint8_t* body, size_t size) {
  const bool v2 = h.type == PageType::DATA_PAGE_V2;
  if (v2 ? !h.data_page_header_v2 : !h.data_page_header) return Malformed("data page without its header");
  const int32_t num_values = v2 ? h.data_page_header_v2->num_values : h.data_page_header->num_values;
  if (num_values < 0 || num_values > kMaxPageEntries || num_values > values_left_) {
    return Malformed("data page announces " + std::to_string(num_values) + " values; the column chunk has " +
                     std::to_string(values_left_) + " left");
  }
  values_left_ -= num_values;
  const size_t n = static_cast<size_t>(num_values);
  page_rep_.clear();
  page_def_.clear();
  if (!v2) {
    const DataPageHeader& d = *h.data_page_header;
    const uint8_t* data;
    size_t data_size;
    RETURN_IF_ERROR(PageBytes(body, size, static_cast<size_t>(h.uncompressed_page_size), true, &data, &data_size));
    size_t pos = 0;
    for (int pass = 0; pass < 2; ++pass) {
      const int16_t max_level = pass == 0 ? max_rep_ : max_def_;
      if (max_level == 0) continue;
      Encoding enc = pass == 0 ? d.repetition_level_encoding : d.definition_level_encoding;
      if (enc != Encoding::RLE) return Status::NotSupported("level encoding " + std::string(EncodingName(enc)));
      if (data_size - pos < 4) return Malformed("levels run past the end of the page");
      uint32_t len;
      std::memcpy(&len, data + pos, 4);
      pos += 4;
      if (len > data_size - pos) return Malformed("levels of " + std::to_string(len) + " bytes run past the end of the page");
      RETURN_IF_ERROR(DecodeLevels(data + pos, len, max_level, n, pass == 0 ? &page_rep_ : &page_def_));
      pos += len;
    }
    encoding_ = d.encoding;
    values_data_ = data + pos;
    values_size_ = data_size - pos;
  } else {
    const DataPageHeaderV2& d = *h.data_page_header_v2;
    if (d.repetition_levels_byte_length < 0 || d.definition_levels_byte_length < 0 ||
        static_cast<uint64_t>(d.repetition_levels_byte_length) + d.definition_levels_byte_length > size ||
        static_cast<uint64_t>(d.repetition_levels_byte_length) + d.definition_levels_byte_length >
            static_cast<uint64_t>(h.uncompressed_page_size)) {
      return Malformed("data page v2 level lengths exceed the page");
    }
    const size_t rep_len = static_cast<size_t>(d.repetition_levels_byte_length);
    const size_t def_len = static_cast<size_t>(d.definition_levels_byte_length);
    if (max_rep_ > 0) RETURN_IF_ERROR(DecodeLevels(body, rep_len, max_rep_, n, &page_rep_));
    if (max_def_ > 0) RETURN_IF_ERROR(DecodeLevels(body + rep_len, def_len, max_def_, n, &page_def_));
    RETURN_IF_ERROR(PageBytes(body + rep_len + def_len, size - rep_len - def_len,
                              static_cast<size_t>(h.uncompressed_page_size) - rep_len - def_len, d.is_compressed,
                              &values_data_, &values_size_));
    encoding_ = d.encoding;
  }
  if (max_rep_ > 0 && n > 0 && page_pos_ == 0 && page_rep_[0] != 0 && page_index_ == 0) {
    return Malformed("the first row of the column chunk starts with repetition level " + std::to_string(page_rep_[0]));
  }
  page_entries_ = n;
  page_pos_ = 0;
  values_ready_ = false;
  return Status::OK();
}

Status ColumnChunkReader::InitValueDecoder() {
  const uint8_t* data = values_data_;
  const size_t size = values_size_;
  const Type t = column_.physical_type;
  switch (encoding_) {
    case Encoding::PLAIN:
      plain_ = PlainDecoder(data, size, column_.type_length);
      return Status::OK();
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY: {
      if (!has_dict_) return Malformed("dictionary-encoded page without a dictionary page");
      if (size < 1) return Malformed("dictionary-encoded page has no index bit width");
      rle_.Reset(data + 1, size - 1, data[0]);
      return Status::OK();
    }
    case Encoding::RLE: {
      if (t != Type::BOOLEAN) return Status::NotSupported("RLE encoding for " + std::string(TypeName(t)) + " values");
      if (size < 4) return Malformed("RLE boolean values have no length prefix");
      uint32_t len;
      std::memcpy(&len, data, 4);
      if (len > size - 4) return Malformed("RLE boolean values run past the end of the page");
      rle_.Reset(data + 4, len, 1);
      return Status::OK();
    }
    case Encoding::BYTE_STREAM_SPLIT: {
      size_t width = t == Type::FIXED_LEN_BYTE_ARRAY ? static_cast<size_t>(std::max(column_.type_length, 0))
                     : t == Type::INT32 || t == Type::FLOAT ? 4
                     : t == Type::INT64 || t == Type::DOUBLE ? 8
                                                             : 0;
      if (width == 0) return Status::NotSupported("BYTE_STREAM_SPLIT encoding for " + std::string(TypeName(t)) + " values");
      return bss_.Init(data, size, width);
    }
    case Encoding::DELTA_BINARY_PACKED:
      if (t != Type::INT32 && t != Type::INT64) break;
      return dbp_.Init(data, size);
    case Encoding::DELTA_LENGTH_BYTE_ARRAY:
      if (t != Type::BYTE_ARRAY) break;
      return dlba_.Init(data, size, page_entries_);
    case Encoding::DELTA_BYTE_ARRAY:
      if (t != Type::BYTE_ARRAY && t != Type::FIXED_LEN_BYTE_ARRAY) break;
      return dba_.Init(data, size, page_entries_);
    default:
      break;
  }
  return Status::NotSupported("encoding " + std::string(EncodingName(encoding_)) + " for " + std::string(TypeName(t)) +
                              " values");
}

Status ColumnChunkReader::DecodePhysical(size_t n, void* out) {
  const Type t = column_.physical_type;
  switch (encoding_) {
    case Encoding::PLAIN:
      switch (t) {
        case Type::BOOLEAN: return plain_.DecodeBooleans(static_cast<uint8_t*>(out), n);
        case Type::BYTE_ARRAY: return plain_.DecodeByteArrays(static_cast<std::string_view*>(out), n);
        case Type::FIXED_LEN_BYTE_ARRAY: return plain_.DecodeFixedLenByteArrays(static_cast<std::string_view*>(out), n);
        default: return plain_.DecodeFixedWidth(out, conv_.physical_width, n);
      }
    case Encoding::RLE: {
      // An RLE run stores its value in a whole byte: keep booleans 0/1 whatever the byte says.
      auto* b = static_cast<uint8_t*>(out);
      RETURN_IF_ERROR(rle_.Get(b, n));
      for (size_t i = 0; i < n; ++i) b[i] = b[i] != 0;
      return Status::OK();
    }
    case Encoding::BYTE_STREAM_SPLIT:
      if (t == Type::FIXED_LEN_BYTE_ARRAY) return bss_.DecodeFixedLenByteArrays(static_cast<std::string_view*>(out), n);
      return bss_.DecodeFixedWidth(out, n);
    case Encoding::DELTA_BINARY_PACKED:
      if (t == Type::INT32) return dbp_.DecodeInt32(static_cast<int32_t*>(out), n);
      return dbp_.DecodeInt64(static_cast<int64_t*>(out), n);
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: return dlba_.DecodeByteArrays(static_cast<std::string_view*>(out), n);
    case Encoding::DELTA_BYTE_ARRAY: {
      auto* views = static_cast<std::string_view*>(out);
      RETURN_IF_ERROR(dba_.DecodeByteArrays(views, n));
      if (t == Type::FIXED_LEN_BYTE_ARRAY) {
        for (size_t i = 0; i < n; ++i) {
          if (views[i].size() != static_cast<size_t>(column_.type_length)) {
            return Malformed("DELTA_BYTE_ARRAY value of " + std::to_string(views[i].size()) +
                             " bytes in a FIXED_LEN_BYTE_ARRAY(" + std::to_string(column_.type_length) + ") column");
          }
        }
      }
      return Status::OK();
    }
    default:
      return Status::NotSupported("encoding " + std::string(EncodingName(encoding_)));
  }
}

Status ColumnChunkReader::DecodeValues(size_t n, uint8_t* dst, Vector* values) {
  if (n == 0) return Status::OK();
  if (!values_ready_) {
    RETURN_IF_ERROR(InitValueDecoder());
    values_ready_ = true;
  }
  const bool strings = conv_.target.IsStringLike();
  if (IsDictionaryEncoding(encoding_)) {
    indices_.resize(n);
    RETURN_IF_ERROR(rle_.Get(indices_.data(), n));
    if (!GatherValues(conv_.target_width, dict_.data(), dict_size_, indices_.data(), n, dst)) {
      return Malformed("dictionary index out of range (the dictionary has " + std::to_string(dict_size_) + " values)");
    }
    if (strings) values->AddHeap(dict_heap_);
    return Status::OK();
  }
  if (encoding_ == Encoding::PLAIN && conv_.kind == LeafConversion::Kind::kBytesToDecimal &&
      conv_.physical == Type::FIXED_LEN_BYTE_ARRAY && conv_.type_length <= 8) {
    // Decimals straight from the page bytes, without views.
    const uint8_t* src;
    RETURN_IF_ERROR(plain_.TakeFixed(conv_.type_length, n, &src));
    if (DecimalsFromContiguous(src, n, conv_.type_length, reinterpret_cast<__int128*>(dst))) return Status::OK();
    return Status::Internal("no contiguous decimal path for width " + std::to_string(conv_.type_length));
  }
  if (conv_.kind == LeafConversion::Kind::kCopy) {
    RETURN_IF_ERROR(DecodePhysical(n, dst));
  } else {
    scratch_.resize(n * conv_.physical_width);
    RETURN_IF_ERROR(DecodePhysical(n, scratch_.data()));
    StringHeap* heap = conv_.kind == LeafConversion::Kind::kUuidToString ? &values->heap() : nullptr;
    RETURN_IF_ERROR(Convert(conv_, scratch_.data(), n, dst, heap));
  }
  if (strings) {
    values->AddHeap(page_heap_);
    if (encoding_ == Encoding::DELTA_BYTE_ARRAY) values->AddHeap(dba_.heap());
    if (encoding_ == Encoding::BYTE_STREAM_SPLIT) values->AddHeap(bss_.heap());
  }
  return Status::OK();
}

Status ColumnChunkReader::ConsumeEntries(size_t begin, size_t end, LeafLevels* levels, Vector* values) {
  const size_t n = end - begin;
  const int16_t* def = max_def_ > 0 ? page_def_.data() + begin : nullptr;
  if (keep_levels_) {
    if (def) levels->def.insert(levels->def.end(), def, def + n);
    if (max_rep_ > 0) levels->rep.insert(levels->rep.end(), page_rep_.begin() + begin, page_rep_.begin() + end);
  }
  levels->count += n;
  size_t num_values = n;
  size_t num_slots = n;
  if (def) {
    num_values = 0;
    num_slots = 0;
    for (size_t i = 0; i < n; ++i) {
      num_values += def[i] == max_def_;
      num_slots += def[i] >= slot_def_;
    }
  }
  const size_t old = values->size();
  values->Resize(old + num_slots);
  const size_t w = conv_.target_width;
  uint8_t* dst = values->raw_data() + old * w;
  RETURN_IF_ERROR(DecodeValues(num_values, dst, values));
  if (num_values != num_slots) {
    // Nulls among the slots: mark them and move the dense values into place.
    uint8_t* validity = values->mutable_validity() + old;
    size_t j = 0;
    for (size_t i = 0; i < n; ++i) {
      if (def[i] >= slot_def_) validity[j++] = def[i] == max_def_;
    }
    SpreadValues(w, dst, validity, num_slots, num_values);
  }
  return Status::OK();
}

Status ColumnChunkReader::ReadRows(size_t num_rows, LeafLevels* levels, Vector* values) {
  size_t rows = 0;
  while (true) {
    if (page_pos_ == page_entries_) {
      // With repetition, the last row may continue on the next page: look there too.
      if (rows == num_rows && max_rep_ == 0) break;
      bool done = false;
      RETURN_IF_ERROR(NextPage(&done));
      if (done) {
        if (rows < num_rows) {
          return Fail(Malformed("the column chunk ends after " + std::to_string(rows) + " of the " +
                                std::to_string(num_rows) + " rows still expected"));
        }
        break;
      }
      continue;
    }
    size_t begin = page_pos_;
    size_t end = begin;
    if (max_rep_ == 0) {
      end = begin + std::min(num_rows - rows, page_entries_ - begin);
      rows += end - begin;
    } else {
      const int16_t* rep = page_rep_.data();
      while (end < page_entries_) {
        if (rep[end] == 0) {
          if (rows == num_rows) break;
          ++rows;
        }
        ++end;
      }
    }
    if (end == begin) break;
    Status st = ConsumeEntries(begin, end, levels, values);
    if (!st.ok()) return Fail(st);
    page_pos_ = end;
    if (max_rep_ == 0 && rows == num_rows) break;
  }
  return Status::OK();
}

}  // namespace sluice::parquet
