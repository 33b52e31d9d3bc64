// CREATE TABLE's unparsing (see unparser_internal.h): the text SHOW CREATE TABLE builds on and a
// view or CTAS definition is stored as.
#include "sql/unparser.h"
#include "sql/unparser_internal.h"

#include <string>
#include <vector>

namespace sluice::sql {

using namespace ast;  // NOLINT: prints CREATE TABLE's nodes

std::string CreateTableText(UnparserBase& unparser, const CreateTable& ct) {
  std::string out = ct.temporary ? "CREATE TEMPORARY TABLE " : "CREATE TABLE ";
  if (ct.if_not_exists) out += "IF NOT EXISTS ";
  out += NameText(ct.name);
  std::vector<std::string> elements;
  for (const ColumnDef& c : ct.columns) {
    std::string col = QuoteIdentifier(c.name);
    switch (c.column_kind) {
      case ColumnKind::kPhysical: col += " " + UnparseType(c.type); break;
      case ColumnKind::kComputed: col += " AS " + unparser.Expr(*c.expr); break;
      case ColumnKind::kMetadata:
        col += " " + UnparseType(c.type) + " METADATA";
        if (c.metadata_key) col += " FROM " + QuoteString(*c.metadata_key);
        if (c.is_virtual) col += " VIRTUAL";
        break;
    }
    if (c.comment) col += " COMMENT " + QuoteString(*c.comment);
    elements.push_back(std::move(col));
  }
  if (ct.watermark) {
    elements.push_back("WATERMARK FOR " + NameText(ct.watermark->column) + " AS " + unparser.Expr(*ct.watermark->expr));
  }
  if (ct.primary_key) {
    std::string pk;
    if (!ct.primary_key->constraint_name.empty()) {
      pk += "CONSTRAINT " + QuoteIdentifier(ct.primary_key->constraint_name) + " ";
    }
    pk += "PRIMARY KEY " + IdentifierList(ct.primary_key->columns) +
          (ct.primary_key->enforced ? " ENFORCED" : " NOT ENFORCED");
    elements.push_back(std::move(pk));
  }
  if (!elements.empty()) {
    out += " (\n";
    for (size_t i = 0; i < elements.size(); ++i) {
      out += "  " + elements[i] + (i + 1 < elements.size() ? ",\n" : "\n");
    }
    out += ")";
  }
  if (ct.comment) out += "\nCOMMENT " + QuoteString(*ct.comment);
  if (!ct.partition_keys.empty()) out += "\nPARTITIONED BY " + PartitionTermsText(ct.partition_keys);
  if (!ct.options.empty()) out += "\nWITH " + PropertiesText(ct.options);
  if (ct.like) {
    out += "\nLIKE " + NameText(ct.like->source);
    if (!ct.like->options.empty()) {
      static const char* kStrategies[] = {"INCLUDING", "EXCLUDING", "OVERWRITING"};
      static const char* kFeatures[] = {"ALL", "CONSTRAINTS", "GENERATED", "METADATA", "OPTIONS", "PARTITIONS",
                                        "WATERMARKS"};
      out += " (";
      for (size_t i = 0; i < ct.like->options.size(); ++i) {
        if (i) out += ", ";
        out += std::string(kStrategies[static_cast<int>(ct.like->options[i].first)]) + " " +
               kFeatures[static_cast<int>(ct.like->options[i].second)];
      }
      out += ")";
    }
  }
  if (ct.as_query) out += "\nAS " + unparser.Query(*ct.as_query);
  return out;
}

}  // namespace sluice::sql
