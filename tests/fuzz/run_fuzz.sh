#!/usr/bin/env bash
# Runs one libFuzzer target for a set time and prints what it did (tests/fuzz/README.md).
#
#   run_fuzz.sh BINARY TARGET SECONDS WORK_DIR
#
# The corpus lives in WORK_DIR/corpus/TARGET (kept between runs, so longer runs build on shorter
# ones): the committed seeds (tests/fuzz/corpus/TARGET), the seeds generated from the tests
# (make_seeds.py; the checkpoint target writes its own) and what the fuzzer adds. One process, one
# job (-jobs is not used: the machine's cores are shared). A crash, sanitizer report, leak, timeout
# or out-of-memory leaves its input in WORK_DIR/artifacts/TARGET/ and fails the run; reproduce it
# with `BINARY ARTIFACT`.
set -euo pipefail
binary=$1 target=$2 seconds=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
corpus=$work/corpus/$target
artifacts=$work/artifacts/$target
mkdir -p "$corpus" "$artifacts"
if [ -d "$here/corpus/$target" ]; then cp -n "$here/corpus/$target"/* "$corpus"/ 2>/dev/null || true; fi
if [ "$target" = checkpoint ] || [ "$target" = avro ] || [ "$target" = iceberg_metadata ]; then
  SLUICE_FUZZ_WRITE_SEEDS=$corpus "$binary" >/dev/null 2>&1
else
  python3 "$here/make_seeds.py" "$target" "$corpus"
fi
flags=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1
       -artifact_prefix="$artifacts/" -close_fd_mask=1)
case $target in
  sql) flags+=(-max_len=16384 -dict="$here/sql.dict") ;;
  checkpoint|avro|iceberg_metadata) flags+=(-max_len=65536) ;;
  *) flags+=(-max_len=16384) ;;
esac
log=$work/$target.log
# Leaks are reported by libFuzzer too (at exit of an input that leaked).
set +e
start=$SECONDS
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  "$binary" "${flags[@]}" "$corpus" >"$log" 2>&1
rc=$?
elapsed=$((SECONDS - start))
set -e
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
units=$(ls "$corpus" | wc -l)
if [ $rc -ne 0 ]; then
  tail -n 60 "$log"
  echo "fuzz $target: FAILED (exit $rc) after ${runs:-?} executions; input saved in $artifacts/ (log: $log)"
  exit 1
fi
# The time includes the first pass over the corpus, which may exceed SECONDS for a large one.
echo "fuzz $target: ${runs:-?} executions in ${elapsed} s (${speed:-?} exec/s) without a crash; corpus $units inputs"
