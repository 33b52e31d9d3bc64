#!/usr/bin/env bash
# Runs COMMAND with Iceberg's REST catalog test server (org.apache.iceberg.rest.RESTCatalogServer,
# fetched by scripts/install-java-deps.sh) serving a fresh local warehouse:
#
#   rest_catalog_server.sh COMMAND [ARGS...]
#
# The server gets a free port and a temporary directory (warehouse + its JDBC sqlite catalog); COMMAND
# sees ICEBERG_REST_URI (http://127.0.0.1:<port>) and ICEBERG_REST_WAREHOUSE (file:///...). The server
# is stopped (and the directory removed) however COMMAND ends; COMMAND's exit status is returned.
# Readiness is awaited for at most SLUICE_REST_SERVER_START_SECONDS (default 120) seconds.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cp_dir="$(bash "$root/scripts/install-java-deps.sh")"
tmp="$(mktemp -d -t sluice-rest-XXXXXX)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$tmp/warehouse"
# RESTCatalogServer reads CATALOG_* variables as catalog properties ('_' -> '.', '__' -> '-').
(cd "$tmp" && exec env CATALOG_WAREHOUSE="file://$tmp/warehouse" CATALOG_URI="jdbc:sqlite:$tmp/catalog.db" \
   CATALOG_JDBC_USER=user CATALOG_JDBC_PASSWORD=password CATALOG_REST_PORT="$port" \
   java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$cp_dir/*" org.apache.iceberg.rest.RESTCatalogServer \
   >"$tmp/server.log" 2>&1) &
server_pid=$!

deadline=$((SECONDS + ${SLUICE_REST_SERVER_START_SECONDS:-120}))
until curl -sf -o /dev/null "http://127.0.0.1:$port/v1/config"; do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "rest_catalog_server: the server exited during startup:" >&2
    cat "$tmp/server.log" >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "rest_catalog_server: not ready on port $port after ${SLUICE_REST_SERVER_START_SECONDS:-120}s:" >&2
    cat "$tmp/server.log" >&2
    exit 1
  fi
  sleep 0.2
done

status=0
ICEBERG_REST_URI="http://127.0.0.1:$port" ICEBERG_REST_WAREHOUSE="file://$tmp/warehouse" "$@" || status=$?
if [ "$status" -ne 0 ] && [ -s "$tmp/server.log" ]; then
  echo "rest_catalog_server: server log:" >&2
  tail -50 "$tmp/server.log" >&2
fi
exit "$status"
