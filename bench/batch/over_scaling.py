#!/usr/bin/env python3
"""Batch OVER scaling: a sliding ROWS frame and a RANGE frame over 1x, 2x and 4x rows, in batch mode
('execution.runtime-mode' = 'batch': an OverAggregate over a Sort), written to a blackhole sink. Prints
each time (best of REPS, the whole process), the time of a plain scan into the same sink, and the time
per row of the OVER part (total minus scan), which stays flat when the work is linear (n log n for the
sort and the ordered MIN/MAX counts).

Usage: over_scaling.py SLUICE_BINARY [BASE_ROWS] [REPS]
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

QUERIES = {
    "scan": "INSERT INTO sink SELECT id, k, v, CAST(v AS BIGINT), CAST(v AS BIGINT) FROM t",
    "rows 100 preceding..10 following": (
        "INSERT INTO sink SELECT id, k, v, SUM(v) OVER w, MAX(v) OVER w FROM t "
        "WINDOW w AS (PARTITION BY k ORDER BY id ROWS BETWEEN 100 PRECEDING AND 10 FOLLOWING)"),
    "range 1000 preceding..current row": (
        "INSERT INTO sink SELECT id, k, v, COUNT(*) OVER w, MIN(v) OVER w FROM t "
        "WINDOW w AS (PARTITION BY k ORDER BY v RANGE BETWEEN 1000 PRECEDING AND CURRENT ROW)"),
}


def write_rows(path, rows):
    rnd = random.Random(7)
    with open(path, "w") as f:
        for i in range(rows):
            f.write(json.dumps({"id": i, "k": "k%02d" % rnd.randrange(16), "v": rnd.randrange(1_000_000)}) + "\n")


def best_of(reps, fn):
    best = 1e30
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    binary = sys.argv[1]
    base = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    with tempfile.TemporaryDirectory() as d:
        results = {}
        for mult in (1, 2, 4):
            rows = base * mult
            path = os.path.join(d, "t%d.json" % mult)
            write_rows(path, rows)
            ddl = ("SET 'execution.runtime-mode' = 'batch';\n"
                   "CREATE TABLE t (id BIGINT, k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'json');\n"
                   "CREATE TABLE sink (id BIGINT, k STRING, v INT, a BIGINT, b BIGINT) WITH ('connector' = 'blackhole');\n"
                   % path)
            for name, q in QUERIES.items():
                def run(q=q):
                    out = subprocess.run([binary, "run", "-e", ddl + q + ";"], capture_output=True, text=True)
                    if out.returncode != 0:
                        sys.exit("sluice failed:\n" + out.stderr)
                results[(name, mult)] = best_of(reps, run)
        print("%-36s %6s %10s %10s %14s" % ("query", "rows", "seconds", "minus scan", "ns/row (over)"))
        for name in QUERIES:
            for mult in (1, 2, 4):
                t = results[(name, mult)]
                over = t - results[("scan", mult)]
                print("%-36s %6dk %10.3f %10.3f %14.1f" % (name, base * mult // 1000, t, over,
                                                          over / (base * mult) * 1e9 if name != "scan" else 0.0))


if __name__ == "__main__":
    main()
