#!/usr/bin/env bash
# Creates .venv (the interop tests' Python: pyarrow, PyIceberg, DuckDB, fastavro as independent
# readers, pinned in tests/interop/requirements.txt) and installs what is missing. Idempotent: a venv
# whose installed set already matches the requirements is left alone. Prints the venv's python path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${SLUICE_VENV:-$root/.venv}"
req="$root/tests/interop/requirements.txt"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "install-python: installing $(grep -c '==' "$req") pinned packages into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$req" >&2
  echo "$want" > "$stamp"
fi
echo "$venv/bin/python"
