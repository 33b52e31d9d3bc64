// The time of a partition, for the filesystem sink's 'partition-time' commit trigger (Flink's
// PartitionTimeExtractor with kind 'default', DefaultPartTimeExtractor).
//
// Options, read from the table's WITH clause:
// - 'partition.time-extractor.kind': 'default' (the only kind Sluice has; 'custom' needs a Java
//   class and is refused with an error naming the option).
// - 'partition.time-extractor.timestamp-pattern': how the partition values make a timestamp text,
//   '$dt $hm:00' ('$key' is replaced by that partition's value, keys in declared order). Unset: the
//   first partition value is the text.
// - 'partition.time-extractor.timestamp-formatter': a java.time DateTimeFormatter pattern for that
//   text ('yyyyMMdd HH:mm:ss'); Sluice understands the letters y M d H m s S, quoted literals and
//   other characters as literals, and refuses other letters when the table is created. Unset: a lenient
//   'yyyy-M-d[ H:m:s[.fraction]]', as Flink's default. A text that holds only the date part of the
//   pattern means midnight, as in Flink.
//
// The result is a local date-time (microseconds since 1970-01-01 00:00 of the wall clock); the
// committer places it in 'sink.partition-commit.watermark-time-zone'.
//
// Threading: immutable after Make; Extract is const.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "formats/format.h"

namespace sluice {

class PartitionTimeExtractor {
 public:
  static constexpr char kKind[] = "partition.time-extractor.kind";
  static constexpr char kClass[] = "partition.time-extractor.class";
  static constexpr char kTimestampPattern[] = "partition.time-extractor.timestamp-pattern";
  static constexpr char kTimestampFormatter[] = "partition.time-extractor.timestamp-formatter";

  // Reads and checks the options above; errors name the option.
  static Result<PartitionTimeExtractor> Make(const OptionReader& options);

  // The local date-time of the partition with `values` (one per key of `keys`, unescaped). An
  // unparsable text is an error naming the partition and the pattern.
  Result<int64_t> ExtractMicros(const std::vector<std::string>& keys, const std::vector<std::string>& values) const;

 private:
  // One piece of a formatter pattern: a field (letter and width) or literal text.
  struct Piece {
    char letter = 0;  // 0: literal
    int width = 0;
    std::string literal;
  };
  std::string pattern_;           // empty: the first value
  std::string formatter_text_;    // empty: the lenient default
  std::vector<Piece> formatter_;  // parsed formatter_text_
};

}  // namespace sluice
