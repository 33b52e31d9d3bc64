#!/usr/bin/env bash
# ctest interop.parquet_read: writes the pyarrow fixtures (parquet_read_fixtures.py) with the interop
# venv's python and runs the Parquet reader's interop tests on them, and on the Parquet files of
# ../shared/iceberg-vectors when that directory exists.
# Usage: parquet_read_test.sh FORMATS_TEST SOURCE_DIR WORK_DIR
set -euo pipefail
formats_test="$1"; src="$2"; work="$3"
python="$("$src/scripts/install-python.sh")"
rm -rf "$work"
mkdir -p "$work"
"$python" "$src/tests/interop/parquet_read_fixtures.py" "$work"
vectors="${SLUICE_ICEBERG_VECTORS:-$src/../shared/iceberg-vectors}"
if [ -d "$vectors" ]; then export SLUICE_ICEBERG_VECTORS="$vectors"; fi
SLUICE_PARQUET_FIXTURES="$work" exec "$formats_test" --gtest_brief=1 --gtest_filter='ParquetRead*'
