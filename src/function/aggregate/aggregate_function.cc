// ResolveAggregate: name and argument checks with Calcite's wording, then the family factories.
#include <cctype>

#include "function/aggregate/aggregate_util.h"
#include "function/kernel_util.h"
#include "state/state_serde.h"
#include "types/value.h"

namespace sluice {
namespace aggregate_internal {

std::string SignatureString(const std::string& name, const std::vector<LogicalType>& arg_types) {
  std::string out = name + "(";
  for (size_t i = 0; i < arg_types.size(); ++i) {
    if (i > 0) out += ", ";
    out += "<" + arg_types[i].WithNullable(true).WithTimeAttribute(TimeAttribute::kNone).ToString() + ">";
  }
  return out + ")";
}

Status CannotApply(const std::string& name, const std::vector<LogicalType>& arg_types, const std::string& forms) {
  return Status::BindError("Cannot apply '" + name + "' to arguments of type '" + SignatureString(name, arg_types) +
                           "'. Supported form(s): '" + name + "(<" + forms + ">)'");
}

namespace {

Status WrongArgCount(const std::string& name, const std::string& expecting) {
  return Status::BindError("Invalid number of arguments to function '" + name + "'. Was expecting " + expecting +
                           " arguments");
}

Status NoMatch(const std::string& name, const std::vector<LogicalType>& arg_types) {
  return Status::BindError("No match found for function signature " + fn::SqlFamilySignature(name, arg_types));
}

}  // namespace
}  // namespace aggregate_internal

Result<std::shared_ptr<const AggregateFunction>> ResolveAggregate(const std::string& name,
                                                                  const std::vector<LogicalType>& arg_types,
                                                                  const std::vector<const Value*>& constant_args,
                                                                  bool needs_retract) {
  using namespace aggregate_internal;  // NOLINT: the factories of this library
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "SUM0") upper = "$SUM0";
  if (upper == "STDDEV") upper = "STDDEV_SAMP";
  if (upper == "VARIANCE") upper = "VAR_SAMP";

  auto f = std::make_shared<AggregateFunction>();
  f->name = upper;
  f->explain_name = needs_retract ? upper + "_RETRACT" : upper;
  f->arg_types = arg_types;

  static const char* const kSingleArg[] = {"SUM",      "$SUM0",       "AVG",        "MIN",
                                           "MAX",      "FIRST_VALUE", "LAST_VALUE", "VAR_POP",
                                           "VAR_SAMP", "STDDEV_POP",  "STDDEV_SAMP", "SINGLE_VALUE"};
  bool single_arg = false;
  for (const char* n : kSingleArg) single_arg = single_arg || upper == n;
  const bool known = single_arg || upper == "COUNT" || upper == "LISTAGG";
  if (!known) return NoMatch(upper, arg_types);
  if (single_arg && arg_types.size() != 1) return WrongArgCount(upper, "1");
  if (upper == "LISTAGG" && (arg_types.empty() || arg_types.size() > 2)) return WrongArgCount(upper, "1 or 2");
  for (const LogicalType& t : arg_types) {
    if (t.id() == TypeId::kNull)
      return Status::BindError("Illegal use of 'NULL' in " + SignatureString(upper, arg_types));
  }

  if (upper == "COUNT") {
    RETURN_IF_ERROR(MakeCount(f.get()));
  } else if (upper == "SUM" || upper == "$SUM0") {
    RETURN_IF_ERROR(MakeSum(f.get(), /*empty_is_zero=*/upper == "$SUM0"));
  } else if (upper == "AVG") {
    RETURN_IF_ERROR(MakeAvg(f.get()));
  } else if (upper == "MIN" || upper == "MAX") {
    RETURN_IF_ERROR(MakeMinMax(f.get(), upper == "MAX", needs_retract));
  } else if (upper == "FIRST_VALUE" || upper == "LAST_VALUE") {
    RETURN_IF_ERROR(MakeFirstLastValue(f.get(), upper == "LAST_VALUE", needs_retract));
  } else if (upper == "SINGLE_VALUE") {
    RETURN_IF_ERROR(MakeSingleValue(f.get(), needs_retract));
  } else if (upper == "VAR_POP" || upper == "VAR_SAMP" || upper == "STDDEV_POP" || upper == "STDDEV_SAMP") {
    const bool sample = upper == "VAR_SAMP" || upper == "STDDEV_SAMP";
    const bool sqrt = upper == "STDDEV_POP" || upper == "STDDEV_SAMP";
    RETURN_IF_ERROR(MakeVariance(f.get(), sample, sqrt));
  } else {  // LISTAGG
    static const char* const kListAggForms = "CHARACTER>)'\n'LISTAGG(<CHARACTER>, <CHARACTER_LITERAL";
    for (const LogicalType& t : arg_types) {
      if (!t.IsCharacterString()) return CannotApply(upper, arg_types, kListAggForms);
    }
    std::string separator = ",";
    if (arg_types.size() == 2) {
      const Value* sep = constant_args.size() > 1 ? constant_args[1] : nullptr;
      if (sep == nullptr || sep->is_null()) return CannotApply(upper, arg_types, kListAggForms);
      separator = sep->string_value();
    }
    RETURN_IF_ERROR(MakeListAgg(f.get(), std::move(separator), needs_retract));
  }
  SLUICE_CHECK(f->init && f->destroy && f->update && f->finalize);
  SLUICE_CHECK(!needs_retract || f->supports_retract);
  return std::shared_ptr<const AggregateFunction>(std::move(f));
}

const void* RowCountStateTag() {
  static const char tag = 0;
  return &tag;
}

bool RawStateValid(const AggregateFunction& f, const uint8_t* state) {
  for (uint32_t offset : f.raw_bools) {
    if (state[offset] > 1) return false;
  }
  return true;
}

void GetRawState(const AggregateFunction& f, uint8_t* state, StateReader* r) {
  r->GetRaw(state, f.state_size);
  if (r->ok() && !RawStateValid(f, state)) r->Fail("an invalid " + f.name + " state");
}

}  // namespace sluice
