#!/usr/bin/env bash
# Shared start/wait/stop logic of the interop tests' service wrappers (s3_server.sh,
# rest_catalog_server.sh, polaris_server.sh), sourced by them:
#
#   source "$(dirname "$0")/service.sh"
#   service_init NAME                      # $service_tmp: a fresh directory, removed on exit
#   port="$(service_free_port)"
#   service_start CMD [ARGS...]            # in the background, output to $service_tmp/server.log
#   service_wait SECONDS CHECK [ARGS...]   # until CHECK succeeds; fails (with the log) when the server
#                                          # exits or SECONDS pass
#   service_run CMD [ARGS...]              # runs the wrapped command; on failure prints the log's tail;
#                                          # exits with the command's status
#
# The server is stopped (SIGTERM, then waited for) however the wrapper ends.
service_name=""
service_tmp=""
service_pid=""

service_cleanup() {
  if [ -n "$service_pid" ] && kill -0 "$service_pid" 2>/dev/null; then
    kill "$service_pid" 2>/dev/null || true
    wait "$service_pid" 2>/dev/null || true
  fi
  [ -z "$service_tmp" ] || rm -rf "$service_tmp"
}

service_init() {
  service_name="$1"
  service_tmp="$(mktemp -d -t "sluice-$1-XXXXXX")"
  trap service_cleanup EXIT INT TERM
}

service_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

service_start() {
  "$@" >"$service_tmp/server.log" 2>&1 &
  service_pid=$!
}

service_wait() {
  local seconds="$1"
  shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if ! kill -0 "$service_pid" 2>/dev/null; then
      echo "$service_name: the server exited during startup:" >&2
      cat "$service_tmp/server.log" >&2
      exit 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "$service_name: not ready after ${seconds}s:" >&2
      cat "$service_tmp/server.log" >&2
      exit 1
    fi
    sleep 0.2
  done
}

service_run() {
  local status=0
  "$@" || status=$?
  if [ "$status" -ne 0 ] && [ -s "$service_tmp/server.log" ]; then
    echo "$service_name: server log (tail):" >&2
    tail -50 "$service_tmp/server.log" >&2
  fi
  exit "$status"
}
