#!/usr/bin/env bash
# Runs COMMAND with a Polaris stand-in (tests/interop/polaris_standin.py: OAuth2 principals, Polaris's
# privileges and error wording, vended per-table storage credentials) in front of Iceberg's REST catalog
# server (rest_catalog_server.sh) whose warehouse is in s3:// on moto's S3 server (s3_server.sh):
#
#   polaris_server.sh COMMAND [ARGS...]
#
# Starts whichever of the two servers is not already running around it (so it nests inside
# s3_server.sh / rest_catalog_server.sh or stands alone). COMMAND sees POLARIS_URI
# (http://127.0.0.1:<port>/api/catalog, the REST catalog's uri), POLARIS_MANAGEMENT_URI
# (.../api/management/v1), POLARIS_ROOT_CREDENTIAL ('root:<secret>', a fresh secret per run),
# POLARIS_WAREHOUSE_LOCATION (the s3:// location a catalog's 'default-base-location' must name), and
# the servers' variables. POLARIS_TOKEN_TTL_SECONDS / POLARIS_VENDED_TTL_SECONDS (default 3600) set the
# life of tokens and vended credentials. Everything is stopped however COMMAND ends; COMMAND's exit
# status is returned. Readiness is awaited for at most SLUICE_POLARIS_START_SECONDS (default 30) seconds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ -z "${S3_ENDPOINT:-}" ]; then
  exec bash "$here/s3_server.sh" bash "$here/polaris_server.sh" "$@"
fi
if [ -z "${ICEBERG_REST_URI:-}" ]; then
  REST_CATALOG_WAREHOUSE="${POLARIS_WAREHOUSE_LOCATION:-s3://polaris/warehouse}" \
    exec bash "$here/rest_catalog_server.sh" bash "$here/polaris_server.sh" "$@"
fi
source "$here/service.sh"
service_init polaris_server
port="$(service_free_port)"
secret="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
POLARIS_PORT="$port" POLARIS_ROOT_CLIENT_ID=root POLARIS_ROOT_CLIENT_SECRET="$secret" \
  service_start python3 "$here/polaris_standin.py"
service_wait "${SLUICE_POLARIS_START_SECONDS:-30}" curl -sf -o /dev/null "http://127.0.0.1:$port/q/health"

POLARIS_URI="http://127.0.0.1:$port/api/catalog" POLARIS_MANAGEMENT_URI="http://127.0.0.1:$port/api/management/v1" \
  POLARIS_ROOT_CREDENTIAL="root:$secret" POLARIS_WAREHOUSE_LOCATION="$ICEBERG_REST_WAREHOUSE" \
  POLARIS_STATS_URI="http://127.0.0.1:$port/standin/stats" service_run "$@"
