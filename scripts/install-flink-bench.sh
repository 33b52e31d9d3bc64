#!/usr/bin/env bash
# Compiles the Flink side of `make bench-flink` (bench/flink/src: the 'nexmark' connector for Flink
# and its generator, FlinkBench, NexmarkEvents; docs/performance.md) with javac into
# .java-deps/flink-bench/classes, against Flink 2.2.1's classpath and the Flink runner that
# scripts/install-flink.sh installs (pinned in tests/flink/runner/pom.xml). Idempotent: up-to-date
# classes are left alone. Prints the classpath to run them with:
#   java -cp "$(scripts/install-flink-bench.sh)" sluice.flink.FlinkBench ...
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
flink="$(bash "$root/scripts/install-flink.sh")"
src="$root/bench/flink/src"
out="${SLUICE_JAVA_DEPS:-$root/.java-deps}/flink-bench"
stamp="$out/.sources.sha256"
mapfile -t sources < <(find "$src" -type f | LC_ALL=C sort)
want="$( (cat "$flink/.pom.sha256" "${sources[@]}") | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "install-flink-bench: compiling bench/flink into $out/classes" >&2
  rm -rf "$out"
  mkdir -p "$out/classes"
  java_sources=()
  for f in "${sources[@]}"; do
    case "$f" in
      *.java) java_sources+=("$f") ;;
      *) rel="${f#"$src/"}"; mkdir -p "$out/classes/$(dirname "$rel")"; cp "$f" "$out/classes/$rel" ;;
    esac
  done
  javac -nowarn -encoding UTF-8 -d "$out/classes" -cp "$flink/lib/*:$flink/classes" "${java_sources[@]}" >&2
  echo "$want" > "$stamp"
fi
echo "$flink/lib/*:$flink/classes:$out/classes"
