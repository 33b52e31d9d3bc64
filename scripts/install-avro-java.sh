#!/usr/bin/env bash
# Fetches Apache Avro's Java library (pinned in tests/interop/avro/pom.xml) from Maven Central into
# .java-deps/avro/ (gitignored) for tests/interop/avro/AvroRegistryCheck.java. Idempotent: a directory
# whose stamp matches the pom is left alone. Needs java 17+ and mvn. Prints the directory of the jars.
#
# Apicurio Registry 3.3.3 itself is not installed: io.apicurio:apicurio-registry-app:3.3.3 is a plain
# jar that needs a Quarkus build over its dependencies, and Maven Central serves none of
# apicurio-registry-schema-util-provider, -schema-util-common, -schema-util-avro, -contracts-rules,
# -config-definitions, -config-index, -utils-import-export or -protobuf-schema-utilities at 3.3.3 (nor
# schema-util-provider at 2.6.13.Final), so the tests use tests/interop/confluent_registry.py
# (docs/formats.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pom="$root/tests/interop/avro/pom.xml"
out="${SLUICE_JAVA_DEPS:-$root/.java-deps}/avro"
stamp="$out/.pom.sha256"
want="$(sha256sum "$pom" | cut -d' ' -f1)"
for tool in java javac mvn; do
  command -v "$tool" >/dev/null || { echo "install-avro-java: '$tool' is not installed (apt-get install openjdk-17-jdk-headless maven)" >&2; exit 1; }
done
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "install-avro-java: fetching Avro's classpath into $out" >&2
  rm -rf "$out"
  mkdir -p "$out"
  mvn -B -q -f "$pom" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$out" >&2
  echo "$want" > "$stamp"
fi
echo "$out"
