#!/usr/bin/env python3
"""Parquet scan throughput: Sluice's reader (bench/parquet/parquet_scan) against DuckDB reading the
same pyarrow-written zstd file in the same run. Prints rows/s and MB/s (of the file) for both and
the ratio. DuckDB runs with one thread (Sluice's reader is single-threaded) and reads every column
(an aggregate over each one, so projection pushdown cannot skip any).

Usage: parquet_scan_vs_duckdb.py PARQUET_SCAN_BINARY [ROWS]   (the interop venv's python)
"""
import os
import subprocess
import sys
import tempfile
import time

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq


def make_table(n):
    def uniform_int(lo, hi, seed):
        return pc.cast(pc.floor(pc.add(pc.multiply(pc.random(n, initializer=seed), hi - lo), lo)), pa.int64())

    ids = pa.array(range(n), pa.int64())
    qty = pc.cast(uniform_int(1, 100, 2), pa.int32())
    return pa.table({
        "id": ids,
        "store": pc.cast(uniform_int(0, 500, 1), pa.int32()),
        "qty": pc.if_else(pc.less(pc.random(n, initializer=3), 0.1), pa.scalar(None, pa.int32()), qty),
        "price": pc.multiply(pc.random(n, initializer=4), 100.0),
        "sku": pc.binary_join_element_wise("SKU-", pc.cast(uniform_int(0, 20000, 5), pa.string()), ""),
        "ts": pc.cast(pc.add(pc.multiply(ids, 1000), 1_700_000_000_000_000), pa.timestamp("us")),
        "amount": pc.cast(uniform_int(0, 10**9, 6), pa.decimal128(21, 2)).cast(pa.decimal128(12, 2)),
    })


def main():
    binary = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 5_000_000
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "scan.parquet")
        pq.write_table(make_table(rows), path, compression="zstd", row_group_size=1_000_000)
        size = os.path.getsize(path)
        out = subprocess.run([binary, path, "3"], check=True, capture_output=True, text=True).stdout
        fields = dict(kv.split("=") for kv in out.split())
        sluice_s = float(fields["seconds"])
        assert int(fields["rows"]) == rows, out
        con = duckdb.connect()
        con.execute("PRAGMA threads=1")
        cols = "id, store, qty, price, sku, ts, amount"

        def best_of(q):
            best = 1e30
            for _ in range(3):
                t = time.perf_counter()
                con.execute(q).fetchall()
                best = min(best, time.perf_counter() - t)
            return best

        total = best_of("SELECT sum(hash(%s)) FROM read_parquet('%s')" % (cols, path))
        con.execute("CREATE TABLE t AS SELECT * FROM read_parquet('%s')" % path)
        hashing = best_of("SELECT sum(hash(%s)) FROM t" % cols)
        scan = max(total - hashing, 1e-9)
        mb = size / 1e6
        print("Parquet scan, %d rows, %.1f MB zstd (pyarrow %s, duckdb %s, one thread)" %
              (rows, mb, pa.__version__, duckdb.__version__))
        print("%-14s %14s %10s %10s" % ("reader", "rows/s", "MB/s", "seconds"))
        for name, s in (("sluice", sluice_s), ("duckdb+hash", total), ("duckdb scan", scan)):
            print("%-14s %14.0f %10.1f %10.3f" % (name, rows / s, mb / s, s))
        print("sluice/duckdb scan throughput ratio: %.2f (against duckdb+hash: %.2f)" % (scan / sluice_s,
                                                                                        total / sluice_s))


if __name__ == "__main__":
    main()
