#!/usr/bin/env python3
"""The upsert pipeline's cost per updated key in each Iceberg delete mode (issue 16's benchmark):
'equality' (Flink's; format v2), 'position' (position deletes from the primary-key index; v2) and
'dv' (deletion vectors; v3), in the same run.

Per mode and repetition, in a fresh warehouse: a load job writes KEYS keys; then the measured job
(the seed's running total, `SELECT k, COUNT(*), SUM(v) ... GROUP BY k` into the upsert table, a
checkpoint every second) updates them UPDATES times in all (UPDATES / KEYS per key), then Sluice
reads the table back (SELECT COUNT(*), deletes applied). Prints per mode the medians of the measured
job's microseconds per update and per updated key (the keys times the commits), its events/s, the
ratio to 'equality', the deletes it wrote (from the job summary) and the read time. Modes run
interleaved, REPS times (default 3), so drift of a shared machine hits them alike.

Usage: upsert_delete_modes.py SLUICE [KEYS] [UPDATES] [REPS]
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MODES = [("equality", 2), ("position", 2), ("dv", 3)]


def run(sluice, sql, sets=()):
    args = [sluice, "run", "--format", "jsonl", "--mode", "table"]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args + ["-e", sql], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-2000:])
    return p.stderr, p.stdout


def catalog(wh):
    return ("CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = 'file://%s');\n"
            "CREATE DATABASE IF NOT EXISTS lake.db;\n" % wh)


def gen(rows):
    return ("CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '%d', "
            "'rows-per-second' = '1000000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '%d');\n" % (rows, rows - 1))


def one(sluice, root, mode, version, keys, updates):
    wh = os.path.join(root, "wh-" + mode)
    shutil.rmtree(wh, ignore_errors=True)
    ckpt = os.path.join(root, "ckpt-" + mode)
    shutil.rmtree(ckpt, ignore_errors=True)
    head = catalog(wh) + (
        "CREATE TABLE IF NOT EXISTS lake.db.totals (k BIGINT NOT NULL, c BIGINT, s BIGINT, PRIMARY KEY (k) NOT ENFORCED) "
        "WITH ('format-version' = '%d', 'write.upsert.enabled' = 'true', 'sluice.write.delete-mode' = '%s');\n"
        % (version, mode))
    run(sluice, head + gen(keys) + "INSERT INTO lake.db.totals SELECT id, CAST(1 AS BIGINT), id FROM gen;")
    err, _ = run(sluice, head + gen(updates) + "INSERT INTO lake.db.totals SELECT MOD(id, %d), COUNT(*), SUM(id) "
                 "FROM gen GROUP BY MOD(id, %d);" % (keys, keys),
                 sets=("execution.checkpointing.interval=500ms", "state.checkpoints.dir=" + ckpt))
    elapsed = float(re.search(r"elapsed=([0-9.eE+-]+)s", err).group(1))
    table = re.search(r"^db\.totals\s+(.*)$", err, re.M).group(1).split()
    snapshots, eq, pos = (int(x.replace(",", "")) for x in (table[0], table[3], table[4]))
    t0 = time.monotonic()
    _, out = run(sluice, catalog(wh) + "SELECT COUNT(*) AS n FROM lake.db.totals;", sets=())
    read = time.monotonic() - t0
    count = json.loads(out.strip().splitlines()[-1])["n"]
    if count != keys:
        raise RuntimeError("%s: %d rows read back, %d keys" % (mode, count, keys))
    return {"elapsed": elapsed, "snapshots": snapshots, "eq": eq, "pos": pos, "read": read}


def main():
    sluice = sys.argv[1]
    keys = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    updates = int(sys.argv[3]) if len(sys.argv) > 3 else 2_000_000
    reps = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    root = tempfile.mkdtemp(prefix="sluice_upsert_modes_")
    results = {m: [] for m, _ in MODES}
    try:
        for _ in range(reps):
            for mode, version in MODES:
                results[mode].append(one(sluice, root, mode, version, keys, updates))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("%d keys, %d updates (%d per key), %d repetitions, medians" % (keys, updates, updates // keys, reps))
    print("%-9s %8s %10s %12s %12s %9s %10s %12s %12s %9s" % (
        "mode", "format", "seconds", "updates/s", "us/update", "ratio", "snapshots", "eq_deletes", "pos_deletes",
        "read_s"))
    base = statistics.median(r["elapsed"] for r in results["equality"])
    for mode, version in MODES:
        rs = results[mode]
        e = statistics.median(r["elapsed"] for r in rs)
        last = rs[-1]
        print("%-9s %8s %10.3f %12.0f %12.3f %9.2f %10d %12d %12d %9.3f" % (
            mode, "v%d" % version, e, updates / e, e * 1e6 / updates, e / base, last["snapshots"], last["eq"],
            last["pos"], statistics.median(r["read"] for r in rs)))


if __name__ == "__main__":
    main()
