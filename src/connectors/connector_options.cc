#include "connectors/connector_options.h"

#include <algorithm>
#include <set>

#include "common/config.h"

namespace sluice {

namespace {

bool MatchFrom(const std::string& pattern, size_t pi, const std::string& key, size_t ki) {
  while (pi < pattern.size()) {
    if (pattern[pi] == '#') {
      // '#' takes at least one character; try every length.
      for (size_t end = ki + 1; end <= key.size(); ++end) {
        if (MatchFrom(pattern, pi + 1, key, end)) return true;
      }
      return false;
    }
    if (ki >= key.size() || key[ki] != pattern[pi]) return false;
    ++pi;
    ++ki;
  }
  return ki == key.size();
}

std::string JoinKeys(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

}  // namespace

bool OptionKeyMatches(const std::string& pattern, const std::string& key) {
  if (pattern.find('#') == std::string::npos) return pattern == key;
  return MatchFrom(pattern, 0, key, 0);
}

std::string ConnectorErrorContext(const ConnectorContext& ctx, ConnectorRole role) {
  return role == ConnectorRole::kSource ? "Unable to create a source for reading table '" + ctx.table_name + "'"
                                        : "Unable to create a sink for writing table '" + ctx.table_name + "'";
}

OptionReader ConnectorOptionReader(const ConnectorContext& ctx) { return OptionReader(ctx.table_name, &ctx.options); }

Result<const FormatFactory*> ValidateConnectorOptions(const ConnectorContext& ctx, const ConnectorFactory& factory,
                                                      ConnectorRole role) {
  const std::string context = ConnectorErrorContext(ctx, role);
  std::vector<std::string> allowed = {"connector"};
  // The runtime reads 'scan.watermark.idle-timeout' for any source (common/config.h).
  if (factory.supports_source()) allowed.push_back(kScanIdleTimeoutOption);
  std::vector<std::string> required;
  bool declares_format = false;
  for (const OptionSpec& spec : factory.options()) {
    allowed.push_back(spec.key);
    if (spec.key == "format") declares_format = true;
    if (spec.required && ctx.options.count(spec.key) == 0) required.push_back(spec.key);
  }
  if (!declares_format) allowed.push_back("format");

  const FormatFactory* format = nullptr;
  auto fit = ctx.options.find("format");
  if (fit != ctx.options.end()) {
    auto found = FindFormat(fit->second);
    if (!found.ok()) return found.status().WithContext(context);
    format = *found;
    for (const ConfigOption& o : format->options()) allowed.push_back(o.key);
  }

  std::vector<std::string> unknown;
  for (const auto& entry : ctx.options) {
    const std::string& key = entry.first;  // a named reference: clang 14 lambdas cannot capture bindings
    bool ok = std::any_of(allowed.begin(), allowed.end(), [&](const std::string& p) { return OptionKeyMatches(p, key); });
    if (!ok) unknown.push_back(key);
  }
  if (!unknown.empty()) {
    std::string msg = "Unsupported options found for '" + factory.identifier() + "'. Unsupported options: " +
                      JoinKeys(unknown) + ".";
    bool suggested = false;
    for (const auto& key : unknown) {
      auto dym = DidYouMean(key, allowed);
      if (!dym) continue;
      suggested = true;
      msg += " Did you mean '" + *dym + "'";
      msg += unknown.size() > 1 ? " instead of '" + key + "'?" : "?";
    }
    if (!suggested) {
      std::vector<std::string> sorted = allowed;
      std::sort(sorted.begin(), sorted.end());
      msg += " Supported options: " + JoinKeys(sorted) + ".";
    }
    return Status::InvalidArgument(msg).WithContext(context);
  }
  if (!required.empty()) {
    return Status::InvalidArgument("One or more required options are missing. Missing required options are: " +
                                   JoinKeys(required))
        .WithContext(context);
  }
  return format;
}

}  // namespace sluice
