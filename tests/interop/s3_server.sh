#!/usr/bin/env bash
# Runs COMMAND with an S3-compatible server on 127.0.0.1: moto's server mode (`moto_server`, pinned in
# tests/interop/requirements.txt, installed into the venv by scripts/install-python.sh):
#
#   s3_server.sh COMMAND [ARGS...]
#
# The server gets a free port and checks every request's signature (moto's IAM mode: after the first
# three actions, which create an IAM user 'sluice' allowed every action, and its access key), so a wrong
# key gets S3's real 403 SignatureDoesNotMatch. COMMAND sees S3_ENDPOINT (http://127.0.0.1:<port>),
# S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (that user's key), SLUICE_PYTHON (the venv's python) and
# S3_SERVER_PID. The server is stopped however COMMAND ends; COMMAND's exit status is returned.
# Readiness is awaited for at most SLUICE_S3_SERVER_START_SECONDS (default 60) seconds.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tests/interop/service.sh"
python="$(bash "$root/scripts/install-python.sh")"
service_init s3_server
port="$(service_free_port)"
INITIAL_NO_AUTH_ACTION_COUNT=3 service_start "$(dirname "$python")/moto_server" -H 127.0.0.1 -p "$port"
service_wait "${SLUICE_S3_SERVER_START_SECONDS:-60}" curl -s -o /dev/null "http://127.0.0.1:$port/moto-api/"

# The three unauthenticated actions: a user, its policy, its key (printed as "<id> <secret>"). The
# user may do anything (S3, and IAM and STS for tests/interop/polaris_standin.py's vended credentials).
read -r key_id key_secret < <("$python" - "http://127.0.0.1:$port" <<'PY'
import sys, boto3
iam = boto3.client("iam", endpoint_url=sys.argv[1], region_name="us-east-1",
                   aws_access_key_id="setup", aws_secret_access_key="setup")
iam.create_user(UserName="sluice")
iam.put_user_policy(UserName="sluice", PolicyName="all", PolicyDocument=
    '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}')
key = iam.create_access_key(UserName="sluice")["AccessKey"]
print(key["AccessKeyId"], key["SecretAccessKey"])
PY
)

S3_ENDPOINT="http://127.0.0.1:$port" S3_ACCESS_KEY_ID="$key_id" S3_SECRET_ACCESS_KEY="$key_secret" \
  SLUICE_PYTHON="$python" S3_SERVER_PID="$service_pid" service_run "$@"
