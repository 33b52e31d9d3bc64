// The 'nexmark' connector: Nexmark's event generator as a source table, with the option keys of the
// nexmark/nexmark repository's Flink connector (NexmarkSourceOptions):
//   'first-event.rate' (INT, events/s, sets the event-time spacing), 'next-event.rate',
//   'events.num' (LONG, 0 = unbounded), 'person.proportion' / 'auction.proportion' /
//   'bid.proportion', 'bid.hot-ratio.auctions', 'bid.hot-ratio.bidders',
//   'auction.hot-ratio.sellers', 'person.avg-size' / 'auction.avg-size' / 'bid.avg-size' (memory
//   sizes, pad the 'extra' field), 'rate.shape', 'rate.period', 'rate.limited', 'keep-alive',
//   'stop-at', 'max-emit-speed' (false: emit each event when its time is due on processing time).
// Sluice additions, so runs repeat: 'sluice.seed' (LONG, default 0) seeds the generator and
// 'sluice.base-time' (epoch milliseconds or 'yyyy-MM-dd HH:mm:ss[.SSS]' UTC, default
// 2026-01-01 00:00:00) is the event time of the stream's start (Flink's connector uses "now").
//
// The table's physical columns must be (a subset of) Nexmark's DDL columns: event_type INT and the
// ROW columns person, auction, bid with (a subset of) their fields; see nexmark_generator.h. One
// split (Flink's generator with parallelism 1). Bounded when 'events.num' > 0 or 'stop-at' >= 0,
// unless 'keep-alive' is true (then the split stays open and idle after its last event). Its
// checkpoint position is the event number and the generator's random state, so a restore continues
// in O(1) with the events (and timestamps) an uninterrupted run generates.
//
// Threading: the factory is stateless; each split is read by one thread.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "connectors/connector.h"
#include "connectors/datagen/generator_timing.h"
#include "connectors/nexmark/nexmark_generator.h"

namespace sluice {

std::unique_ptr<ConnectorFactory> MakeNexmarkConnectorFactory();
// With an injected clock and sleep (tests; see generator_timing.h).
std::unique_ptr<ConnectorFactory> MakeNexmarkConnectorFactory(GeneratorTiming timing);

// The generator settings from a table's WITH options; a bad value is an error naming the table and
// key. (Unknown keys are rejected by CreateSource, through ValidateConnectorOptions.)
Result<NexmarkConfig> ParseNexmarkOptions(const std::string& table, const std::map<std::string, std::string>& options);

}  // namespace sluice
