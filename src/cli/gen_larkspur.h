// `sluice gen larkspur`: writes the Larkspur replay (examples/larkspur), a seeded, deterministic data
// set with the shape and phenomena of the retail chapter the example retells: basket uploads from the
// tills of 600 stores in GB, IN and SG, re-sends, late uploads from tills that were offline, price
// versions that change during trading days, store time zones, and the ground truth the generator
// knows, so that every number of the example's report can be checked.
//
// Invariants: the output depends only on the options (same seed, same bytes); nothing reads the wall
// clock. Layout under `out_dir` (see examples/larkspur/README.md for every field):
//   pos/upload_date=YYYY-MM-DD/part-N.json   basket events of one UTC upload day, 6 partitions keyed
//                                            by till, each file in upload order (JSON lines)
//   prices/price_changes.json                every price version per (sku, country), by effective_from
//   stores/stores.json                       stores with country, currency and IANA time zone
//   truth/summary.txt                        key=value counts per upload day and business date
//   truth/resends.json, truth/late_baskets.json, truth/prices_charged.json   the lists behind them
//
// Threading: single-threaded; call from one thread.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "common/status.h"

namespace sluice {

struct LarkspurOptions {
  std::string out_dir;
  // UTC upload days written: the replay day 2026-08-15 and the day before it (when days >= 2) and
  // the days after it (when days >= 3).
  int days = 3;
  uint64_t seed = 28;
  // Stores (split evenly over GB, IN and SG); a smaller number makes a small replay for tests.
  int stores = 600;
};

// Writes the replay described above into options.out_dir (created if missing; files it writes are
// replaced, nothing else is touched) and a one-line summary per upload day to `log`.
[[nodiscard]] Status GenerateLarkspur(const LarkspurOptions& options, std::ostream* log);

}  // namespace sluice
