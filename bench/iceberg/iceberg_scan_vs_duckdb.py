#!/usr/bin/env python3
"""Iceberg scan with deletes: Sluice's Iceberg split reader (bench/iceberg/iceberg_scan) against
DuckDB (one thread) on the same files. PyIceberg writes a table of ROWS rows (default 10M) in 4
appends; this script writes one position delete file per data file deleting 10% of its rows
(pyarrow, the spec's file_path/pos columns). Sluice applies them as the Iceberg source does; DuckDB
reads the data files with file_row_number and drops deleted rows with an anti-join (its iceberg
extension is not installed offline here). Both read every column. Prints rows/s of both and the
ratio; the row counts must agree.

Usage: iceberg_scan_vs_duckdb.py ICEBERG_SCAN_BINARY [ROWS]   (the interop venv's python)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import DoubleType, IntegerType, LongType, NestedField, StringType, TimestampType


def batch(start, n):
    ids = pa.array(range(start, start + n), pa.int64())
    return pa.table({
        "id": ids,
        "store": pc.cast(pc.floor(pc.multiply(pc.random(n, initializer=start + 1), 500)), pa.int32()),
        "price": pc.multiply(pc.random(n, initializer=start + 2), 100.0),
        "sku": pc.binary_join_element_wise("SKU-", pc.cast(pc.bit_wise_and(ids, 16383), pa.string()), ""),
        "ts": pc.cast(pc.add(pc.multiply(ids, 1000), 1_700_000_000_000_000), pa.timestamp("us")),
    })


def main():
    binary = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
    root = tempfile.mkdtemp(prefix="sluice_iceberg_scan_bench_")
    try:
        catalog = SqlCatalog("b", uri=f"sqlite:///{root}/c.db", warehouse=f"file://{root}/wh")
        catalog.create_namespace("db")
        schema = Schema(NestedField(1, "id", LongType(), required=False),
                        NestedField(2, "store", IntegerType(), required=False),
                        NestedField(3, "price", DoubleType(), required=False),
                        NestedField(4, "sku", StringType(), required=False),
                        NestedField(5, "ts", TimestampType(), required=False))
        t = catalog.create_table("db.t", schema=schema)
        parts = 4
        for p in range(parts):
            t.append(batch(p * (rows // parts), rows // parts).cast(t.schema().as_arrow()))
        t = catalog.load_table("db.t")
        tasks_path = os.path.join(root, "tasks.tsv")
        deleted = 0
        pairs = []
        with open(tasks_path, "w") as tasks:
            for i, task in enumerate(t.scan().plan_files()):
                n = task.file.record_count
                positions = pa.array([p for p in range(n) if (p * 7919) % 10 == 3], pa.int64())
                deleted += len(positions)
                dpath = os.path.join(root, f"delete-{i}.parquet")
                pq.write_table(pa.table({"file_path": pa.array([task.file.file_path] * len(positions), pa.string()),
                                         "pos": positions}), dpath, compression="zstd")
                data = task.file.file_path.removeprefix("file://")
                pairs.append((data, dpath))
                tasks.write(f"{data}\t{dpath}\n")
        metadata = t.metadata_location.removeprefix("file://")

        out = subprocess.run([binary, metadata, tasks_path], capture_output=True, text=True, check=True).stdout
        fields = dict(kv.split("=") for kv in out.split())
        s_rows, s_sec = int(fields["rows"]), float(fields["seconds"])

        con = duckdb.connect()
        con.execute("SET threads = 1")
        start = time.perf_counter()
        total = 0
        for data, dpath in pairs:
            total += con.execute(
                f"SELECT count(*), sum(hash(id, store, price, sku, ts)) FROM read_parquet('{data}', file_row_number = true) d "
                f"ANTI JOIN read_parquet('{dpath}') x ON d.file_row_number = x.pos").fetchone()[0]
        d_sec = time.perf_counter() - start
        if total != s_rows or total != rows - deleted:
            sys.exit(f"row counts differ: sluice {s_rows}, duckdb {total}, expected {rows - deleted}")
        print(f"{'reader':<8} {'rows':>10} {'seconds':>8} {'rows/s':>12}")
        print(f"{'sluice':<8} {s_rows:>10} {s_sec:>8.3f} {s_rows / s_sec:>12.0f}")
        print(f"{'duckdb':<8} {total:>10} {d_sec:>8.3f} {total / d_sec:>12.0f}")
        print(f"ratio sluice/duckdb (rows/s): {d_sec / s_sec:.2f}  ({deleted} of {rows} rows deleted)")
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
