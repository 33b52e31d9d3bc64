"""Iceberg read interoperability: PyIceberg writes tables (appends, a delete, schema evolution,
partitions) into a hadoop-layout warehouse; `sluice run` reads them (the current snapshot, time
travel by 'snapshot-id', an incremental read, filters pushed into the scan) and every result is
compared row for row with PyIceberg's and DuckDB's reading of the same snapshot (with PyIceberg's
row_filter for the filters, checking that Sluice's scan skipped files where it should).

Usage: iceberg_read_interop.py <path to the sluice binary>
"""
import datetime
import decimal
import json
import os
import shutil
import subprocess
import sys
import tempfile

import duckdb
import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.expressions import (And, EqualTo, GreaterThan, GreaterThanOrEqual, In, IsNull, LessThan, Not, NotNull,
                                   Or, StartsWith)
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.table import StaticTable
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import DoubleType, LongType, NestedField, StringType, TimestampType


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


def sluice_rows(binary, warehouse, query, stderr=None):
    script = (f"CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
              f"'warehouse' = 'file://{warehouse}');\n{query};\n")
    out = subprocess.run([binary, "run", "--format", "jsonl", "-e", script], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"sluice failed on {query}:\n{out.stdout}\n{out.stderr}")
    if stderr is not None:
        stderr.append(out.stderr)
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


def norm(v):
    """PyIceberg's values in the CLI's jsonl conventions (timestamps as text, decimals as numbers)."""
    if isinstance(v, datetime.datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(v, decimal.Decimal):
        return float(v)
    return v


def skipped_files(stderr):
    """The skipped-data-files count of the job summary on Sluice's stderr (-1 when absent)."""
    for part in stderr.split():
        if part.startswith("skipped-data-files="):
            return int(part.split("=")[1].rstrip(",)"))
    return -1


def check_filters(binary, warehouse, catalog, events, parts):
    """Filters pushed into Sluice's scan give PyIceberg's rows for the same row_filter, and prune."""
    # A table partitioned by identity (PyIceberg writes other transforms only with pyiceberg-core,
    # which is not installed; Sluice writes those below), in several appends (files), with a delete,
    # NULLs and pre-1970 timestamps (pruned by metrics).
    loc = os.path.join(warehouse, "db", "transforms")
    schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "s", StringType(), required=False),
                    NestedField(3, "ts", TimestampType(), required=False), NestedField(4, "day", LongType(), required=False))
    spec = PartitionSpec(PartitionField(4, 1000, IdentityTransform(), "day"))
    tr = catalog.create_table("db.transforms", schema=schema, location=f"file://{loc}", partition_spec=spec,
                              properties={"format-version": "2"})
    base = datetime.datetime(2026, 8, 15)
    for day in (-3, 0, 1, 2):
        rows = [{"id": day * 100 + i, "day": day, "s": (None if i % 7 == 0 else f"{'abcxyz'[i % 6]}{i % 3}-{i}"),
                 "ts": base + datetime.timedelta(days=day, hours=i % 24) if i % 11 else None} for i in range(40)]
        if day == -3:
            for r in rows:
                if r["ts"] is not None:
                    r["ts"] = datetime.datetime(1969, 12, 30) + (r["ts"] - (base - datetime.timedelta(days=3)))
        tr.append(pa.Table.from_pylist(rows, tr.schema().as_arrow()))
    tr.delete(EqualTo("id", 105))
    tr = catalog.load_table("db.transforms")
    publish_hadoop_version(tr, loc)

    # Sluice writes a table partitioned by bucket and truncate; PyIceberg reads it by its metadata file.
    sluice_rows(binary, warehouse, "CREATE TABLE lake.db.bt (id BIGINT, s STRING, amount DECIMAL(10, 2), ts TIMESTAMP(6)) "
                "PARTITIONED BY (bucket(4, id), truncate(2, s), truncate(100, amount), hours(ts));\n"
                "INSERT INTO lake.db.bt SELECT * FROM (VALUES " +
                ", ".join(f"(CAST({i} AS BIGINT), " + ("CAST(NULL AS STRING)" if i % 9 == 0 else f"'{'pqrs'[i % 4]}{i % 5}x{i}'") +
                          f", CAST({i * 0.37 - 5:.2f} AS DECIMAL(10, 2)), "
                          f"TIMESTAMP '1969-12-31 22:00:00' + INTERVAL '{i * 7}' MINUTE)" for i in range(60)) +
                ") AS v(id, s, amount, ts)")
    bt_meta = os.path.join(warehouse, "db", "bt", "metadata")
    bt = StaticTable.from_metadata(os.path.join(bt_meta, f"v{open(os.path.join(bt_meta, 'version-hint.text')).read().strip()}.metadata.json"))

    ts = lambda d: (base + datetime.timedelta(days=d)).strftime("%Y-%m-%d %H:%M:%S")
    cases = [  # table, SQL condition, PyIceberg row filter, whether Sluice must skip files
        (events, "events", "id >= 40 AND id < 60", And(GreaterThanOrEqual("id", 40), LessThan("id", 60)), True),
        (events, "events", "label LIKE 'n1%'", StartsWith("label", "n1"), False),
        (events, "events", "amount IS NULL OR id = 3", Or(IsNull("amount"), EqualTo("id", 3)), False),
        (events, "events", "NOT (id < 70)", Not(LessThan("id", 70)), True),
        (parts, "parts", "cat = 'a'", EqualTo("cat", "a"), True),
        (parts, "parts", "cat IS NULL AND v > 10", And(IsNull("cat"), GreaterThan("v", 10)), True),
        (parts, "parts", "v IN (1, 3, 5)", In("v", [1, 3, 5]), False),
        (tr, "transforms", f"ts >= TIMESTAMP '{ts(1)}'", GreaterThanOrEqual("ts", ts(1).replace(" ", "T")), True),
        (tr, "transforms", f"ts < TIMESTAMP '{ts(0)}'", LessThan("ts", ts(0).replace(" ", "T")), True),
        (tr, "transforms", "ts < TIMESTAMP '1970-01-01 00:00:00'", LessThan("ts", "1970-01-01T00:00:00"), True),
        (tr, "transforms", "id = 105 OR id = 203", Or(EqualTo("id", 105), EqualTo("id", 203)), True),
        (tr, "transforms", "s LIKE 'a0%'", StartsWith("s", "a0"), False),
        (tr, "transforms", "s IS NULL AND ts IS NOT NULL", And(IsNull("s"), NotNull("ts")), False),
        (tr, "transforms", "s > 'x' AND id IN (1, 101, 201)", And(GreaterThan("s", "x"), In("id", [1, 101, 201])), True),
    ]
    cases += [
        (bt, "bt", "id = 17", EqualTo("id", 17), True),
        (bt, "bt", "id IN (3, 4)", In("id", [3, 4]), True),
        (bt, "bt", "s LIKE 'q1%'", StartsWith("s", "q1"), True),
        (bt, "bt", "s >= 's'", GreaterThanOrEqual("s", "s"), True),
        (bt, "bt", "amount < 0", LessThan("amount", 0), True),
        (bt, "bt", "s IS NULL", IsNull("s"), True),
        (bt, "bt", "ts < TIMESTAMP '1970-01-01 00:00:00'", LessThan("ts", "1970-01-01T00:00:00"), True),
        (bt, "bt", "ts >= TIMESTAMP '1970-01-01 04:00:00'", GreaterThanOrEqual("ts", "1970-01-01T04:00:00"), True),
        (tr, "transforms", "`day` = 2 AND id > 230", And(EqualTo("day", 2), GreaterThan("id", 230)), True),
    ]
    for table, name, cond, row_filter, prunes in cases:
        stderr = []
        query = f"SELECT * FROM lake.db.{name} WHERE {cond}"
        got = sluice_rows(binary, warehouse, query, stderr)
        want_tbl = table.scan(row_filter=row_filter).to_arrow()
        want = sorted([tuple(norm(v) for v in r) for r in arrow_rows(want_tbl.select(sorted(want_tbl.column_names)))],
                      key=repr)
        got = sorted([tuple(norm(v) for v in r) for r in got], key=repr)
        check(got == want, f"{query}: sluice {len(got)} rows != pyiceberg {len(want)} rows\n{got[:5]}\n{want[:5]}")
        skipped = skipped_files(stderr[0])
        check(skipped >= 0, f"{query}: no scan metrics in the job summary: {stderr[0]}")
        check(not prunes or skipped > 0 or "skipped-data-manifests=0" not in stderr[0],
              f"{query}: nothing was pruned: {stderr[0]}")
        print(f"ok: {query}: {len(got)} rows, {skipped} data files skipped")


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

    check_filters(binary, warehouse, catalog, t, p)

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
    # The same with a filter: the pushed-down filter prunes the streaming read's files too.
    got = sluice_rows(binary, warehouse, "SELECT id FROM lake.db.events /*+ OPTIONS('streaming' = 'true', "
                                         "'starting-strategy' = 'INCREMENTAL_FROM_EARLIEST_SNAPSHOT', "
                                         f"'end-snapshot-id' = '{second}', 'monitor-interval' = '1s') */ "
                                         "WHERE id >= 45 AND id < 55")
    check(sorted(r[0] for r in got) == list(range(45, 55)), f"filtered streaming read: {got[:5]}")
    print("ok: bounded streaming read with a filter")
    shutil.rmtree(root)


if __name__ == "__main__":
    main()
