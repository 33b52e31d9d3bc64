// Validation of a table's WITH options against a connector's declared options and its format's:
// the one code path every connector uses (house rule 5).
//
// Allowed keys are 'connector', 'format', 'scan.watermark.idle-timeout' for connectors that can read
// (the runtime reads it for any source), the factory's OptionSpec keys and, when the table names a format, that format's keys
// ('json.ignore-parse-errors'). A spec key may contain '#' standing for
// any non-empty text ('fields.#.kind', 'properties.#'). Unknown keys are rejected with Flink's
// wording and a did-you-mean; missing required keys are listed. Typed values are read with
// OptionReader (formats/format.h), whose errors name the table and key.
//
// Threading: pure functions.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "connectors/connector.h"
#include "formats/format.h"

namespace sluice {

enum class ConnectorRole { kSource, kSink };

// Validates ctx.options for `factory` in `role`. Returns the table's format (null when the table
// has no 'format' option). Errors read "Unable to create a source for reading table 't': ...".
Result<const FormatFactory*> ValidateConnectorOptions(const ConnectorContext& ctx, const ConnectorFactory& factory,
                                                      ConnectorRole role);

// Typed access to ctx.options.
OptionReader ConnectorOptionReader(const ConnectorContext& ctx);

// "Unable to create a source for reading table 't'" / "Unable to create a sink for writing table 't'".
std::string ConnectorErrorContext(const ConnectorContext& ctx, ConnectorRole role);

// True when `key` matches `pattern`, where '#' in the pattern matches any non-empty text.
bool OptionKeyMatches(const std::string& pattern, const std::string& key);

}  // namespace sluice
