// Installs the libcurl client (connectors/http/http_client.h) as the HTTP transport of the
// avro-confluent format's schema registry clients (formats/avro_confluent/schema_registry.h, which
// cannot depend on connectors). Called once by BuiltinConnectorFactories; later calls do nothing.
//
// Threading: thread-safe.
#pragma once

namespace sluice {

void InstallSchemaRegistryHttp();

}  // namespace sluice
