#!/usr/bin/env python3
"""GROUP BY over a JSON file: Sluice's streaming job with its final table (`sluice run --mode table`),
the same query in batch mode ('execution.runtime-mode' = 'batch': a HashAggregate), and DuckDB (one
thread) reading the same file, in one run. Prints each time (best of REPS, whole process for Sluice,
read_json plus the aggregation for DuckDB) and the ratios to DuckDB; the target is within 1.5x.

Usage: group_by_vs_duckdb.py SLUICE_BINARY [ROWS] [GROUPS] [REPS] [BASELINE_BINARY]   (the interop venv's python)
With BASELINE_BINARY (e.g. a build of main) its two runs are interleaved with the others as "baseline ...".
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import duckdb

QUERY = "SELECT store, COUNT(*) AS n, SUM(qty) AS q, SUM(price) AS revenue, MAX(price) AS top FROM orders GROUP BY store"


def write_orders(path, rows, groups):
    rnd = random.Random(7)
    with open(path, "w") as f:
        for i in range(rows):
            f.write(json.dumps({"id": i, "store": "store-%04d" % rnd.randrange(groups), "qty": rnd.randrange(1, 20),
                                "price": round(rnd.uniform(1, 500), 2), "ts": "2026-08-15 %02d:%02d:%02d" %
                                (i // 3600 % 24, i // 60 % 60, i % 60)}) + "\n")


def best_of(reps, fn):
    best = 1e30
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    binary = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 400_000
    groups = int(sys.argv[3]) if len(sys.argv) > 3 else 800
    reps = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "orders.json")
        write_orders(path, rows, groups)
        ddl = ("CREATE TABLE orders (id BIGINT, store STRING, qty INT, price DOUBLE, ts STRING) WITH "
               "('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');\n" % path)

        def sluice(mode, extra, binary=binary):
            def run():
                out = subprocess.run([binary, "run", "--format", "csv", "--mode", mode, "-e", extra + ddl + QUERY + ";"],
                                     capture_output=True, text=True)
                if out.returncode != 0:
                    sys.exit("sluice failed:\n" + out.stderr)
                lines = [l for l in out.stdout.splitlines() if "store-" in l]
                if mode == "changelog" and any(not l.startswith("+I,") for l in lines):
                    sys.exit("batch mode printed a row that is not an insert")
                if len(lines) != groups:
                    sys.exit("sluice printed %d groups, expected %d:\n%s" % (len(lines), groups, out.stdout[:500]))
            return run

        con = duckdb.connect()
        con.execute("PRAGMA threads=1")
        sql = QUERY.replace("FROM orders", "FROM read_json('%s', columns = {id: 'BIGINT', store: 'VARCHAR', qty: "
                            "'INTEGER', price: 'DOUBLE', ts: 'VARCHAR'})" % path)

        def duck():
            if len(con.execute(sql).fetchall()) != groups:
                sys.exit("duckdb: wrong number of groups")

        # Interleaved, so drift of a shared machine hits all three alike.
        times = {"duckdb": 1e30, "streaming --mode table": 1e30, "batch": 1e30}
        runs = {"duckdb": duck, "streaming --mode table": sluice("table", ""),
                "batch": sluice("changelog", "SET 'execution.runtime-mode' = 'batch';\n")}
        if len(sys.argv) > 5:
            base = sys.argv[5]
            times.update({"baseline --mode table": 1e30, "baseline batch": 1e30})
            runs.update({"baseline --mode table": sluice("table", "", base),
                         "baseline batch": sluice("changelog", "SET 'execution.runtime-mode' = 'batch';\n", base)})
        for _ in range(reps):
            for name, fn in runs.items():
                times[name] = min(times[name], best_of(1, fn))
        mb = os.path.getsize(path) / 1e6
        print("GROUP BY over JSON: %d rows (%.1f MB), %d groups, best of %d (duckdb %s, one thread)" %
              (rows, mb, groups, reps, duckdb.__version__))
        print("%-24s %10s %14s %10s" % ("engine", "seconds", "rows/s", "vs duckdb"))
        for name, s in times.items():
            print("%-24s %10.3f %14.0f %9.2fx" % (name, s, rows / s, s / times["duckdb"]))


if __name__ == "__main__":
    main()
