#!/usr/bin/env bash
# Hostile CLI input ends with one clear error naming the place, never a hang or a silent exit 0
# (issue 15): a FIFO as a filesystem source path, a script path that is a directory, and -e with no
# statement in it. Usage: cli_errors_test.sh SLUICE WORK_DIR
set -u
sluice=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
failures=0

# expect CODE SUBSTRING -- ARGS...: sluice ARGS must exit with CODE and print SUBSTRING on stderr.
expect() {
  local code=$1 want=$2
  shift 3
  local err rc
  err=$(timeout 20 "$sluice" "$@" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -ne $code || "$err" != *"$want"* ]]; then
    echo "FAIL: sluice $* -> exit $rc (want $code), stderr: $err (want: $want)"
    failures=$((failures + 1))
  fi
}

mkfifo "$work/fifo"
expect 1 "path '$work/fifo' is not a regular file or a directory (a FIFO)" -- run -e \
  "CREATE TABLE f (a STRING) WITH ('connector'='filesystem','path'='$work/fifo','format'='csv'); SELECT * FROM f"
expect 1 "script '$work' is a directory" -- run "$work"
expect 1 "script '$work' is a directory" -- run -i "$work" -e "SELECT 1"
expect 2 "the SQL given to -e is empty" -- run -e ""
expect 2 "the SQL given to -e is empty" -- run -e "  -- only a comment
  /* and another */ "
expect 2 "the SQL given to -e is empty" -- explain -e " "
expect 2 "give either a script FILE or -e" -- run

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "cli errors: ok"
