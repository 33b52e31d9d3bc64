#!/usr/bin/env bash
# Runs COMMAND with an S3-compatible server on 127.0.0.1: moto's server mode (`moto_server`, pinned in
# tests/interop/requirements.txt, installed into the venv by scripts/install-python.sh):
#
#   s3_server.sh COMMAND [ARGS...]
#
# The server gets a free port and checks every request's signature (moto's IAM mode: after the first
# three actions, which create an IAM user 'sluice' with an s3:* policy and its access key), so a wrong
# key gets S3's real 403 SignatureDoesNotMatch. COMMAND sees S3_ENDPOINT (http://127.0.0.1:<port>),
# S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (that user's key), SLUICE_PYTHON (the venv's python) and
# S3_SERVER_PID. The server is stopped however COMMAND ends; COMMAND's exit status is returned.
# Readiness is awaited for at most SLUICE_S3_SERVER_START_SECONDS (default 60) seconds.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
python="$(bash "$root/scripts/install-python.sh")"
tmp="$(mktemp -d -t sluice-s3-XXXXXX)"
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
INITIAL_NO_AUTH_ACTION_COUNT=3 "$(dirname "$python")/moto_server" -H 127.0.0.1 -p "$port" >"$tmp/server.log" 2>&1 &
server_pid=$!

deadline=$((SECONDS + ${SLUICE_S3_SERVER_START_SECONDS:-60}))
until curl -s -o /dev/null "http://127.0.0.1:$port/moto-api/"; do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "s3_server: moto_server exited during startup:" >&2
    cat "$tmp/server.log" >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "s3_server: not ready on port $port after ${SLUICE_S3_SERVER_START_SECONDS:-60}s:" >&2
    cat "$tmp/server.log" >&2
    exit 1
  fi
  sleep 0.2
done

# The three unauthenticated actions: a user, its policy, its key (printed as "<id> <secret>").
read -r key_id key_secret < <("$python" - "http://127.0.0.1:$port" <<'PY'
import sys, boto3
iam = boto3.client("iam", endpoint_url=sys.argv[1], region_name="us-east-1",
                   aws_access_key_id="setup", aws_secret_access_key="setup")
iam.create_user(UserName="sluice")
iam.put_user_policy(UserName="sluice", PolicyName="s3", PolicyDocument=
    '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}')
key = iam.create_access_key(UserName="sluice")["AccessKey"]
print(key["AccessKeyId"], key["SecretAccessKey"])
PY
)

status=0
S3_ENDPOINT="http://127.0.0.1:$port" S3_ACCESS_KEY_ID="$key_id" S3_SECRET_ACCESS_KEY="$key_secret" \
  SLUICE_PYTHON="$python" S3_SERVER_PID="$server_pid" "$@" || status=$?
if [ "$status" -ne 0 ] && [ -s "$tmp/server.log" ]; then
  echo "s3_server: server log (tail):" >&2
  tail -30 "$tmp/server.log" >&2
fi
exit "$status"
