"""Iceberg REST catalog interoperability, against Iceberg's REST catalog server
(tests/interop/rest_catalog_server.sh runs this script with ICEBERG_REST_URI and ICEBERG_REST_WAREHOUSE):

  1. `sluice run` creates a database and tables in a 'catalog-type' = 'rest' catalog (SHOW, DESCRIBE, DROP);
     PyIceberg's RestCatalog finds them with the right schema, partition spec and properties;
  2. the C++ side (tests/unit/connectors/iceberg_rest_interop_test.cc) commits snapshots with requirements
     and loses a conflicting commit; PyIceberg reads the committed snapshots back;
  3. `sluice run` INSERTs through the REST catalog, with checkpoints (the sink's commits go through the
     server): an append table PyIceberg reads row for row, and an upsert table whose changes Sluice reads
     back folded (equality deletes: PyIceberg refuses them);
  4. a wrong uri, a server that is not there, and OAuth2 client credentials through `sluice run`.

Usage: iceberg_rest_interop.py <path to sluice> <path to connectors_test>
"""
import json
import os
import subprocess
import sys

from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import DateType, DecimalType, IntegerType, NestedField, StringType

URI = os.environ["ICEBERG_REST_URI"]
WAREHOUSE = os.environ["ICEBERG_REST_WAREHOUSE"]


def check(cond, what):
    if not cond:
        sys.exit(f"FAILED: {what}")


def sluice(binary, sql, expect_ok=True):
    out = subprocess.run([binary, "run", "-e", sql], capture_output=True, text=True)
    if expect_ok and out.returncode != 0:
        sys.exit(f"sluice run failed ({out.returncode}):\n{sql}\n{out.stdout}\n{out.stderr}")
    if not expect_ok and out.returncode == 0:
        sys.exit(f"sluice run should have failed:\n{sql}\n{out.stdout}")
    return out.stdout + out.stderr


def catalog_ddl(name, extra=""):
    return (f"CREATE CATALOG {name} WITH ('type' = 'iceberg', 'catalog-type' = 'rest', 'uri' = '{URI}', "
            f"'warehouse' = '{WAREHOUSE}'{extra});")


def create_tables(binary):
    out = sluice(binary, catalog_ddl("lake") + """
        CREATE DATABASE IF NOT EXISTS lake.`stream`;
        CREATE TABLE lake.`stream`.store_sales_daily (
          store_id STRING, business_date DATE, amount DECIMAL(12, 2), qty INT,
          PRIMARY KEY (store_id, business_date) NOT ENFORCED)
          PARTITIONED BY (business_date, bucket(16, store_id))
          WITH ('format-version' = '2', 'write.upsert.enabled' = 'true');
        CREATE TABLE lake.`stream`.scratch (id BIGINT);
        USE CATALOG lake;
        SHOW DATABASES;
        SHOW TABLES IN `stream`;
        DESCRIBE `stream`.store_sales_daily;
        DROP TABLE `stream`.scratch;
        SHOW TABLES IN `stream`;
        CREATE DATABASE empty_db;
        DROP DATABASE empty_db;
        SHOW DATABASES;
    """)
    check("| store_sales_daily |" in out.replace("  ", " ") or "store_sales_daily" in out, f"SHOW TABLES:\n{out}")
    check(out.count("scratch") == 1, f"scratch listed once, then dropped:\n{out}")
    check("PRI(store_id, business_date)" in out, f"DESCRIBE:\n{out}")
    check(out.count("empty_db") == 0, f"empty_db dropped:\n{out}")


def check_with_pyiceberg():
    cat = RestCatalog("rest", uri=URI, warehouse=WAREHOUSE)
    check(cat.list_namespaces() == [("stream",)], f"namespaces {cat.list_namespaces()}")
    check(cat.list_tables("stream") == [("stream", "store_sales_daily")], f"tables {cat.list_tables('stream')}")
    table = cat.load_table("stream.store_sales_daily")
    md = table.metadata
    check(md.format_version == 2, f"format version {md.format_version}")
    expected = Schema(
        NestedField(1, "store_id", StringType(), required=True),
        NestedField(2, "business_date", DateType(), required=True),
        NestedField(3, "amount", DecimalType(12, 2), required=False),
        NestedField(4, "qty", IntegerType(), required=False),
        identifier_field_ids=[1, 2])
    check(table.schema().fields == expected.fields, f"schema {table.schema()}")
    check(list(table.schema().identifier_field_ids) == [1, 2], f"identifier ids {table.schema().identifier_field_ids}")
    got = [(f.source_id, f.field_id, str(f.transform), f.name) for f in table.spec().fields]
    check(got == [(2, 1000, "identity", "business_date"), (1, 1001, "bucket[16]", "store_id_bucket")], f"spec {got}")
    check(table.properties.get("write.upsert.enabled") == "true", f"properties {table.properties}")
    check("format-version" not in table.properties, f"properties {table.properties}")
    check(table.location().startswith(WAREHOUSE), f"location {table.location()}")
    check(table.current_snapshot() is None, "no snapshot yet")


def run_commits(connectors_test):
    out = subprocess.run([connectors_test, "--gtest_filter=IcebergRestInterop.*"], capture_output=True, text=True)
    if out.returncode != 0 or "[  PASSED  ] 4 tests" not in out.stdout:
        sys.exit(f"Sluice side failed:\n{out.stdout}\n{out.stderr}")
    table = RestCatalog("rest", uri=URI, warehouse=WAREHOUSE).load_table("commits.t")
    snaps = table.metadata.snapshots
    check([s.snapshot_id for s in snaps] == [1, 2], f"snapshots {snaps}")
    check(table.current_snapshot().parent_snapshot_id == 1, f"parent {table.current_snapshot()}")
    check(table.current_snapshot().summary["flink.max-committed-checkpoint-id"] == "2", "summary")
    check(table.current_snapshot().summary["total-records"] == "20", f"summary {table.current_snapshot().summary}")
    check("sluice.test" not in table.properties, f"properties {table.properties}")


def insert_and_read(binary):
    sql = (catalog_ddl("lake") + """
        SET 'execution.checkpointing.interval' = '20 ms';
        SET 'state.checkpoints.dir' = '%s';
        SET 'sluice.exec.chunk-size' = '16';
        CREATE TABLE lake.`stream`.lines (id BIGINT, store STRING, amount DECIMAL(10, 2));
        CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '400',
          'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '400');
        CREATE TEMPORARY VIEW v AS SELECT id, CONCAT('S-', CAST(MOD(id, 5) AS STRING)) AS store,
          CAST(id AS DECIMAL(10, 2)) / 4 AS amount FROM gen;
        EXECUTE STATEMENT SET BEGIN
        INSERT INTO lake.`stream`.lines SELECT id, store, CAST(amount AS DECIMAL(10, 2)) FROM v;
        INSERT INTO lake.`stream`.store_sales_daily
          SELECT store, DATE '2026-08-15', CAST(SUM(amount) AS DECIMAL(12, 2)), CAST(COUNT(*) AS INT) FROM v GROUP BY store;
        END;
    """) % os.path.join(os.environ.get("TMPDIR", "/tmp"), "sluice-rest-ckpt-%d" % os.getpid())
    sluice(binary, sql)
    cat = RestCatalog("rest", uri=URI, warehouse=WAREHOUSE)
    lines = cat.load_table("stream.lines")
    rows = sorted((r["id"], r["store"], str(r["amount"])) for r in lines.scan().to_arrow().to_pylist())
    want = sorted((i, "S-%d" % (i % 5), "%.2f" % (i / 4)) for i in range(1, 401))
    check(rows == want, f"lines through REST, read by PyIceberg: {rows[:3]}... ({len(rows)} rows)")
    snaps = lines.metadata.snapshots
    ops = [s.summary.operation.value for s in snaps]
    check(len(snaps) >= 2 and all(op == "append" for op in ops), f"one append snapshot per checkpoint with data: {ops}")
    sql = catalog_ddl("lake") + " SELECT store_id, business_date, amount, qty FROM lake.`stream`.store_sales_daily;"
    out = subprocess.run([binary, "run", "--format", "jsonl", "-e", sql], capture_output=True, text=True)
    check(out.returncode == 0, f"SELECT through REST failed:\n{out.stderr}")
    got = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    want = []
    for k in range(5):
        ids = [i for i in range(1, 401) if i % 5 == k]
        want.append({"op": "+I", "store_id": "S-%d" % k, "business_date": "2026-08-15",
                     "amount": round(sum(ids) / 4, 2), "qty": len(ids)})
    got = [dict(r, amount=round(float(r["amount"]), 2)) for r in got]
    check(sorted(got, key=lambda r: r["store_id"]) == want,
          f"upsert table through REST read back by Sluice:\n{got}\nwant\n{want}")


def check_errors_and_oauth(binary):
    out = sluice(binary, catalog_ddl("lake", ", 'credential' = 'sluice-client:s3cr3t-value', 'scope' = 'catalog'")
                 + " SHOW DATABASES IN lake;")
    check("stream" in out, f"OAuth2 client credentials:\n{out}")
    out = sluice(binary, f"CREATE CATALOG bad WITH ('type' = 'iceberg', 'catalog-type' = 'rest', "
                         f"'uri' = '{URI}/wrong', 'token' = 's3cr3t-value');", expect_ok=False)
    check(f"Iceberg REST catalog 'bad' at {URI}/wrong: GET {URI}/wrong/v1/config answered" in out, f"wrong uri:\n{out}")
    check("s3cr3t" not in out, f"a secret in an error:\n{out}")
    out = sluice(binary, "CREATE CATALOG down WITH ('type' = 'iceberg', 'catalog-type' = 'rest', "
                         "'uri' = 'http://127.0.0.1:1');", expect_ok=False)
    check("Iceberg REST catalog 'down' at http://127.0.0.1:1: cannot reach the catalog" in out, f"down:\n{out}")
    out = sluice(binary, catalog_ddl("lake") + " DESCRIBE lake.`stream`.nope;", expect_ok=False)
    check("Object 'nope' not found within 'lake.stream'" in out, f"missing table:\n{out}")


def main():
    binary, connectors_test = sys.argv[1], sys.argv[2]
    create_tables(binary)
    check_with_pyiceberg()
    run_commits(connectors_test)
    insert_and_read(binary)
    check_errors_and_oauth(binary)
    print("iceberg REST interop: OK")


if __name__ == "__main__":
    main()
