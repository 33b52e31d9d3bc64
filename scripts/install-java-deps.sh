#!/usr/bin/env bash
# Fetches the Java classpaths the interop tests run, from Maven Central with the versions pinned in the
# poms under tests/interop/java/, into .java-deps/ (gitignored; Maven caches the jars in ~/.m2 too):
#
#   install-java-deps.sh [rest-catalog]   Iceberg's REST catalog test server (RESTCatalogServer from the
#                                         iceberg-open-api test fixtures, the server of the
#                                         apache/iceberg-rest-fixture image; tests/interop/java/rest-catalog/pom.xml)
#   install-java-deps.sh reference        the Java reference reader/writer (iceberg-core/-data/-parquet,
#                                         tests/interop/java/pom.xml): jars in <dir>/lib, and the
#                                         tests/interop/java/Iceberg*.java programs compiled by javac into <dir>/classes
#
# Idempotent: a directory whose stamp matches the pom (and the sources) is left alone. Needs java and
# mvn (Debian's openjdk-17-jdk-headless and maven). Prints the directory holding the jars.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
what="${1:-rest-catalog}"
java_dir="$root/tests/interop/java"
case "$what" in
  rest-catalog) pom="$java_dir/rest-catalog/pom.xml"; sources=() ;;
  reference) pom="$java_dir/pom.xml"; sources=("$java_dir"/Iceberg{Json,Files,ReadTable,WriteTable}.java) ;;
  *) echo "install-java-deps: unknown classpath '$what' (rest-catalog or reference)" >&2; exit 2 ;;
esac
out="${SLUICE_JAVA_DEPS:-$root/.java-deps}/$what"
stamp="$out/.pom.sha256"
want="$(cat "$pom" "${sources[@]}" | sha256sum | cut -d' ' -f1)"
tools=(java mvn)
[ "${#sources[@]}" -eq 0 ] || tools+=(javac)
for tool in "${tools[@]}"; do
  command -v "$tool" >/dev/null || { echo "install-java-deps: '$tool' is not installed (apt-get install openjdk-17-jdk-headless maven)" >&2; exit 1; }
done
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "install-java-deps: fetching the $what classpath into $out" >&2
  rm -rf "$out"
  mkdir -p "$out"
  if [ "${#sources[@]}" -eq 0 ]; then
    mvn -B -q -f "$pom" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$out" >&2
  else
    mvn -B -q -f "$pom" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$out/lib" >&2
    javac -nowarn -d "$out/classes" -cp "$out/lib/*" "${sources[@]}" >&2
  fi
  echo "$want" > "$stamp"
fi
echo "$out"
