#!/usr/bin/env bash
# Proves that Sluice's Nexmark generator (C++) and the Java one of the Flink benchmark generate the
# same events: both print their first N events as text (bench/nexmark/nexmark_events.cc,
# bench/flink/src/sluice/flink/nexmark/NexmarkEvents.java: one tab-separated line per person, auction
# or bid) and the two SHA-256 are printed and compared; on a difference the first differing line of
# each is shown. Extra arguments are connector options (key=value), given to both.
#
# Usage: bash bench/flink/same_events.sh NEXMARK_EVENTS_BINARY [N=10000000] [key=value ...]
# Exits 0 when the hashes are equal.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tool=$1
n=${2:-10000000}
shift $(( $# >= 2 ? 2 : 1 ))
cp="$(bash "$root/scripts/install-flink-bench.sh")"
sluice_hash=$("$tool" "$n" "$@" | sha256sum | cut -d' ' -f1)
java_hash=$(java -Xss4m -cp "$cp" sluice.flink.nexmark.NexmarkEvents "$n" "$@" | sha256sum | cut -d' ' -f1)
echo "first $n events: sluice (C++) sha256 $sluice_hash"
echo "first $n events: flink (Java) sha256 $java_hash"
if [ "$sluice_hash" = "$java_hash" ]; then
  echo "same events"
  exit 0
fi
echo "DIFFERENT events; first difference:"
diff <("$tool" "$n" "$@") <(java -cp "$cp" sluice.flink.nexmark.NexmarkEvents "$n" "$@") | head -n 4 | cut -c1-300
exit 1
