// The 'blackhole' connector (Flink's): a sink that accepts every kind of change and discards it.
// Benchmarks use it to measure a pipeline without output cost; the runtime counts the rows.
//
// Threading: the writer keeps no state.
#pragma once

#include <memory>

#include "connectors/connector.h"

namespace sluice {

std::unique_ptr<ConnectorFactory> MakeBlackholeConnectorFactory();

}  // namespace sluice
