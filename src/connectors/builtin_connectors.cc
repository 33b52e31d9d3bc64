#include "connectors/builtin_connectors.h"

#include "connectors/http/schema_registry_http.h"
#include "connectors/iceberg/iceberg_connector.h"
#include "connectors/iceberg/iceberg_external_catalog.h"
#include "connectors/kafka/kafka_connector.h"

// The generator connectors live in their own folders; they join the list once their sources exist.
#if __has_include("connectors/datagen/datagen_connector.cc")
#define SLUICE_HAS_DATAGEN 1
#endif
#if __has_include("connectors/nexmark/nexmark_connector.cc")
#define SLUICE_HAS_NEXMARK 1
#endif

namespace sluice {

std::vector<std::unique_ptr<ConnectorFactory>> BuiltinConnectorFactories() {
  InstallSchemaRegistryHttp();  // the avro-confluent format's registry client speaks HTTP through libcurl
  std::vector<std::unique_ptr<ConnectorFactory>> out;
  out.push_back(MakeFilesystemConnectorFactory());
  out.push_back(MakePrintConnectorFactory());
  out.push_back(MakeBlackholeConnectorFactory());
  out.push_back(MakeValuesConnectorFactory());
  out.push_back(MakeKafkaConnectorFactory());
  out.push_back(MakeUpsertKafkaConnectorFactory());
  out.push_back(MakeIcebergConnectorFactory());
#ifdef SLUICE_HAS_DATAGEN
  out.push_back(MakeDatagenConnectorFactory());
#endif
#ifdef SLUICE_HAS_NEXMARK
  out.push_back(MakeNexmarkConnectorFactory());
#endif
  return out;
}

std::vector<const ExternalCatalogFactory*> BuiltinCatalogFactories() { return {IcebergCatalogFactory()}; }

}  // namespace sluice
