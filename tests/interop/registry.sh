#!/usr/bin/env bash
# Runs COMMAND next to a schema registry with the Confluent-compatible REST API, in memory, on a free
# 127.0.0.1 port:
#
#   registry.sh COMMAND [ARGS...]
#
# The registry is tests/interop/confluent_registry.py (Apicurio Registry 3.3.3 cannot be assembled from
# Maven Central: docs/formats.md). COMMAND sees SLUICE_REGISTRY_URL (http://127.0.0.1:<port>) and, with
# SLUICE_REGISTRY_AUTH=user:password set, the registry demands that basic authorization. Readiness
# (GET /subjects answered) is awaited for at most 30 seconds; the registry is stopped however COMMAND
# ends, and COMMAND's exit status is returned.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT INT TERM
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 "$here/confluent_registry.py" "$port" ${SLUICE_REGISTRY_AUTH:+"$SLUICE_REGISTRY_AUTH"} &
pid=$!
url="http://127.0.0.1:$port"
auth=()
[ -n "${SLUICE_REGISTRY_AUTH:-}" ] && auth=(-u "$SLUICE_REGISTRY_AUTH")
for _ in $(seq 1 150); do
  if curl -sf "${auth[@]}" "$url/subjects" >/dev/null 2>&1; then break; fi
  kill -0 "$pid" 2>/dev/null || { echo "registry.sh: the registry exited" >&2; exit 1; }
  sleep 0.2
done
curl -sf "${auth[@]}" "$url/subjects" >/dev/null || { echo "registry.sh: no answer from $url after 30 s" >&2; exit 1; }
export SLUICE_REGISTRY_URL="$url"
set +e
"$@"
status=$?
set -e
exit $status
