// Schema: the ordered, named, typed columns of a table, a stream or a chunk.
//
// Names are case-sensitive as in Flink's default (identifiers keep their case; lookup is exact,
// with a did-you-mean offered by the binder when a name is missing).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "types/logical_type.h"

namespace sluice {

struct Field {
  std::string name;
  LogicalType type;
};

class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<Field> fields) : fields_(std::move(fields)) {}

  size_t size() const { return fields_.size(); }
  const Field& field(size_t i) const { return fields_[i]; }
  const std::vector<Field>& fields() const { return fields_; }
  void Add(std::string name, LogicalType type) { fields_.push_back({std::move(name), std::move(type)}); }
  // Index of the column named exactly `name`, if any.
  std::optional<size_t> IndexOf(const std::string& name) const;
  std::vector<LogicalType> types() const;
  std::vector<std::string> names() const;
  // "(`a` INT, `b` STRING)".
  std::string ToString() const;

 private:
  std::vector<Field> fields_;
};

}  // namespace sluice
