#!/usr/bin/env bash
# Fetches the Java classpath of Iceberg's REST catalog test server (RESTCatalogServer from the
# iceberg-open-api test fixtures, the server of the apache/iceberg-rest-fixture image) from Maven
# Central with the versions pinned in tests/interop/java/rest-catalog/pom.xml, into .java-deps/
# (gitignored; Maven caches the jars in ~/.m2 too). Idempotent: a directory whose stamp matches the
# pom is left alone. Needs java and mvn (Debian's openjdk-17-jre-headless and maven). Prints the
# directory holding the jars.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pom="$root/tests/interop/java/rest-catalog/pom.xml"
out="${SLUICE_JAVA_DEPS:-$root/.java-deps}/rest-catalog"
stamp="$out/.pom.sha256"
want="$(sha256sum "$pom" | cut -d' ' -f1)"
for tool in java mvn; do
  command -v "$tool" >/dev/null || { echo "install-java-deps: '$tool' is not installed (apt-get install openjdk-17-jre-headless maven)" >&2; exit 1; }
done
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "install-java-deps: fetching the REST catalog server's classpath into $out" >&2
  rm -rf "$out"
  mkdir -p "$out"
  mvn -B -q -f "$pom" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$out" >&2
  echo "$want" > "$stamp"
fi
echo "$out"
