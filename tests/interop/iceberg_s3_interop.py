"""Iceberg tables and checkpoints on object storage, against moto's S3 server
(tests/interop/s3_server.sh runs this script with S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY):

  1. round trip: `sluice run` writes an Iceberg table (hadoop catalog, warehouse s3://...), reads it back,
     and PyIceberg (pyarrow's S3 filesystem) reads the same rows as the independent reader;
  2. multipart: a data file above 's3.multipart.size' is uploaded in parts (its ETag ends in -<parts>)
     and reads back whole;
  3. a job killed (SIGKILL) while a multipart upload is in progress leaves no object visible under the
     upload's key and no new snapshot;
  4. a wrong secret key gets a clear error naming the object and S3's 403;
  5. checkpoints in S3 ('state.checkpoints.dir' = 's3://...'): a job killed after its third checkpoint
     committed restores from the store's checkpoints, and the table holds every row exactly once; the
     restart removes the local staging directory the killed job left.

Usage: iceberg_s3_interop.py <path to sluice>
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import boto3
from pyiceberg.table import StaticTable

ENDPOINT = os.environ["S3_ENDPOINT"]
KEY_ID = os.environ["S3_ACCESS_KEY_ID"]
SECRET = os.environ["S3_SECRET_ACCESS_KEY"]
BUCKET = "lake"


def check(cond, what):
    if not cond:
        sys.exit(f"FAILED: {what}")


def sluice(binary, sql, expect_ok=True):
    out = subprocess.run([binary, "run", "-e", sql], capture_output=True, text=True, timeout=120)
    if expect_ok and out.returncode != 0:
        sys.exit(f"sluice run failed ({out.returncode}):\n{sql}\n{out.stdout}\n{out.stderr}")
    if not expect_ok and out.returncode == 0:
        sys.exit(f"sluice run should have failed:\n{sql}\n{out.stdout}")
    return out.stdout + out.stderr


def catalog_ddl(name, secret=SECRET, extra=""):
    return (f"CREATE CATALOG {name} WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
            f"'warehouse' = 's3://{BUCKET}/wh', 's3.endpoint' = '{ENDPOINT}', 's3.path-style-access' = 'true', "
            f"'s3.access-key-id' = '{KEY_ID}', 's3.secret-access-key' = '{secret}', "
            f"'client.region' = 'us-east-1'{extra});")


def s3_client():
    return boto3.client("s3", endpoint_url=ENDPOINT, region_name="us-east-1",
                        aws_access_key_id=KEY_ID, aws_secret_access_key=SECRET)


def keys(prefix):
    pages = s3_client().get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix)
    return {o["Key"]: o for page in pages for o in page.get("Contents", [])}


def pyiceberg_rows(table):
    metadata = sorted((k for k in keys(f"wh/db/{table}/metadata/") if k.endswith(".metadata.json")),
                      key=lambda k: int(k.rsplit("/v", 1)[1].split(".")[0]))
    check(metadata, f"{table} has metadata files")
    t = StaticTable.from_metadata(f"s3://{BUCKET}/{metadata[-1]}", properties={
        "s3.endpoint": ENDPOINT, "s3.access-key-id": KEY_ID, "s3.secret-access-key": SECRET,
        "s3.region": "us-east-1", "s3.path-style-access": "true"})
    return sorted(tuple(r.values()) for r in t.scan().to_arrow().to_pylist())


def round_trip(binary):
    sluice(binary, catalog_ddl("lake") + """
        CREATE DATABASE lake.db;
        CREATE TABLE lake.db.orders (id BIGINT, customer STRING, amount DECIMAL(10, 2));
        INSERT INTO lake.db.orders VALUES (1, 'ann', 10.50), (2, 'bob', 7.25), (3, 'cy', 0.99);
    """)
    out = sluice(binary, catalog_ddl("lake") + "SELECT id, customer, amount FROM lake.db.orders;")
    for row in ("ann", "bob", "cy", "10.50", "0.99"):
        check(row in out, f"Sluice reads back {row}:\n{out}")
    rows = pyiceberg_rows("orders")
    check([(r[0], r[1], str(r[2])) for r in rows] == [(1, "ann", "10.50"), (2, "bob", "7.25"), (3, "cy", "0.99")],
          f"PyIceberg reads the table Sluice wrote: {rows}")
    check(not [k for k in keys("wh/") if "/." in k], "no temporary objects left")
    print("round trip: ok")


BIG = ("CREATE TEMPORARY TABLE gen (id BIGINT, payload STRING) WITH ('connector' = 'datagen', "
       "'number-of-rows' = '{rows}', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
       "'fields.id.end' = '{rows}', 'fields.payload.length' = '200');")
BIG_TABLE = ("CREATE TABLE IF NOT EXISTS lake.db.{name} (id BIGINT, payload STRING) "
             "WITH ('write.parquet.compression-codec' = 'uncompressed', 'write.parquet.row-group-size-bytes' = '1048576');")


def multipart(binary):
    part = 5 * 1024 * 1024
    sluice(binary, catalog_ddl("lake", extra=f", 's3.multipart.size' = '{part}'") + BIG.format(rows=60000) +
           BIG_TABLE.format(name="big") + "INSERT INTO lake.db.big SELECT id, payload FROM gen;")
    data = {k: o for k, o in keys("wh/db/big/data/").items() if k.endswith(".parquet")}
    check(len(data) == 1, f"one data file: {list(data)}")
    (obj,) = data.values()
    check(obj["Size"] > part, f"the data file ({obj['Size']} bytes) is above the part size")
    check("-" in obj["ETag"], f"uploaded in parts (multipart ETag): {obj['ETag']}")
    rows = pyiceberg_rows("big")
    check(len(rows) == 60000 and rows[0][0] == 1 and rows[-1][0] == 60000, f"PyIceberg reads {len(rows)} rows")
    print(f"multipart: ok ({obj['Size']} bytes, ETag {obj['ETag']})")


def kill_during_upload(binary):
    before = set(keys("wh/db/big/"))
    part = 5 * 1024 * 1024
    sql = (catalog_ddl("lake", extra=f", 's3.multipart.size' = '{part}'") + BIG.format(rows=400000) +
           BIG_TABLE.format(name="big") + "INSERT INTO lake.db.big SELECT id, payload FROM gen;")
    proc = subprocess.Popen([binary, "run", "-e", sql], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    s3 = s3_client()
    deadline = time.monotonic() + 60
    uploads = []
    while not uploads and proc.poll() is None and time.monotonic() < deadline:
        uploads = s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads", [])
    check(uploads, "saw a multipart upload in progress before the job ended")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    after = set(keys("wh/db/big/"))
    for u in uploads:
        check(u["Key"] not in after, f"the killed upload's key {u['Key']} is not visible")
    check(after == before, f"nothing new is visible after the kill: {sorted(after - before)}")
    check(len(pyiceberg_rows("big")) == 60000, "the table still reads its committed rows")
    print(f"kill during upload: ok ({len(uploads)} upload(s) left incomplete, invisible)")


def wrong_key(binary):
    out = sluice(binary, catalog_ddl("bad", secret="not-the-secret") + "SELECT id FROM bad.db.orders;",
                 expect_ok=False)
    check("Access denied to 's3://lake/wh/db/orders" in out, f"the error names the object:\n{out}")
    check("403" in out and "SignatureDoesNotMatch" in out, f"the error carries S3's answer:\n{out}")
    check("not-the-secret" not in out and SECRET not in out, f"no secret in the error:\n{out}")
    print("wrong key: ok")


def checkpoints(binary):
    n = 3000
    sql = ("SET 'execution.checkpointing.interval' = '50 ms';\n"
           f"SET 'state.checkpoints.dir' = 's3://{BUCKET}/checkpoints';\nSET 'pipeline.name' = 'ice';\n" +
           catalog_ddl("lake") +
           "CREATE TABLE IF NOT EXISTS lake.db.ck (id BIGINT);\n"
           f"CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '{n}', "
           f"'rows-per-second' = '1000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
           f"'fields.id.end' = '{n}');\n"
           "INSERT INTO lake.db.ck SELECT id FROM src;")
    env = dict(os.environ, AWS_ENDPOINT_URL=ENDPOINT, AWS_ACCESS_KEY_ID=KEY_ID, AWS_SECRET_ACCESS_KEY=SECRET,
               AWS_REGION="us-east-1", SLUICE_FAILPOINT="checkpoint.after-commit@3",
               TMPDIR=tempfile.mkdtemp(prefix="sluice-s3-tmp-"))
    killed = subprocess.run([binary, "run", "-e", sql], capture_output=True, text=True, env=env, timeout=120)
    check(killed.returncode != 0, f"the failpoint killed the job:\n{killed.stdout}\n{killed.stderr}")
    staging = lambda: [p for p in os.listdir(env["TMPDIR"]) if p.startswith("sluice-checkpoints-")]  # noqa: E731
    check(staging(), "the killed job left its local checkpoint staging directory")
    stored = [k for k in keys("checkpoints/ice/") if k.endswith("/_metadata")]
    check(stored, f"checkpoints are in the store: {sorted(keys('checkpoints/'))}")
    check(not [k for k in keys("checkpoints/") if ".inprogress" in k or k.endswith(".tmp")],
          "no temporary checkpoint objects in the store")
    partial = pyiceberg_rows("ck")
    # How many rows the third checkpoint holds depends on timing (all of them on a slow machine): the
    # restart below must restore from the store and add exactly the rest.
    check(0 < len(partial) <= n, f"the killed job committed rows at its checkpoints ({len(partial)})")
    del env["SLUICE_FAILPOINT"]
    done = subprocess.run([binary, "run", "-e", sql], capture_output=True, text=True, env=env, timeout=120)
    check(done.returncode == 0, f"the restarted job finished:\n{done.stdout}\n{done.stderr}")
    check("restored_from=chk-" in done.stdout + done.stderr,
          f"the restarted job restored from a checkpoint in the store:\n{done.stdout}\n{done.stderr}")
    check(not staging(), f"the restart removed the killed job's staging directory: {staging()}")
    shutil.rmtree(env["TMPDIR"])
    rows = [r[0] for r in pyiceberg_rows("ck")]
    check(rows == list(range(1, n + 1)), f"every row exactly once after the restore ({len(rows)} rows)")
    print(f"checkpoints in S3: ok (killed with {len(partial)} rows committed, {stored[0]} ...)")


def main():
    binary = sys.argv[1]
    s3_client().create_bucket(Bucket=BUCKET)
    round_trip(binary)
    multipart(binary)
    kill_during_upload(binary)
    wrong_key(binary)
    checkpoints(binary)
    print("iceberg_s3_interop: all passed")


if __name__ == "__main__":
    main()
