// Configuration: the session's typed options, declared once with Flink's keys, defaults and
// descriptions (house rule 5; as Flink's ExecutionConfigOptions and DuckDB's settings).
//
// Every option a user can SET (or pass as `--set key=value`) is a ConfigOption in the one registry
// of config_options.cc. Setting an unknown key fails with a did-you-mean; a value that does not parse
// as the option's type fails naming the key. Reading an unset option yields its default.
//
// Threading: a Configuration belongs to one session; jobs take a copy when they start.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace sluice {

enum class OptionType { kBoolean, kInteger, kDuration, kString, kEnum, kMemorySize };

struct ConfigOption {
  const char* key;
  OptionType type;
  const char* default_value;  // as text, "" when none
  const char* description;
  // For kEnum: the values in Flink's spelling (its enum constants, e.g. "DROP"). SET matches them in any
  // case, as Flink's enum options do, and stores this spelling, so readers never see another.
  std::vector<std::string> enum_values = {};
  // Other keys that set this option, as Flink's deprecated and fallback keys do (renamed options): a
  // SET or RESET of one of them acts on `key`.
  std::vector<std::string> fallback_keys = {};
  // For kInteger: the values SET accepts.
  int64_t min_value = INT64_MIN;
  int64_t max_value = INT64_MAX;
};

// Typed values of the enum options the engine reads; each lists its option's enum_values in order
// (Configuration::GetEnum returns the position of the value set).
enum class RuntimeMode { kStreaming, kBatch, kAutomatic };
enum class ResultModeOption { kTableau, kChangelog, kTable };
enum class NotNullEnforcer { kError, kDrop };
enum class UpsertMaterializeOption { kNone, kAuto, kForce };
enum class AggPhaseStrategy { kAuto, kOnePhase, kTwoPhase };
enum class NonDeterministicUpdateStrategy { kIgnore, kTryResolve };
enum class CheckpointingMode { kExactlyOnce, kAtLeastOnce };

// All options Sluice knows, in documentation order.
const std::vector<ConfigOption>& AllConfigOptions();
const ConfigOption* FindConfigOption(const std::string& key);

// Parses "10 s", "10s", "5 min", "1h", "100 ms", "2 d", "500" (milliseconds) into milliseconds.
Result<int64_t> ParseDurationMillis(const std::string& text);
// Parses "true"/"false" (any case).
Result<bool> ParseBool(const std::string& text);
// Parses "64mb", "1 gb", "4096" (bytes).
Result<int64_t> ParseMemorySize(const std::string& text);
// The other way: "1 mb", "1.02 mb", "980 kb", "12 bytes" (the largest unit not above the value; two
// decimals unless exact).
std::string FormatMemorySize(int64_t bytes);

// Closest candidate to `name` by edit distance, when close enough to be a likely typo.
std::optional<std::string> DidYouMean(const std::string& name, const std::vector<std::string>& candidates);

class Configuration {
 public:
  // Validates key and value. Keys outside the registry are refused unless they start with a
  // prefix Flink passes through untouched ("pipeline.", "env.").
  Status Set(const std::string& key, const std::string& value);
  void Reset(const std::string& key);
  void ResetAll() { values_.clear(); }

  // The value set, or the option's default.
  std::string GetString(const std::string& key) const;
  bool GetBool(const std::string& key) const;
  int64_t GetInt(const std::string& key) const;
  int64_t GetDurationMillis(const std::string& key) const;
  // An enum option's value (set or default) as E, whose enumerators follow the option's enum_values.
  template <typename E>
  E GetEnum(const std::string& key) const {
    return static_cast<E>(GetEnumIndex(key));
  }
  // The position of an enum option's value among its enum_values.
  size_t GetEnumIndex(const std::string& key) const;
  bool IsSet(const std::string& key) const { return values_.count(key) > 0; }
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

// Well-known keys (one spelling, used everywhere).
inline constexpr char kRuntimeModeKey[] = "execution.runtime-mode";
inline constexpr char kLocalTimeZoneKey[] = "table.local-time-zone";
inline constexpr char kIdleTimeoutKey[] = "table.exec.source.idle-timeout";
inline constexpr char kResultModeKey[] = "sql-client.execution.result-mode";
inline constexpr char kChunkSizeKey[] = "sluice.exec.chunk-size";
inline constexpr char kParallelismKey[] = "parallelism.default";
inline constexpr char kSinkNotNullEnforcerKey[] = "table.exec.sink.not-null-enforcer";
inline constexpr char kDisabledOperatorsKey[] = "table.exec.disabled-operators";
inline constexpr char kMaxColumnWidthKey[] = "table.display.max-column-width";
inline constexpr char kSinkUpsertMaterializeKey[] = "table.exec.sink.upsert-materialize";
inline constexpr char kSinkRequireOnConflictKey[] = "table.exec.sink.require-on-conflict";
inline constexpr char kAggPhaseStrategyKey[] = "table.optimizer.agg-phase-strategy";
inline constexpr char kNonDeterministicUpdateStrategyKey[] = "table.optimizer.non-deterministic-update.strategy";
inline constexpr char kCdcEventsDuplicateKey[] = "table.exec.source.cdc-events-duplicate";
inline constexpr char kSourcePredicatePushdownKey[] = "table.optimizer.source.predicate-pushdown-enabled";
inline constexpr char kLateRowsTableKey[] = "sluice.exec.late-rows.table";
inline constexpr char kPrintFormatKey[] = "sluice.print.format";
inline constexpr char kProcessMemoryKey[] = "taskmanager.memory.process.size";
// A table option every connector accepts (Flink 1.17's source watermark option): the table's own
// idle timeout, overriding 'table.exec.source.idle-timeout' (runtime/operators/source_operator.h).
inline constexpr char kScanIdleTimeoutOption[] = "scan.watermark.idle-timeout";

// 'execution.runtime-mode' is BATCH; STREAMING and AUTOMATIC run as streaming.
bool IsBatchRuntimeMode(const Configuration& config);

}  // namespace sluice
