// nexmark_events: prints the first N events of Sluice's Nexmark generator as text, one line per
// event, in the form the Java generator of the Flink benchmark prints them
// (bench/flink/src/sluice/flink/nexmark/NexmarkEvents.java, whose header gives the columns), so
// `| sha256sum` on both sides proves the two generators produce the same events
// (bench/flink/same_events.sh).
//
//   nexmark_events N [key=value ...]     (options of the 'nexmark' connector; events.num defaults to N)
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "common/time_util.h"
#include "connectors/nexmark/nexmark_connector.h"
#include "connectors/nexmark/nexmark_generator.h"
#include "types/schema.h"
#include "types/vector.h"

namespace sluice {
namespace {

void AppendField(const Vector& v, size_t row, bool timestamp, std::string* line) {
  line->push_back('\t');
  if (v.type().IsStringLike()) {
    line->append(v.data<std::string_view>()[row]);
  } else if (timestamp) {
    AppendTimestamp(v.data<int64_t>()[row], 3, line);
  } else {
    line->append(std::to_string(v.data<int64_t>()[row]));
  }
}

int Run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: nexmark_events N [key=value ...]\n");
    return 2;
  }
  const int64_t n = std::strtoll(argv[1], nullptr, 10);
  std::map<std::string, std::string> options;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "nexmark_events: '%s' is not key=value\n", argv[i]);
      return 2;
    }
    options[arg.substr(0, eq)] = arg.substr(eq + 1);
  }
  options.emplace("events.num", std::to_string(n));
  auto config = ParseNexmarkOptions("datagen", options);
  if (!config.ok()) {
    std::fprintf(stderr, "nexmark_events: %s\n", config.status().ToString().c_str());
    return 2;
  }
  NexmarkGenerator generator(*config, NexmarkGenerator::AllColumns());
  const Schema schema = NexmarkGenerator::DdlSchema();
  // Timestamp fields per record column (person, auction, bid) in DDL order.
  const std::vector<std::vector<bool>> is_ts = {{0, 0, 0, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 1, 1, 0, 0, 0},
                                                {0, 0, 0, 0, 0, 1, 0}};
  std::string line;
  int64_t done = 0;
  while (done < n && generator.HasNext()) {
    Chunk chunk(schema);
    const size_t got = generator.Generate(Chunk::kDefaultCapacity, &chunk);
    if (got == 0) break;
    for (size_t r = 0; r < got && done < n; ++r, ++done) {
      const int type = chunk.column(0).data<int32_t>()[r];
      const Vector& record = chunk.column(1 + static_cast<size_t>(type));
      line.clear();
      line.append(std::to_string(type));
      for (size_t f = 0; f < record.num_children(); ++f) {
        AppendField(record.child(f), r, is_ts[static_cast<size_t>(type)][f], &line);
      }
      line.push_back('\n');
      std::fwrite(line.data(), 1, line.size(), stdout);
    }
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Run(argc, argv); }
