// CREATE TABLE's unparsing (see unparser_internal.h): the text SHOW CREATE TABLE builds on and a
// view or CTAS definition is stored as.
#include "sql/unparser.h"
#include "sql/unparser_internal.h"

#include <string>
#include <vector>

namespace sluice::sql {

using namespace ast;  // NOLINT: prints CREATE TABLE's nodes

namespace {

// `name` TYPE | `name` AS expr | `name` TYPE METADATA [FROM 'key'] [VIRTUAL], then COMMENT '...'.
std::string ColumnDefText(UnparserBase& unparser, const ColumnDef& c) {
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
  return col;
}

std::string WatermarkText(UnparserBase& unparser, const WatermarkDef& w) {
  return "WATERMARK FOR " + NameText(w.column) + " AS " + unparser.Expr(*w.expr);
}

std::string PrimaryKeyText(const PrimaryKeyDef& k) {
  std::string pk;
  if (!k.constraint_name.empty()) pk += "CONSTRAINT " + QuoteIdentifier(k.constraint_name) + " ";
  return pk + "PRIMARY KEY " + IdentifierList(k.columns) + (k.enforced ? " ENFORCED" : " NOT ENFORCED");
}

}  // namespace

std::string CreateTableText(UnparserBase& unparser, const CreateTable& ct) {
  std::string out = ct.replace ? "REPLACE TABLE " : ct.or_replace ? "CREATE OR REPLACE TABLE " : ct.temporary ? "CREATE TEMPORARY TABLE " : "CREATE TABLE ";
  if (ct.if_not_exists) out += "IF NOT EXISTS ";
  out += NameText(ct.name);
  std::vector<std::string> elements;
  for (const ColumnDef& c : ct.columns) elements.push_back(ColumnDefText(unparser, c));
  if (ct.watermark) elements.push_back(WatermarkText(unparser, *ct.watermark));
  if (ct.primary_key) elements.push_back(PrimaryKeyText(*ct.primary_key));
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
        if (i) out += " ";
        out += std::string(kStrategies[static_cast<int>(ct.like->options[i].first)]) + " " +
               kFeatures[static_cast<int>(ct.like->options[i].second)];
      }
      out += ")";
    }
  }
  if (ct.as_query) out += "\nAS " + unparser.Query(*ct.as_query);
  return out;
}

std::string AlterTableText(UnparserBase& unparser, const AlterTable& a) {
  using Action = AlterTable::Action;
  std::string out = std::string("ALTER TABLE ") + (a.if_exists ? "IF EXISTS " : "") + NameText(a.name) + " ";
  switch (a.action) {
    case Action::kSetOptions: return out + "SET " + PropertiesText(a.set_options);
    case Action::kResetOptions: {
      out += "RESET (";
      for (size_t i = 0; i < a.reset_keys.size(); ++i) out += (i ? ", " : "") + QuoteString(a.reset_keys[i]);
      return out + ")";
    }
    case Action::kRenameTable: return out + "RENAME TO " + NameText(a.new_name);
    case Action::kRenameColumn: return out + "RENAME " + QuoteIdentifier(a.old_column) + " TO " + QuoteIdentifier(a.new_column);
    case Action::kDropColumns: return out + "DROP " + IdentifierList(a.drop_columns);
    case Action::kDropPrimaryKey: return out + "DROP PRIMARY KEY";
    case Action::kDropConstraint: return out + "DROP CONSTRAINT " + QuoteIdentifier(a.constraint_name);
    case Action::kDropWatermark: return out + "DROP WATERMARK";
    case Action::kAdd:
    case Action::kModify: break;
  }
  std::vector<std::string> parts;
  for (const AlterColumn& c : a.columns) {
    std::string part = ColumnDefText(unparser, c.column);
    if (c.position == AlterColumn::Position::kFirst) part += " FIRST";
    if (c.position == AlterColumn::Position::kAfter) part += " AFTER " + QuoteIdentifier(c.after);
    parts.push_back(std::move(part));
  }
  if (a.watermark) parts.push_back(WatermarkText(unparser, *a.watermark));
  if (a.primary_key) parts.push_back(PrimaryKeyText(*a.primary_key));
  out += a.action == Action::kAdd ? "ADD (" : "MODIFY (";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + ")";
}

}  // namespace sluice::sql
