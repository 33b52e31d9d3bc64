// The 'values' connector, as Flink's test connector of that name: a source that reads rows (with
// their RowKinds) registered in memory under a 'data-id', and a sink that collects what it receives.
// Tests and the .test runner use it to feed exact changelogs into a query and read them back.
//
// The rows live in a ValuesDataRegistry owned by whoever owns the session (no global state) and
// reached through ConnectorContext::values_registry. Each registered split is one SourceSplit.
//
// Source options: 'data-id' (the registered rows; none means an empty table), 'changelog-mode'
// (the kinds the rows may carry, "I" by default, e.g. 'I,UB,UA,D'; a row with another kind fails at
// creation), 'bounded' (default true). Sink options: 'sink-insert-only' (default true: the sink
// accepts inserts only; false: every kind of change). The sink appends each change to the
// registry's results for its table name.
//
// Threading: the registry is internally synchronized; splits and writers are used by one thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "connectors/connector.h"
#include "types/row_kind.h"
#include "types/value.h"

namespace sluice {

struct ValuesRow {
  RowKind kind = RowKind::kInsert;
  std::vector<Value> values;  // one per physical column, in declared order
  // > 0: not a row but a processing-time step: when the split reaches it, the registry's clock
  // advancer moves processing time forward by this much (rows before it are emitted first).
  int64_t advance_clock_micros = 0;
  bool operator==(const ValuesRow& o) const {
    return kind == o.kind && values == o.values && advance_clock_micros == o.advance_clock_micros;
  }
};

// "+I[a, 1]" as the print sink writes it.
std::string ValuesRowToString(const ValuesRow& row);

class ValuesDataRegistry {
 public:
  using Splits = std::vector<std::vector<ValuesRow>>;

  // Registers `splits` under `data_id`, replacing what was there.
  void Register(const std::string& data_id, Splits splits);
  // Registers under a fresh id ("values-1", "values-2", ...) and returns it.
  std::string RegisterData(Splits splits);
  // The rows under `data_id`, or null.
  std::shared_ptr<const Splits> Find(const std::string& data_id) const;

  // Changes that 'values' sinks received, per sink table, in arrival order.
  std::vector<ValuesRow> Results(const std::string& table) const;
  void AppendResults(const std::string& table, std::vector<ValuesRow> rows);
  void ClearResults();

  // What processing-time steps in the rows do (tests pass their ManualClock's Advance).
  void set_clock_advancer(std::function<void(int64_t micros)> advancer);
  std::function<void(int64_t micros)> clock_advancer() const;

 private:
  std::function<void(int64_t)> advancer_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Splits>> data_;
  std::map<std::string, std::vector<ValuesRow>> results_;
  int next_id_ = 1;
};

std::unique_ptr<ConnectorFactory> MakeValuesConnectorFactory();

}  // namespace sluice
