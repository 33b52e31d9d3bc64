#!/usr/bin/env bash
# Fetches Apache Flink 2.2.1's Table API, planner (loader), runtime, MiniCluster (flink-clients), the
# filesystem connector and the json/csv formats from Maven Central with the versions pinned in
# tests/flink/runner/pom.xml into .java-deps/flink/lib, and compiles the Flink runner
# (tests/flink/runner/src/**/*.java, see docs/flink.md) with javac into .java-deps/flink/classes.
# Idempotent: a directory whose stamp matches the pom and the sources is left alone. Maven runs under
# the machine-wide lock /work/.mvn.lock when it exists (one mvn at a time on a shared ~/.m2).
# Needs java 17+, javac and mvn (Debian's openjdk-17-jdk-headless and maven). Prints the directory;
# run the runner as `java -cp '<dir>/lib/*:<dir>/classes' sluice.flink.FlinkRunner ...`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runner="$root/tests/flink/runner"
pom="$runner/pom.xml"
out="${SLUICE_JAVA_DEPS:-$root/.java-deps}/flink"
stamp="$out/.pom.sha256"
mapfile -t sources < <(find "$runner/src" -type f | LC_ALL=C sort)
want="$(cat "$pom" "${sources[@]}" | sha256sum | cut -d' ' -f1)"
for tool in java javac mvn; do
  command -v "$tool" >/dev/null || { echo "install-flink: '$tool' is not installed (apt-get install openjdk-17-jdk-headless maven)" >&2; exit 1; }
done
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "install-flink: fetching Flink's classpath into $out/lib and compiling the runner" >&2
  rm -rf "$out"
  mkdir -p "$out/lib" "$out/classes"
  lock=()
  if [ -d /work ] && touch /work/.mvn.lock 2>/dev/null && command -v flock >/dev/null; then lock=(flock /work/.mvn.lock); fi
  "${lock[@]}" mvn -B -q -f "$pom" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$out/lib" >&2
  java_sources=()
  for f in "${sources[@]}"; do
    case "$f" in
      *.java) java_sources+=("$f") ;;
      *) rel="${f#"$runner/src/"}"; mkdir -p "$out/classes/$(dirname "$rel")"; cp "$f" "$out/classes/$rel" ;;
    esac
  done
  javac -nowarn -encoding UTF-8 -d "$out/classes" -cp "$out/lib/*" "${java_sources[@]}" >&2
  echo "$want" > "$stamp"
fi
echo "$out"
