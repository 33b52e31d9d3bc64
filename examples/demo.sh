#!/usr/bin/env bash
# make demo: runs the example pipeline on embedded defaults (files in; console and files out).
set -euo pipefail
SLUICE=${1:-build/sluice}
cd "$(dirname "$0")/.."
rm -rf build/demo-out
echo "== examples/quickstart/pipeline.sql"
"$SLUICE" run examples/quickstart/pipeline.sql
echo
echo "== build/demo-out/sales_lines (JSON lines written by the filesystem sink)"
cat build/demo-out/sales_lines/*
