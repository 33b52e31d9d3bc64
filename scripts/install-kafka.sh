#!/usr/bin/env bash
# Fetches the classpath of Apache Kafka (broker in KRaft mode + CLI tools) from Maven Central with the
# versions pinned in tests/interop/kafka/pom.xml, into .java-deps/kafka/ (gitignored; Maven caches the
# jars in ~/.m2 too). Idempotent: a directory whose stamp matches the pom is left alone. Needs java 17+
# and mvn (Debian's openjdk-17-jre-headless and maven). Prints the directory holding the jars; run a
# tool as `java -cp '<dir>/*' <MainClass>` (see docs/kafka.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pom="$root/tests/interop/kafka/pom.xml"
out="${SLUICE_JAVA_DEPS:-$root/.java-deps}/kafka"
stamp="$out/.pom.sha256"
want="$(sha256sum "$pom" | cut -d' ' -f1)"
for tool in java mvn; do
  command -v "$tool" >/dev/null || { echo "install-kafka: '$tool' is not installed (apt-get install openjdk-17-jre-headless maven)" >&2; exit 1; }
done
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "install-kafka: fetching Kafka's classpath into $out" >&2
  rm -rf "$out"
  mkdir -p "$out"
  mvn -B -q -f "$pom" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$out" >&2
  echo "$want" > "$stamp"
fi
echo "$out"
