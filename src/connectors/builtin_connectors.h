// The list of built-in connector factories that ConnectorRegistry::Builtin() registers.
//
// Each connector folder provides one Make...ConnectorFactory() function. The datagen and nexmark
// factories are linked in when their sources are in the tree (builtin_connectors.cc checks with
// __has_include), so the list links whether or not those folders exist yet.
//
// Threading: the functions create new factories; call them from any thread.
#pragma once

#include <memory>
#include <vector>

#include "catalog/external_catalog.h"
#include "connectors/connector.h"

namespace sluice {

std::unique_ptr<ConnectorFactory> MakeFilesystemConnectorFactory();
std::unique_ptr<ConnectorFactory> MakePrintConnectorFactory();
std::unique_ptr<ConnectorFactory> MakeBlackholeConnectorFactory();
std::unique_ptr<ConnectorFactory> MakeValuesConnectorFactory();
std::unique_ptr<ConnectorFactory> MakeDatagenConnectorFactory();
std::unique_ptr<ConnectorFactory> MakeNexmarkConnectorFactory();

// Every built-in factory, in registration order.
std::vector<std::unique_ptr<ConnectorFactory>> BuiltinConnectorFactories();

// The external catalog types CREATE CATALOG offers besides 'generic_in_memory' (shared, stateless).
std::vector<const ExternalCatalogFactory*> BuiltinCatalogFactories();

}  // namespace sluice
