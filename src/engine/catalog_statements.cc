#include "engine/catalog_statements.h"

#include <map>

#include "catalog/catalog.h"
#include "connectors/builtin_connectors.h"
#include "engine/session.h"
#include "formats/format.h"
#include "function/like.h"
#include "sql/ast.h"
#include "sql/unparser.h"
#include "types/value.h"

namespace sluice {
namespace {

std::map<std::string, std::string> OptionMap(const ast::PropertyList& props) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : props) out[k] = v;
  return out;
}

// A statement's position, for errors that come from the catalog rather than the parser.
Status AtStatement(const ast::Statement& stmt, Status st) {
  if (st.ok()) return st;
  return Status(st.code(), st.message() + " (at line " + std::to_string(stmt.pos.line) + ", column " +
                               std::to_string(stmt.pos.column) + ")");
}

Status ShowNames(const ast::Show& show, QueryResultHandler* handler, const std::string& column,
                 const std::vector<std::string>& names) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& n : names) {
    if (show.like && fn::LikeMatch(n, *show.like) == show.not_like) continue;
    rows.push_back({n});
  }
  return EmitStringRows(handler, {column}, rows);
}

Status Show(const ast::Show& show, Catalog* catalog, QueryResultHandler* handler) {
  switch (show.show_kind) {
    case ast::ShowKind::kCatalogs: return ShowNames(show, handler, "catalog name", catalog->ListCatalogs());
    case ast::ShowKind::kCurrentCatalog:
      return EmitStringRows(handler, {"current catalog name"}, {{catalog->current_catalog()}});
    case ast::ShowKind::kCurrentDatabase:
      return EmitStringRows(handler, {"current database name"}, {{catalog->current_database()}});
    case ast::ShowKind::kDatabases: {
      if (show.from.size() > 1) return Status::BindError("SHOW DATABASES FROM takes a catalog name");
      std::string c = show.from.empty() ? catalog->current_catalog() : show.from[0];
      ASSIGN_OR_RETURN(auto names, catalog->ListDatabases(c));
      return ShowNames(show, handler, "database name", names);
    }
    case ast::ShowKind::kTables:
    case ast::ShowKind::kViews: {
      if (show.from.size() > 2) return Status::BindError("SHOW TABLES FROM takes [catalog.]database");
      std::string c = show.from.size() == 2 ? show.from[0] : catalog->current_catalog();
      std::string d = show.from.empty() ? catalog->current_database() : show.from.back();
      if (show.show_kind == ast::ShowKind::kViews) return ShowNames(show, handler, "view name", catalog->ListViews(c, d));
      ASSIGN_OR_RETURN(auto names, catalog->ListTables(c, d, true));
      return ShowNames(show, handler, "table name", names);
    }
    case ast::ShowKind::kFunctions:
    case ast::ShowKind::kModules: break;
  }
  return Status::Internal("SHOW kind not handled by the catalog statements");
}

// DESCRIBE CATALOG [EXTENDED]: name, type and comment (NULL when none), then under EXTENDED every
// other option as 'option:<key>', sorted by key, as Flink's DescribeCatalogOperation.
Status DescribeCatalog(const ast::Describe& d, const Catalog& catalog, QueryResultHandler* handler) {
  ASSIGN_OR_RETURN(CatalogDescriptor desc, catalog.GetCatalogDescriptor(d.name[0]));
  auto type = desc.options.find("type");
  std::vector<std::vector<std::optional<std::string>>> rows = {
      {"name", desc.name},
      {"type", type == desc.options.end() ? std::string() : type->second},
      {"comment", desc.comment},
  };
  if (d.extended) {
    for (const auto& [key, value] : desc.options) {
      if (key != "type") rows.push_back({"option:" + key, ShownOptionValue(key, value)});
    }
  }
  return EmitNullableStringRows(handler, {"info name", "info value"}, rows);
}

}  // namespace

Result<std::string> ShowCreateCatalog(const ast::ShowCreate& stmt, const Catalog& catalog) {
  auto desc = catalog.GetCatalogDescriptor(stmt.name[0]);
  RETURN_IF_ERROR(AtStatement(stmt, desc.status()));
  std::string text = "CREATE CATALOG " + sql::QuoteIdentifier(desc->name) + "\n";
  if (desc->comment) text += "COMMENT " + sql::QuoteString(*desc->comment) + "\n";
  if (desc->options.empty()) return text;
  text += "WITH (\n";
  size_t i = 0;
  for (const auto& [key, value] : desc->options) {  // a std::map: sorted by key, as Flink prints them
    text += "  " + sql::QuoteString(key) + " = " + sql::QuoteString(ShownOptionValue(key, value)) +
            (++i < desc->options.size() ? ",\n" : "\n");
  }
  return text + ")\n";
}

bool IsCatalogStatement(const ast::Statement& stmt) {
  switch (stmt.kind) {
    case ast::StatementKind::kCreateCatalog:
    case ast::StatementKind::kCreateDatabase:
    case ast::StatementKind::kUse: return true;
    case ast::StatementKind::kDrop: {
      auto object = stmt.As<ast::Drop>().object;
      return object == ast::ObjectKind::kCatalog || object == ast::ObjectKind::kDatabase;
    }
    case ast::StatementKind::kShow: {
      auto kind = stmt.As<ast::Show>().show_kind;
      return kind != ast::ShowKind::kFunctions && kind != ast::ShowKind::kModules;
    }
    case ast::StatementKind::kDescribe: return stmt.As<ast::Describe>().catalog;
    default: return false;
  }
}

Result<bool> ExecuteCatalogStatement(const ast::Statement& stmt, Catalog* catalog, QueryResultHandler* handler) {
  switch (stmt.kind) {
    case ast::StatementKind::kCreateCatalog: {
      const auto& c = stmt.As<ast::CreateCatalog>();
      RETURN_IF_ERROR(AtStatement(stmt, catalog->CreateCatalog(c.name, OptionMap(c.options), c.if_not_exists,
                                                               BuiltinCatalogFactories(), c.comment)));
      return false;
    }
    case ast::StatementKind::kCreateDatabase: {
      const auto& d = stmt.As<ast::CreateDatabase>();
      auto props = OptionMap(d.options);
      if (d.comment) props["comment"] = *d.comment;
      RETURN_IF_ERROR(AtStatement(stmt, catalog->CreateDatabase(d.name, props, d.if_not_exists)));
      return false;
    }
    case ast::StatementKind::kUse: {
      const auto& u = stmt.As<ast::Use>();
      RETURN_IF_ERROR(AtStatement(stmt, u.catalog ? catalog->UseCatalog(u.name[0]) : catalog->UseDatabase(u.name)));
      return false;
    }
    case ast::StatementKind::kDrop: {
      const auto& d = stmt.As<ast::Drop>();
      if (d.object == ast::ObjectKind::kCatalog) {
        RETURN_IF_ERROR(AtStatement(stmt, catalog->DropCatalog(d.name[0], d.if_exists)));
      } else {
        RETURN_IF_ERROR(AtStatement(stmt, catalog->DropDatabase(d.name, d.if_exists, d.cascade)));
      }
      return false;
    }
    case ast::StatementKind::kShow:
      RETURN_IF_ERROR(AtStatement(stmt, Show(stmt.As<ast::Show>(), catalog, handler)));
      return true;
    case ast::StatementKind::kDescribe:
      RETURN_IF_ERROR(AtStatement(stmt, DescribeCatalog(stmt.As<ast::Describe>(), *catalog, handler)));
      return true;
    default: break;
  }
  return Status::Internal("not a catalog statement");
}

Status EmitStringRows(QueryResultHandler* handler, const std::vector<std::string>& names,
                      const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::vector<std::optional<std::string>>> optional_rows;
  optional_rows.reserve(rows.size());
  for (const auto& r : rows) optional_rows.emplace_back(r.begin(), r.end());
  return EmitNullableStringRows(handler, names, optional_rows);
}

Status EmitNullableStringRows(QueryResultHandler* handler, const std::vector<std::string>& names,
                      const std::vector<std::vector<std::optional<std::string>>>& rows) {
  if (!handler) return Status::OK();
  Schema schema;
  for (const auto& n : names) schema.Add(n, LogicalType::String());
  RETURN_IF_ERROR(handler->Begin(schema));
  Chunk chunk(schema);
  for (const auto& r : rows) {
    std::vector<Value> vals;
    for (const auto& s : r) vals.push_back(s ? Value::String(*s) : Value::Null(LogicalType::String()));
    chunk.AppendValues(vals, RowKind::kInsert);
  }
  if (chunk.size()) RETURN_IF_ERROR(handler->Changes(chunk));
  return handler->End();
}

}  // namespace sluice
