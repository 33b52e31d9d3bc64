"""Iceberg metadata interoperability: PyIceberg reads what Sluice's hadoop catalog writes, and Sluice
reads and commits on top of what PyIceberg writes (then PyIceberg reads that commit back). The Java
reference implementation (iceberg-core from Maven Central, tests/interop/java) parses every metadata
file Sluice wrote as well.

Usage: iceberg_metadata_interop.py <path to connectors_test>
The Sluice side is tests/unit/connectors/iceberg_interop_test.cc, run with environment variables.
"""
import datetime
import decimal
import os
import subprocess
import sys
import tempfile

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.table import StaticTable
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import (DateType, DecimalType, DoubleType, IntegerType, ListType, LongType, MapType,
                             NestedField, StringType, StructType, TimestamptzType)


def run_sluice(binary, test, env):
    full_env = dict(os.environ, **env)
    out = subprocess.run([binary, f"--gtest_filter=IcebergInterop.{test}"], env=full_env,
                         capture_output=True, text=True)
    if out.returncode != 0 or "[  PASSED  ] 1 test" not in out.stdout:
        sys.exit(f"Sluice side {test} failed:\n{out.stdout}\n{out.stderr}")


def check(cond, what):
    if not cond:
        sys.exit(f"FAILED: {what}")


def check_sluice_written(warehouse):
    table = StaticTable.from_metadata(f"file://{warehouse}/db/sales/metadata/v2.metadata.json")
    md = table.metadata
    check(md.format_version == 2, f"format version {md.format_version}")
    check(str(md.table_uuid) == "9c12d441-03fe-4693-9a96-a0705ddf69c1", f"uuid {md.table_uuid}")
    schema = table.schema()
    expected = Schema(
        NestedField(1, "store_id", StringType(), required=True),
        NestedField(2, "business_date", DateType(), required=True),
        NestedField(3, "amount", DecimalType(12, 2), required=False),
        NestedField(4, "ts", TimestamptzType(), required=False),
        NestedField(5, "qty", IntegerType(), required=False),
        NestedField(6, "tags", ListType(9, StringType(), element_required=False), required=False),
        NestedField(7, "attrs", MapType(10, StringType(), 11, LongType(), value_required=False), required=False),
        NestedField(8, "loc", StructType(NestedField(12, "lat", DoubleType(), required=False),
                                         NestedField(13, "lon", DoubleType(), required=False)), required=False),
        identifier_field_ids=[1, 2])
    check(schema.fields == expected.fields, f"schema {schema}")
    check(list(schema.identifier_field_ids) == [1, 2], f"identifier ids {schema.identifier_field_ids}")
    spec = table.spec()
    got = [(f.source_id, f.field_id, str(f.transform), f.name) for f in spec.fields]
    check(got == [(2, 1000, "identity", "business_date"), (4, 1001, "day", "ts_day"),
                  (1, 1002, "bucket[16]", "store_id_bucket"), (5, 1003, "truncate[10]", "qty_trunc")],
          f"spec {got}")
    check(md.last_partition_id == 1003, f"last partition id {md.last_partition_id}")
    order = table.sort_order()
    check(order.order_id == 1 and len(order.fields) == 1 and order.fields[0].source_id == 4, f"sort {order}")
    props = table.properties
    check(props.get("write.upsert.enabled") == "true", f"properties {props}")
    check(props.get("write.parquet.compression-codec") == "zstd", f"properties {props}")
    check("format-version" not in props, f"properties {props}")
    snap = table.current_snapshot()
    check(snap is not None and snap.snapshot_id == 4242, f"snapshot {snap}")
    summary = snap.summary
    check(summary.operation.value == "append", f"operation {summary.operation}")
    check(summary["total-records"] == "5" and summary["added-data-files"] == "2", f"summary {summary}")
    check(summary["flink.max-committed-checkpoint-id"] == "3", f"summary {summary}")
    check(snap.sequence_number == 1 and md.last_sequence_number == 1, "sequence numbers")
    check(len(md.metadata_log) == 1 and md.metadata_log[0].metadata_file.endswith("/v1.metadata.json"),
          f"metadata log {md.metadata_log}")
    check(md.refs["main"].snapshot_id == 4242, f"refs {md.refs}")


def check_sluice_written_versions(warehouse):
    v1 = StaticTable.from_metadata(f"file://{warehouse}/db/sales_v1/metadata/v2.metadata.json")
    check(v1.metadata.format_version == 1, f"v1 format version {v1.metadata.format_version}")
    check([f.name for f in v1.spec().fields] == ["business_date", "ts_day", "store_id_bucket", "qty_trunc"],
          f"v1 spec {v1.spec()}")
    check(v1.current_snapshot().snapshot_id == 4242, f"v1 snapshot {v1.current_snapshot()}")
    v3 = StaticTable.from_metadata(f"file://{warehouse}/db/sales_v3/metadata/v2.metadata.json")
    check(v3.metadata.format_version == 3, f"v3 format version {v3.metadata.format_version}")
    check(v3.metadata.next_row_id == 5, f"v3 next-row-id {v3.metadata.next_row_id}")
    snap = v3.current_snapshot()
    check(snap.first_row_id == 0 and snap.added_rows == 5, f"v3 row lineage {snap}")


def write_pyiceberg_table(root):
    catalog = SqlCatalog("py", uri=f"sqlite:///{root}/catalog.db", warehouse=f"file://{root}/pywh")
    catalog.create_namespace("ns")
    schema = Schema(NestedField(1, "id", LongType(), required=False),
                    NestedField(2, "name", StringType(), required=False),
                    NestedField(3, "ts", TimestamptzType(), required=False),
                    NestedField(4, "price", DecimalType(10, 2), required=False))
    # Identity only: PyIceberg needs its optional Rust core (pyiceberg-core) to write other transforms.
    spec = PartitionSpec(PartitionField(2, 1000, IdentityTransform(), "name"),
                         PartitionField(1, 1001, IdentityTransform(), "id"))
    table = catalog.create_table("ns.t", schema=schema, partition_spec=spec,
                                 properties={"format-version": "2", "owner": "pyiceberg"})
    utc = datetime.timezone.utc
    data = pa.table({
        "id": pa.array([1, 2, 3], pa.int64()),
        "name": pa.array(["a", "b", None], pa.string()),
        "ts": pa.array([datetime.datetime(2026, 8, 15, 5, tzinfo=utc), datetime.datetime(2026, 8, 16, tzinfo=utc),
                        None], pa.timestamp("us", tz="UTC")),
        "price": pa.array([decimal.Decimal("1.50"), None, decimal.Decimal("-2.25")], pa.decimal128(10, 2)),
    })
    table.append(data)
    return catalog.load_table("ns.t").metadata_location


def check_sluice_commit_on_pyiceberg(warehouse):
    table = StaticTable.from_metadata(f"file://{warehouse}/db/from_py/metadata/v2.metadata.json")
    check(table.current_snapshot().snapshot_id == 777, f"snapshot {table.current_snapshot()}")
    check(table.properties.get("sluice.committed") == "true", f"properties {table.properties}")
    check(table.properties.get("owner") == "pyiceberg", f"properties {table.properties}")
    rows = table.scan().to_arrow().sort_by("id").to_pylist()
    check([r["id"] for r in rows] == [1, 2, 3], f"rows {rows}")
    check(rows[0]["name"] == "a" and rows[2]["price"] == decimal.Decimal("-2.25"), f"rows {rows}")


def java_check(root, files):
    """Runs the Java reference parser over `files`; returns its output per file."""
    here = os.path.dirname(os.path.abspath(__file__))
    java_dir = os.path.join(here, "java")
    # The same classpath as the row checks (tests/interop/iceberg_java_interop.py), from one place.
    deps = subprocess.run(["bash", os.path.join(here, "..", "..", "scripts", "install-java-deps.sh"), "reference"],
                          capture_output=True, text=True)
    if deps.returncode != 0:
        sys.exit(f"FAILED: the Java reference's classpath (scripts/install-java-deps.sh reference):\n{deps.stderr}")
    cp = os.path.join(deps.stdout.strip().splitlines()[-1], "lib", "*")
    out = subprocess.run(["java", "-cp", cp, os.path.join(java_dir, "IcebergMetadataCheck.java"), *files],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"FAILED: the Java reference could not read Sluice's metadata:\n{out.stdout}\n{out.stderr}")
    per_file, current = {}, None
    for line in out.stdout.splitlines():
        if line.startswith("file: "):
            current = line[len("file: "):]
            per_file[current] = []
        elif current is not None:
            per_file[current].append(line)
    return per_file


def check_java(root, warehouse):
    files = {name: f"{warehouse}/db/{name}/metadata/v2.metadata.json"
             for name in ["sales", "sales_v1", "sales_v3", "from_py"]}
    out = java_check(root, list(files.values()))
    sales = out[files["sales"]]
    for want in ["format-version: 2",
                 "schema: struct<1: store_id: required string, 2: business_date: required date, "
                 "3: amount: optional decimal(12, 2), 4: ts: optional timestamptz, 5: qty: optional int, "
                 "6: tags: optional list<string>, 7: attrs: optional map<string, long>, "
                 "8: loc: optional struct<12: lat: optional double, 13: lon: optional double>>",
                 "identifier-field-ids: [1, 2]",
                 "spec: [1000: business_date: identity(2), 1001: ts_day: day(4), 1002: store_id_bucket: bucket[16](1), "
                 "1003: qty_trunc: truncate[10](5)]",
                 "sort-order: [identity(4) DESC NULLS LAST]",
                 "snapshot: 4242 seq 1 append",
                 "metadata-log: 1"]:
        check(want in sales, f"Java read of sales: missing '{want}' in {sales}")
    check(any("total-records=5" in line and "flink.max-committed-checkpoint-id=3" in line for line in sales),
          f"Java summary {sales}")
    check("format-version: 1" in out[files["sales_v1"]], f"Java read of sales_v1 {out[files['sales_v1']]}")
    check("row-lineage: first-row-id 0 added-rows 5 next-row-id 5" in out[files["sales_v3"]],
          f"Java read of sales_v3 {out[files['sales_v3']]}")
    check("snapshot: 777 seq 2 replace" in out[files["from_py"]], f"Java read of from_py {out[files['from_py']]}")


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="sluice_iceberg_interop_") as root:
        warehouse = os.path.join(root, "wh")
        os.makedirs(warehouse)
        run_sluice(binary, "WriteTableForPyIceberg", {"SLUICE_ICEBERG_INTEROP_WAREHOUSE": warehouse})
        check_sluice_written(warehouse)
        check_sluice_written_versions(warehouse)
        metadata = write_pyiceberg_table(root)
        path = metadata[len("file://"):] if metadata.startswith("file://") else metadata
        run_sluice(binary, "ReadAndCommitPyIcebergTable",
                   {"SLUICE_ICEBERG_INTEROP_WAREHOUSE": warehouse, "SLUICE_ICEBERG_PYICEBERG_METADATA": path})
        check_sluice_commit_on_pyiceberg(warehouse)
        check_java(root, warehouse)
    print("iceberg metadata interop: OK")


if __name__ == "__main__":
    main()
