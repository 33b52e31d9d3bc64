#include "connectors/connector.h"

#include <algorithm>

#include "common/check.h"
#include "common/config.h"
#include "connectors/builtin_connectors.h"

namespace sluice {

Schema ProjectedSchema(const ConnectorContext& ctx) {
  Schema out;
  if (ctx.projection.empty()) {
    for (const Field& f : ctx.physical_schema.fields()) out.Add(f.name, f.type);
  } else {
    for (int i : ctx.projection) {
      const Field& f = ctx.physical_schema.field(static_cast<size_t>(i));
      out.Add(f.name, f.type);
    }
  }
  for (const Field& f : ctx.metadata) out.Add(f.name, f.type);
  return out;
}

Result<std::unique_ptr<TableSource>> ConnectorFactory::CreateSource(const ConnectorContext& ctx) const {
  std::string msg = "Connector '" + identifier() + "' cannot be used as a source";
  if (supports_sink()) msg += "; it can only be used as a sink";
  return Status::InvalidArgument(msg + " (table '" + ctx.table_name + "').");
}

Result<ChangelogMode> ConnectorFactory::SourceChangelogMode(const ConnectorContext& ctx) const {
  ASSIGN_OR_RETURN(std::unique_ptr<TableSource> source, CreateSource(ctx));
  return source->changelog_mode();
}

Result<std::unique_ptr<TableSink>> ConnectorFactory::CreateSink(const ConnectorContext& ctx) const {
  std::string msg = "Connector '" + identifier() + "' cannot be used as a sink";
  if (supports_source()) msg += "; it can only be used as a source";
  return Status::InvalidArgument(msg + " (table '" + ctx.table_name + "').");
}

const ConnectorRegistry& ConnectorRegistry::Builtin() {
  static const ConnectorRegistry* const kRegistry = [] {
    auto* r = new ConnectorRegistry();
    for (auto& f : BuiltinConnectorFactories()) r->Register(std::move(f));
    return r;
  }();
  return *kRegistry;
}

Result<const ConnectorFactory*> ConnectorRegistry::Find(const std::string& identifier) const {
  if (identifier.empty()) {
    return Status::InvalidArgument("Table options do not contain an option key 'connector' for discovering a connector.");
  }
  std::vector<std::string> names;
  for (const auto& f : factories_) {
    if (f->identifier() == identifier) return f.get();
    names.push_back(f->identifier());
  }
  std::sort(names.begin(), names.end());
  std::string msg = "Could not find any factory for identifier '" + identifier + "'.";
  if (auto dym = DidYouMean(identifier, names)) msg += " Did you mean '" + *dym + "'?";
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  msg += " Available factory identifiers are: " + list + ".";
  return Status::InvalidArgument(msg);
}

std::vector<const ConnectorFactory*> ConnectorRegistry::all() const {
  std::vector<const ConnectorFactory*> out;
  for (const auto& f : factories_) out.push_back(f.get());
  return out;
}

void ConnectorRegistry::Register(std::unique_ptr<ConnectorFactory> factory) {
  SLUICE_CHECK(factory != nullptr);
  for (const auto& f : factories_) SLUICE_CHECK_NE(f->identifier(), factory->identifier());
  factories_.push_back(std::move(factory));
}

}  // namespace sluice
