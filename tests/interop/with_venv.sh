#!/usr/bin/env bash
# Runs a Python script of tests/interop with the interop venv (scripts/install-python.sh creates it
# on first use): with_venv.sh SCRIPT.py [ARGS...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
py="$(bash "$root/scripts/install-python.sh")"
exec "$py" "$@"
