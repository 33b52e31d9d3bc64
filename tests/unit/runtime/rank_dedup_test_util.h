// Test helpers for driving one operator directly: build input chunks from boxed values, and a sink
// operator that records every change (and watermark) it receives as text, e.g. "+I[book, 1, 12]".
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "runtime/job.h"
#include "runtime/operator.h"
#include "types/value.h"
#include "types/vector.h"

namespace sluice::testing {

// Records "+I[a, b]"-style lines and "WM[ts]" for watermarks; TIMESTAMP columns print as
// milliseconds since the epoch to keep expectations short.
class CollectSink final : public Operator {
 public:
  CollectSink() : Operator("collect", 1) {}

  Status Process(int, Chunk& chunk) override {
    ++chunks;
    for (size_t i = 0; i < chunk.size(); ++i) {
      std::string line(RowKindShortString(chunk.kind(i)));
      line += "[";
      for (size_t c = 0; c < chunk.num_columns(); ++c) {
        if (c) line += ", ";
        const Vector& v = chunk.column(c);
        if (v.IsNull(i)) {
          line += "NULL";
        } else if (v.type().IsTimestamp()) {
          line += std::to_string(v.data<int64_t>()[i] / 1000);
        } else {
          line += v.GetValue(i).ToString();
        }
      }
      line += "]";
      rows.push_back(std::move(line));
    }
    // A -U must be followed by its +U in the same chunk.
    for (size_t i = 0; i < chunk.size(); ++i) {
      if (chunk.kind(i) == RowKind::kUpdateBefore) {
        if (i + 1 >= chunk.size() || chunk.kind(i + 1) != RowKind::kUpdateAfter) split_pairs++;
      }
    }
    return Status::OK();
  }

  // Changes only, without watermarks.
  std::vector<std::string> Changes() const {
    std::vector<std::string> out;
    for (const auto& r : rows) {
      if (r.rfind("WM[", 0) != 0) out.push_back(r);
    }
    return out;
  }

  std::vector<std::string> rows;
  int chunks = 0;
  int split_pairs = 0;
  bool ended = false;

 protected:
  Status OnWatermark(int64_t watermark) override {
    rows.push_back("WM[" + (watermark == kMaxWatermark ? std::string("+inf") : std::to_string(watermark / 1000)) +
                   "]");
    return Status::OK();
  }
  Status OnEndOfInput() override {
    ended = true;
    return Status::OK();
  }
};

// Wires `op` to a CollectSink and opens both.
struct Harness {
  explicit Harness(Operator* o, size_t chunk_size = 1024) : op(o) {
    ctx.chunk_size = chunk_size;
    op->AddOutput(&sink, 0);
    open_status = op->Open(&ctx);
    (void)sink.Open(&ctx);
  }
  Status Push(Chunk chunk) { return op->Process(0, chunk); }
  Status Watermark(int64_t millis) { return op->ReceiveWatermark(0, millis * 1000); }
  Status End() { return op->ReceiveEndOfInput(0); }

  Operator* op;
  JobContext ctx;
  CollectSink sink;
  Status open_status;
};

inline Value Str(const std::string& s) { return Value::String(s); }
inline Value Int(int32_t v) { return Value::Integer(v); }
inline Value Big(int64_t v) { return Value::BigInt(v); }
inline Value Ts(int64_t millis) { return Value::Int(LogicalType::Timestamp(3), millis * 1000); }

struct Row {
  RowKind kind;
  std::vector<Value> values;
};
inline Row I(std::vector<Value> v) { return {RowKind::kInsert, std::move(v)}; }
inline Row UB(std::vector<Value> v) { return {RowKind::kUpdateBefore, std::move(v)}; }
inline Row UA(std::vector<Value> v) { return {RowKind::kUpdateAfter, std::move(v)}; }
inline Row D(std::vector<Value> v) { return {RowKind::kDelete, std::move(v)}; }

inline Chunk MakeChunk(const std::vector<LogicalType>& types, const std::vector<Row>& rows) {
  Chunk c(types);
  for (const auto& r : rows) c.AppendValues(r.values, r.kind);
  return c;
}

// Pushes `rows` of `types` into `h` in chunks of `chunk` rows; the first error stops it.
inline Status PushInChunks(Harness& h, const std::vector<LogicalType>& types, const std::vector<Row>& rows,
                           size_t chunk) {
  for (size_t b = 0; b < rows.size(); b += chunk) {
    std::vector<Row> part(rows.begin() + static_cast<std::ptrdiff_t>(b),
                          rows.begin() + static_cast<std::ptrdiff_t>(std::min(rows.size(), b + chunk)));
    RETURN_IF_ERROR(h.Push(MakeChunk(types, part)));
  }
  return Status::OK();
}

// Owns an operator of type Op, wired to a CollectSink and opened with both: Push rows of `types` to
// one input, a watermark or the end of input to every input, and Take() the changes emitted since
// the last Take().
template <typename Op>
struct Driven {
  template <typename... OpArgs>
  Driven(std::vector<LogicalType> input_types, size_t chunk_size, OpArgs&&... op_args)
      : types(std::move(input_types)), op(std::forward<OpArgs>(op_args)...) {
    ctx.chunk_size = chunk_size;
    op.AddOutput(&sink, 0);
    open_status = op.Open(&ctx);
    (void)sink.Open(&ctx);
  }
  Status Push(int input, const std::vector<Row>& rows) {
    Chunk c = MakeChunk(types, rows);
    return op.Process(input, c);
  }
  Status Watermark(int64_t millis) {
    for (int i = 0; i < op.num_inputs(); ++i) RETURN_IF_ERROR(op.ReceiveWatermark(i, millis * 1000));
    return Status::OK();
  }
  Status End() {
    for (int i = 0; i < op.num_inputs(); ++i) RETURN_IF_ERROR(op.ReceiveEndOfInput(i));
    return Status::OK();
  }
  std::vector<std::string> Take() {
    std::vector<std::string> all = sink.Changes();
    std::vector<std::string> out(all.begin() + static_cast<std::ptrdiff_t>(taken), all.end());
    taken = all.size();
    return out;
  }

  std::vector<LogicalType> types;
  JobContext ctx;
  Op op;
  CollectSink sink;
  Status open_status;
  size_t taken = 0;
};

}  // namespace sluice::testing
