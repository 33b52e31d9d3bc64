#!/usr/bin/env bash
# Runs COMMAND with Iceberg's REST catalog test server (org.apache.iceberg.rest.RESTCatalogServer,
# fetched by scripts/install-java-deps.sh) serving a fresh warehouse:
#
#   rest_catalog_server.sh COMMAND [ARGS...]
#
# The server gets a free port and a temporary directory (its JDBC sqlite catalog, and the warehouse);
# COMMAND sees ICEBERG_REST_URI (http://127.0.0.1:<port>) and ICEBERG_REST_WAREHOUSE (file:///...).
# With REST_CATALOG_WAREHOUSE=s3://bucket/path (under tests/interop/s3_server.sh, whose S3_ENDPOINT and
# key the server then uses through Iceberg's S3FileIO) the warehouse is there instead; the bucket must
# exist before a table is created. The server is stopped (and the directory removed) however COMMAND
# ends; COMMAND's exit status is returned. Readiness is awaited for at most
# SLUICE_REST_SERVER_START_SECONDS (default 120) seconds.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tests/interop/service.sh"
cp_dir="$(bash "$root/scripts/install-java-deps.sh")"
service_init rest_catalog_server
port="$(service_free_port)"
warehouse="${REST_CATALOG_WAREHOUSE:-file://$service_tmp/warehouse}"
# RESTCatalogServer reads CATALOG_* variables as catalog properties ('_' -> '.', '__' -> '-').
props=(CATALOG_WAREHOUSE="$warehouse" CATALOG_URI="jdbc:sqlite:$service_tmp/catalog.db"
       CATALOG_JDBC_USER=user CATALOG_JDBC_PASSWORD=password CATALOG_REST_PORT="$port")
case "$warehouse" in
  s3://*)
    props+=(CATALOG_IO__IMPL=org.apache.iceberg.aws.s3.S3FileIO CATALOG_S3_ENDPOINT="$S3_ENDPOINT"
            CATALOG_S3_PATH__STYLE__ACCESS=true CATALOG_S3_ACCESS__KEY__ID="$S3_ACCESS_KEY_ID"
            CATALOG_S3_SECRET__ACCESS__KEY="$S3_SECRET_ACCESS_KEY" CATALOG_CLIENT_REGION=us-east-1)
    ;;
  *) mkdir -p "$service_tmp/warehouse" ;;
esac
service_start env -C "$service_tmp" "${props[@]}" \
  java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$cp_dir/*" org.apache.iceberg.rest.RESTCatalogServer
service_wait "${SLUICE_REST_SERVER_START_SECONDS:-120}" curl -sf -o /dev/null "http://127.0.0.1:$port/v1/config"

ICEBERG_REST_URI="http://127.0.0.1:$port" ICEBERG_REST_WAREHOUSE="$warehouse" service_run "$@"
