"""Iceberg on object storage through a Polaris catalog with vended credentials (issue 18), against the
Polaris stand-in of tests/interop/polaris_server.sh (Iceberg's REST catalog server, warehouse in s3:// on
moto; Polaris 1.8.0 itself cannot run here, docs/iceberg_s3.md):

  1. the seed's Step 1: as root, a catalog, namespace `stream`, a principal for the job and a role with
     only TABLE_CREATE, TABLE_LIST, TABLE_READ_DATA, TABLE_WRITE_DATA, NAMESPACE_LIST and
     NAMESPACE_READ_PROPERTIES on `stream`;
  2. a checkpointed Sluice job as that principal ('credential', 'scope', 'oauth2-server-uri',
     'header.X-Iceberg-Access-Delegation' = 'vended-credentials'; no storage keys anywhere) creates and
     writes a table in s3://, outliving its OAuth2 token and its vended storage credentials (the stand-in
     runs with lifetimes of a few seconds and revokes expired credentials), so both are refreshed;
  3. Sluice reads the rows back as the job, PyIceberg reads them through the catalog with vended
     credentials;
  4. DROP TABLE by the job is refused with the catalog's message naming the table; root drops it;
  5. no secret (the principals' secrets, tokens, vended keys and session tokens) appears in EXPLAIN, SHOW CREATE
     TABLE, SHOW CREATE CATALOG, DESCRIBE CATALOG EXTENDED, errors, logs or checkpoint files.

Usage: iceberg_polaris_interop.py <path to sluice>
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import urllib.request

from pyiceberg.catalog.rest import RestCatalog

URI = os.environ["POLARIS_URI"]
ROWS = 6000
# Sluice sees no storage keys: only what the catalog vends.
ENV = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
OUTPUTS = []


def check(cond, what):
    if not cond:
        sys.exit(f"FAILED: {what}")


def sluice(binary, sql, expect_ok=True):
    out = subprocess.run([binary, "run", "-e", sql], capture_output=True, text=True, timeout=300, env=ENV)
    text = out.stdout + out.stderr
    OUTPUTS.append(text)
    if expect_ok and out.returncode != 0:
        sys.exit(f"sluice run failed ({out.returncode}):\n{sql}\n{text}")
    if not expect_ok and out.returncode == 0:
        sys.exit(f"sluice run should have failed:\n{sql}\n{text}")
    return text


def catalog_ddl(credential):
    return (f"CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'rest', 'uri' = '{URI}', "
            f"'warehouse' = 'larkspur', 'credential' = '{credential}', 'scope' = 'PRINCIPAL_ROLE:ALL', "
            f"'oauth2-server-uri' = '{URI}/v1/oauth/tokens', "
            f"'header.X-Iceberg-Access-Delegation' = 'vended-credentials');\n")


def stats():
    with urllib.request.urlopen(os.environ["POLARIS_STATS_URI"], timeout=30) as r:
        return json.load(r)


def main(binary):
    job = subprocess.run([sys.executable, str(pathlib.Path(__file__).with_name("polaris_setup.py"))],
                         capture_output=True, text=True, check=True).stdout.strip()
    root = os.environ["POLARIS_ROOT_CREDENTIAL"]
    before = stats()
    checkpoints = tempfile.mkdtemp(prefix="sluice-polaris-ck-")

    # 2. The job, as its principal: creates and writes a table, with checkpoints, for at least
    # ROWS / rows-per-second seconds (longer than the token's and the credentials' lives).
    insert = ("INSERT INTO lake.`stream`.sales SELECT id, CONCAT('store-', CAST(id % 7 AS STRING)), "
              "CAST(id AS DECIMAL(10, 2)) FROM gen;")
    sql = ("SET 'execution.checkpointing.interval' = '500 ms';\n"
           f"SET 'state.checkpoints.dir' = '{checkpoints}';\nSET 'pipeline.name' = 'polaris';\n" +
           catalog_ddl(job) +
           "CREATE TABLE IF NOT EXISTS lake.`stream`.sales (id BIGINT, store STRING, amount DECIMAL(10, 2));\n"
           f"CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '{ROWS}', "
           f"'rows-per-second' = '1000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
           f"'fields.id.end' = '{ROWS}');\n")
    shown = sluice(binary, sql + "EXPLAIN " + insert +
                   "SHOW CREATE TABLE lake.`stream`.sales;\nSHOW CREATE CATALOG lake;\n"
                   "DESCRIBE CATALOG EXTENDED lake;\n" + insert)
    check("CREATE CATALOG `lake`" in shown and "option:credential" in shown and "******" in shown,
          f"SHOW CREATE CATALOG and DESCRIBE CATALOG EXTENDED ran, the credential masked:\n{shown[:2000]}")
    after = stats()
    table = f"{os.environ['POLARIS_WAREHOUSE_LOCATION']}/stream/sales"
    tokens = after["tokens"].get("sluice", 0) - before["tokens"].get("sluice", 0)
    check(tokens >= 2, f"the job's OAuth2 token was refreshed ({tokens} tokens issued)")
    check(after["vended"].get(table, 0) >= 3, f"the table's vended credentials were refreshed: {after['vended']}")
    check(after["revoked"] >= 1, f"expired credentials were revoked while the job ran: {after}")
    print(f"job: ok ({tokens} tokens, {after['vended'][table]} credential sets vended, "
          f"{after['revoked']} revoked, {after['expired_tokens']} expired tokens refused)")

    # 3. Sluice and PyIceberg read the rows back.
    out = sluice(binary, catalog_ddl(job) + "SELECT COUNT(*) AS n, SUM(id) AS s FROM lake.`stream`.sales;")
    check(str(ROWS) in out and str(ROWS * (ROWS + 1) // 2) in out, f"Sluice reads every row once:\n{out}")
    rest = RestCatalog("lake", uri=URI, warehouse="larkspur", credential=job, scope="PRINCIPAL_ROLE:ALL",
                       **{"header.X-Iceberg-Access-Delegation": "vended-credentials"})
    rows = rest.load_table(("stream", "sales")).scan().to_arrow().to_pylist()
    ids = sorted(r["id"] for r in rows)
    check(ids == list(range(1, ROWS + 1)), f"PyIceberg reads {len(ids)} rows, each once")
    check(rows[0]["store"] == f"store-{rows[0]['id'] % 7}", f"PyIceberg reads the columns: {rows[0]}")
    print(f"read back: ok (Sluice and PyIceberg, {len(ids)} rows)")

    # 4. The job may not drop; root may.
    out = sluice(binary, catalog_ddl(job) + "DROP TABLE lake.`stream`.sales;", expect_ok=False)
    check("is not authorized for op DROP_TABLE_WITHOUT_PURGE" in out and "Principal 'sluice'" in out,
          f"the catalog's refusal is surfaced:\n{out}")
    check("DELETE /v1/larkspur/namespaces/stream/tables/sales answered 403" in out,
          f"the refusal names the table:\n{out}")
    check("(a privilege the catalog has not granted)" in out and "'credential'" not in out,
          f"a refusal is not taken for a wrong credential:\n{out}")
    sluice(binary, catalog_ddl(root) + "DROP TABLE lake.`stream`.sales;")
    check(not rest.table_exists(("stream", "sales")), "root dropped the table")
    print("drop: ok (refused for the job, done by root): " + next(l for l in out.splitlines() if "DROP_TABLE" in l))

    # 5. No secret anywhere.
    final = stats()
    secrets = [job.split(":", 1)[1], root.split(":", 1)[1]] + final["issued_secrets"]
    files = [p for p in pathlib.Path(checkpoints).rglob("*") if p.is_file()]
    check(files, "the job wrote checkpoint files")
    blobs = OUTPUTS + [p.read_bytes().decode("latin-1") for p in files]
    for s in secrets:
        for blob in blobs:
            check(s not in blob, f"a secret appears in an output or checkpoint file:\n{blob[:2000]}")
    print(f"secrets: ok ({len(secrets)} secrets, {len(OUTPUTS)} outputs, {len(files)} checkpoint files)")
    shutil.rmtree(checkpoints)


if __name__ == "__main__":
    main(sys.argv[1])
