#!/usr/bin/env python3
"""MATCH_RECOGNIZE with ambiguous patterns (the program matcher, runtime/operators/match_program.h) at
growing row counts: the CPU time of each should grow linearly with the rows (docs/performance.md,
*MATCH_RECOGNIZE thread merging*).

Each query runs over `datagen` rows v = 1..N in 4 partitions (MOD(v, 4)), ordered by processing time,
a 'c' row every 50 rows of a partition and 'x' rows between, and counts its matches:
  free  PATTERN ((A | B)+ C), DEFINEs reading only the row they classify (A and B take every 'x'):
        merged across attempts, a few threads per partition (without it: an attempt per row);
  last  PATTERN ((A | B)* C) with C AS ... v - LAST(A.v) >= 3: threads told apart by the last A row
        only (without it: by every subset of rows mapped to A, 2^n).
Prints per query and size the CPU seconds (user + sys of the whole process, best of REPS) and the
ratio to the previous size (2.0 is linear). With a BASELINE binary (e.g. a build before the merging)
its runs are shown too, each stopped after TIMEOUT seconds.

Usage: thread_scaling.py SLUICE [SIZES=50000,100000,200000] [REPS=3] [BASELINE] [TIMEOUT=60]
"""
import os
import resource
import subprocess
import sys
import tempfile

QUERIES = {
    "free": ("AFTER MATCH SKIP PAST LAST ROW PATTERN ((A | B)+ C) "
             "DEFINE A AS c = 'x', B AS c = 'x', C AS c = 'c'"),
    "last": ("AFTER MATCH SKIP PAST LAST ROW PATTERN ((A | B)* C) "
             "DEFINE A AS c = 'x', B AS c = 'x', C AS c = 'c' AND v - LAST(A.v) >= 3"),
}


def script(rows, query):
    return f"""
CREATE TABLE g (v BIGINT, proc AS PROCTIME()) WITH ('connector' = 'datagen', 'number-of-rows' = '{rows}',
  'rows-per-second' = '1000000000', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '{rows}');
CREATE VIEW t AS SELECT MOD(v, 4) AS k, v, CASE WHEN MOD(v, 200) < 4 THEN 'c' ELSE 'x' END AS c, proc FROM g;
SELECT COUNT(*) AS n_matches, SUM(n) AS matched_rows FROM t MATCH_RECOGNIZE (PARTITION BY k ORDER BY proc
  MEASURES COUNT(*) AS n {QUERIES[query]});
"""


def cpu_seconds(binary, path, timeout):
    """CPU seconds of one run and its result line, or (None, 'timeout')."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run([binary, "run", "--mode", "table", "--format", "csv", path], capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"{binary} failed: {p.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, p.stdout.strip().splitlines()[-1]


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sluice = sys.argv[1]
    sizes = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "50000,100000,200000").split(",")]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    baseline = sys.argv[4] if len(sys.argv) > 4 else None
    timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 60
    binaries = [("sluice", sluice)] + ([("baseline", baseline)] if baseline else [])
    print("| query | binary | rows | CPU s | ratio to previous size | result (matches, matched rows) |")
    print("|---|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for query in QUERIES:
            for name, binary in binaries:
                previous = None
                for rows in sizes:
                    path = os.path.join(tmp, f"{query}_{rows}.sql")
                    with open(path, "w") as f:
                        f.write(script(rows, query))
                    best, result = None, ""
                    for _ in range(reps):
                        cpu, result = cpu_seconds(binary, path, timeout)
                        if cpu is None:
                            break
                        best = cpu if best is None else min(best, cpu)
                    ratio = f"{best / previous:.2f}" if best and previous else ""
                    shown = f"{best:.3f}" if best is not None else f">{timeout:.0f} (stopped)"
                    print(f"| {query} | {name} | {rows} | {shown} | {ratio} | {result} |", flush=True)
                    previous = best
                    if best is None:
                        break


if __name__ == "__main__":
    main()
