"""Iceberg read interoperability: PyIceberg writes tables (appends, a delete, schema evolution,
partitions) into a hadoop-layout warehouse; `sluice run` reads them (the current snapshot, time
travel by 'snapshot-id', an incremental read) and every result is compared row for row with
PyIceberg's and DuckDB's reading of the same snapshot.

Usage: iceberg_read_interop.py <path to the sluice binary>
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import duckdb
import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.expressions import EqualTo
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import DoubleType, LongType, NestedField, StringType


def check(cond, what):
    if not cond:
        sys.exit(f"FAILED: {what}")


def publish_hadoop_version(table, location):
    """Copies the table's current metadata file to v<N>.metadata.json with a version hint, so the
    hadoop catalog finds it (PyIceberg's SqlCatalog names them 0000N-<uuid>.metadata.json)."""
    meta_dir = os.path.join(location, "metadata")
    version = len([f for f in os.listdir(meta_dir) if f.startswith("v") and f.endswith(".metadata.json")]) + 1
    shutil.copy(table.metadata_location.removeprefix("file://"), os.path.join(meta_dir, f"v{version}.metadata.json"))
    with open(os.path.join(meta_dir, "version-hint.text"), "w") as f:
        f.write(str(version))


def sluice_rows(binary, warehouse, query):
    script = (f"CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
              f"'warehouse' = 'file://{warehouse}');\n{query};\n")
    out = subprocess.run([binary, "run", "--format", "jsonl", "-e", script], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"sluice failed on {query}:\n{out.stdout}\n{out.stderr}")
    rows = []
    for line in out.stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        rec = json.loads(line)
        rec.pop("op", None)
        rec.pop("rowkind", None)
        rows.append(tuple(rec.get(k) for k in sorted(rec)))
    return sorted(rows, key=repr)


def arrow_rows(tbl):
    cols = sorted(tbl.column_names)
    return sorted([tuple(r[c] for c in cols) for r in tbl.to_pylist()], key=repr)


def duckdb_keys(table, snapshot_id, key):
    """DuckDB reads the snapshot's data files (applying position deletes with an anti-join) and
    returns the sorted values of column `key` (a column no schema change renamed)."""
    scan = table.scan(snapshot_id=snapshot_id)
    tasks = list(scan.plan_files())
    con = duckdb.connect()
    keys = []
    for t in tasks:
        path = t.file.file_path.removeprefix("file://")
        rel = f"read_parquet('{path}', file_row_number = true)"
        if t.delete_files:
            dels = ", ".join("'" + d.file_path.removeprefix("file://") + "'" for d in t.delete_files)
            rel = (f"(SELECT * FROM {rel} WHERE file_row_number NOT IN (SELECT pos FROM read_parquet([{dels}]) "
                   f"WHERE file_path = '{t.file.file_path}'))")
        keys += [r[0] for r in con.execute(f"SELECT {key} FROM {rel}").fetchall()]
    return sorted(keys, key=repr)


def main():
    binary = sys.argv[1]
    root = tempfile.mkdtemp(prefix="sluice_iceberg_read_")
    warehouse = os.path.join(root, "wh")
    os.makedirs(warehouse)
    catalog = SqlCatalog("pyi", uri=f"sqlite:///{root}/catalog.db", warehouse=f"file://{warehouse}")
    catalog.create_namespace("db")

    # An unpartitioned table: 3 appends, a delete, a column added and one renamed.
    loc = os.path.join(warehouse, "db", "events")
    schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "name", StringType(), required=False),
                    NestedField(3, "amount", DoubleType(), required=False))
    t = catalog.create_table("db.events", schema=schema, location=f"file://{loc}",
                             properties={"format-version": "2"})
    arrow_schema = t.schema().as_arrow()
    t.append(pa.Table.from_pylist([{"id": i, "name": f"n{i}", "amount": i * 1.5} for i in range(0, 50)], arrow_schema))
    first = t.current_snapshot().snapshot_id
    t.append(pa.Table.from_pylist([{"id": i, "name": f"n{i}", "amount": None} for i in range(50, 80)], arrow_schema))
    second = t.current_snapshot().snapshot_id
    t.delete(EqualTo("name", "n7"))
    t.delete(EqualTo("id", 60))
    with t.update_schema() as u:
        u.add_column("tag", StringType())
        u.rename_column("name", "label")
    t = catalog.load_table("db.events")
    t.append(pa.Table.from_pylist([{"id": 100, "label": "x", "amount": 2.0, "tag": "new"}], t.schema().as_arrow()))
    t = catalog.load_table("db.events")
    publish_hadoop_version(t, loc)

    # A partitioned table: appends and a delete of one partition's row.
    ploc = os.path.join(warehouse, "db", "parts")
    pschema = Schema(NestedField(1, "cat", StringType(), required=False), NestedField(2, "v", LongType(), required=False))
    p = catalog.create_table("db.parts", schema=pschema, location=f"file://{ploc}",
                             partition_spec=PartitionSpec(PartitionField(1, 1000, IdentityTransform(), "cat")),
                             properties={"format-version": "2"})
    p.append(pa.Table.from_pylist([{"cat": c, "v": i} for i in range(20) for c in ("a", "b", None)],
                                  p.schema().as_arrow()))
    p.delete(EqualTo("v", 3))
    p = catalog.load_table("db.parts")
    publish_hadoop_version(p, ploc)

    cases = [
        ("SELECT * FROM lake.db.events", t, None, ["amount", "id", "label", "tag"]),
        # Time travel: Sluice (as Flink) reads old snapshots in the table's current schema, PyIceberg in
        # the snapshot's; compare the columns both have under one name.
        (f"SELECT id, amount FROM lake.db.events /*+ OPTIONS('snapshot-id' = '{first}') */", t, first, ["amount", "id"]),
        (f"SELECT id, amount FROM lake.db.events /*+ OPTIONS('snapshot-id' = '{second}') */", t, second,
         ["amount", "id"]),
        ("SELECT * FROM lake.db.parts", p, None, ["cat", "v"]),
    ]
    for query, table, snap, cols in cases:
        got = sluice_rows(binary, warehouse, query)
        scan = table.scan(snapshot_id=snap) if snap else table.scan()
        want = arrow_rows(scan.to_arrow().select(cols))
        check(got == want, f"{query}: sluice {len(got)} rows != pyiceberg {len(want)} rows\n{got[:5]}\n{want[:5]}")
        key = "id" if "id" in cols else "v"
        ddb = duckdb_keys(table, snap or table.current_snapshot().snapshot_id, key)
        mine = sorted([r[cols.index(key)] for r in got], key=repr)
        check(ddb == mine, f"{query}: duckdb's {key} values differ from sluice's")
        print(f"ok: {query}: {len(got)} rows")

    # Incremental read: the appends after the first snapshot up to the second.
    got = sluice_rows(binary, warehouse, f"SELECT id FROM lake.db.events /*+ OPTIONS('start-snapshot-id' = "
                                         f"'{first}', 'end-snapshot-id' = '{second}') */")
    check(sorted(r[0] for r in got) == list(range(50, 80)), f"incremental read: {got[:5]}")
    print("ok: incremental read")

    got = sluice_rows(binary, warehouse, "SELECT id FROM lake.db.events /*+ OPTIONS('limit' = '5') */")
    check(len(got) == 5 and all(r[0] in range(0, 101) for r in got), f"limit: {got}")
    print("ok: limit")

    # A bounded streaming read: every append from the earliest snapshot up to the second.
    got = sluice_rows(binary, warehouse, "SELECT id FROM lake.db.events /*+ OPTIONS('streaming' = 'true', "
                                         "'starting-strategy' = 'INCREMENTAL_FROM_EARLIEST_SNAPSHOT', "
                                         f"'end-snapshot-id' = '{second}', 'monitor-interval' = '1s') */")
    check(sorted(r[0] for r in got) == list(range(0, 80)), f"streaming read: {got[:5]}")
    print("ok: bounded streaming read")
    shutil.rmtree(root)


if __name__ == "__main__":
    main()
