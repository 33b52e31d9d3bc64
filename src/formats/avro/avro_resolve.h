// AvroReadPlan: Avro schema resolution, decided once per (writer schema, reader schema) pair and
// then applied to every datum of a file.
//
// Record fields match by name or by one of the reader field's aliases (how a reader accepts the
// old Iceberg name 'added_data_files_count' for 'added_files_count'); record names themselves are
// not compared, since writers name Iceberg's records differently. Writer fields the reader does not
// have are skipped; reader fields the writer does not have take their default, or null when their
// type is a union with null, else the plan is refused naming the field. Numeric promotions
// (int -> long/float/double, long -> float/double, float -> double) and string <-> bytes apply as
// the Avro spec gives them. Unions resolve per writer branch; a writer branch the reader cannot
// hold fails only when a datum actually uses it.
//
// Decoded values have the reader's shape: records hold the reader's fields in the reader's order.
//
// Threading: an immutable plan may be shared; it points into both schemas, which must outlive it.
#pragma once

#include <memory>
#include <vector>

#include "common/status.h"
#include "formats/avro/avro_binary.h"
#include "formats/avro/avro_schema.h"
#include "formats/avro/avro_value.h"

namespace sluice {

class AvroReadPlan {
 public:
  static Result<AvroReadPlan> Make(const AvroNode& writer, const AvroNode& reader);

  Status Decode(AvroDecoder* decoder, AvroValue* out) const;

 private:
  struct Step;
  friend class AvroPlanBuilder;
  Status Run(int step, AvroDecoder* d, AvroValue* out, int depth) const;

  std::vector<Step> steps_;
};

struct AvroReadPlan::Step {
  enum class Op : uint8_t { kPrimitive, kRecord, kArray, kMap, kEnum, kWriterUnion };
  Op op = Op::kPrimitive;
  const AvroNode* writer = nullptr;
  const AvroNode* reader = nullptr;
  // kRecord: one per writer field; kArray/kMap: the items; kWriterUnion: one per writer branch
  // (-1 when the reader cannot hold that branch).
  std::vector<int> children;
  // kRecord: the reader field each writer field fills, -1 to skip it.
  std::vector<int> field_target;
  // kRecord: the value of each reader field the writer does not have.
  std::vector<std::pair<int, AvroValue>> defaults;
  // kEnum: the reader symbol per writer symbol, -1 when missing (the reader's enum default applies
  // or the datum fails).
  std::vector<int> enum_map;
};

// The value a field's "default" JSON gives for `type` (for a union: its first branch).
Result<AvroValue> AvroDefaultValue(const AvroNode& type, std::string_view default_json);

}  // namespace sluice
