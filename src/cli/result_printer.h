// ResultPrinter: shows a statement's rows on the console in the CLI's formats and result modes.
//
// Formats: 'tableau' (Flink SQL client's boxed table; in changelog mode with an `op` column and
// printed as changes arrive, column widths chosen from the types as Flink's client does), 'jsonl'
// (one JSON object per change: {"op":"+I",...}), 'csv' (a header, then one record per change, with
// the op first). Modes: 'changelog' prints every change; 'table' folds the changelog and prints only
// the final rows (without op) when the result ends.
//
// Threading: used by the CLI thread only.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "engine/result_table.h"
#include "engine/session.h"

namespace sluice {

class RecordEncoder;
class JsonRowWriter;

enum class OutputFormat { kTableau, kJsonl, kCsv };
enum class ResultMode { kChangelog, kTable };

class ResultPrinter final : public QueryResultHandler {
 public:
  ResultPrinter(std::ostream* out, OutputFormat format, ResultMode mode, int max_column_width);
  ~ResultPrinter() override;
  // Statements whose rows are a listing (SHOW, DESCRIBE) print as a final table even in changelog mode.
  void set_listing(bool listing) { listing_ = listing; }

  // 'table' mode folds by the query's upsert key when it has one (engine/result_table.h).
  void SetUpsertKey(const std::vector<int>& key_columns) override { upsert_key_ = key_columns; }
  bool FinalTableOnly() const override { return mode_ == ResultMode::kTable || listing_; }
  Status Begin(const Schema& schema) override;
  Status Changes(const Chunk& chunk) override;
  Status End() override;

 private:
  Status PrintRows(const Chunk& chunk, bool with_op);
  void PrintTableauHeader(bool with_op);
  void PrintTableauRule(bool with_op);
  std::string Cell(const Vector& v, size_t row) const;
  void PrintFinalTableau(const std::vector<std::vector<Value>>& rows);

  std::ostream* out_;
  OutputFormat format_;
  ResultMode mode_;
  int max_width_;
  bool listing_ = false;
  Schema schema_;
  std::vector<size_t> widths_;
  int64_t count_ = 0;
  std::vector<int> upsert_key_;
  MaterializedTable table_;
  std::unique_ptr<JsonRowWriter> json_;
  std::unique_ptr<RecordEncoder> csv_;
};

}  // namespace sluice
