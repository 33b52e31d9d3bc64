"""Parquet upload throughput to a local S3 server (moto) against boto3's multipart upload of the same bytes.

Run under tests/interop/s3_server.sh (which starts moto and sets S3_ENDPOINT and the keys):

  bash tests/interop/s3_server.sh .venv/bin/python bench/iceberg/s3_upload_vs_boto3.py build/sluice [rows]

Three timings in one run, same machine, same server: Sluice writing the table to a local warehouse
(generation + Parquet encoding, no upload), Sluice writing it to s3:// (the same + upload through the
S3 FileIO, multipart with 's3.multipart.size' = 8 MiB and 's3.multipart.num-threads' = 4), and boto3
uploading the resulting data file's bytes with a plain multipart upload of the same part size, once
one part at a time and once with 4 parts in flight (as Sluice). The upload's own cost is roughly the
second minus the first; boto3 is the reference for it. Numbers are printed, never asserted.
"""
import io
import os
import subprocess
import sys
import tempfile
import time

import boto3
from boto3.s3.transfer import TransferConfig

ENDPOINT = os.environ["S3_ENDPOINT"]
KEY_ID = os.environ["S3_ACCESS_KEY_ID"]
SECRET = os.environ["S3_SECRET_ACCESS_KEY"]
PART = 8 * 1024 * 1024
THREADS = 4


def run(binary, sql):
    t = time.monotonic()
    subprocess.run([binary, "run", "-e", sql], check=True, capture_output=True, text=True)
    return time.monotonic() - t


def main():
    binary = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 400000
    s3 = boto3.client("s3", endpoint_url=ENDPOINT, region_name="us-east-1",
                      aws_access_key_id=KEY_ID, aws_secret_access_key=SECRET)
    s3.create_bucket(Bucket="bench")
    gen = (f"CREATE TEMPORARY TABLE gen (id BIGINT, payload STRING) WITH ('connector' = 'datagen', "
           f"'number-of-rows' = '{rows}', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
           f"'fields.id.end' = '{rows}', 'fields.payload.length' = '200');")
    table = ("CREATE TABLE lake.db.t (id BIGINT, payload STRING) WITH "
             "('write.parquet.compression-codec' = 'uncompressed');")
    with tempfile.TemporaryDirectory() as tmp:
        local = (f"CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = '{tmp}');"
                 "CREATE DATABASE lake.db;" + table + gen + "INSERT INTO lake.db.t SELECT * FROM gen;")
        t_local = run(binary, local)
    remote = (f"CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', "
              f"'warehouse' = 's3://bench/wh', 's3.endpoint' = '{ENDPOINT}', 's3.path-style-access' = 'true', "
              f"'s3.access-key-id' = '{KEY_ID}', 's3.secret-access-key' = '{SECRET}', "
              f"'s3.multipart.size' = '{PART}', 's3.multipart.num-threads' = '{THREADS}');"
              "CREATE DATABASE lake.db;" + table + gen + "INSERT INTO lake.db.t SELECT * FROM gen;")
    t_s3 = run(binary, remote)
    objs = s3.list_objects_v2(Bucket="bench", Prefix="wh/db/t/data/")["Contents"]
    data = max(objs, key=lambda o: o["Size"])
    body = s3.get_object(Bucket="bench", Key=data["Key"])["Body"].read()
    cfg = TransferConfig(multipart_threshold=PART, multipart_chunksize=PART, max_concurrency=1, use_threads=False)
    t = time.monotonic()
    s3.upload_fileobj(io.BytesIO(body), "bench", "boto3/copy.parquet", Config=cfg)
    t_boto = time.monotonic() - t
    cfg = TransferConfig(multipart_threshold=PART, multipart_chunksize=PART, max_concurrency=THREADS, use_threads=True)
    t = time.monotonic()
    s3.upload_fileobj(io.BytesIO(body), "bench", "boto3/copy4.parquet", Config=cfg)
    t_boto4 = time.monotonic() - t
    mb = len(body) / 1e6
    print(f"rows {rows}, data file {mb:.1f} MB, part size {PART >> 20} MiB")
    print(f"sluice -> local warehouse   {t_local:7.2f} s")
    print(f"sluice -> s3 (moto)         {t_s3:7.2f} s   upload share ~{max(t_s3 - t_local, 1e-9):.2f} s "
          f"= {mb / max(t_s3 - t_local, 1e-9):.1f} MB/s")
    print(f"boto3 multipart, same bytes {t_boto:7.2f} s   = {mb / t_boto:.1f} MB/s (one part at a time)")
    print(f"boto3 multipart, same bytes {t_boto4:7.2f} s   = {mb / t_boto4:.1f} MB/s ({THREADS} parts in flight)")


if __name__ == "__main__":
    main()
