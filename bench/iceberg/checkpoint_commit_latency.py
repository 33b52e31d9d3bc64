"""Time from a checkpoint to its committed Iceberg snapshot: through a REST catalog (the Polaris stand-in in
front of Iceberg's REST catalog server, table files in s3:// on moto with vended credentials) against the
local hadoop catalog, same job, same run.

Run under tests/interop/polaris_server.sh (which starts the three servers):

  bash tests/interop/polaris_server.sh python3 bench/iceberg/checkpoint_commit_latency.py build/sluice [rows]

The job: a datagen source at 2,000 rows/s into an Iceberg table, a checkpoint every 500 ms, every
checkpoint retained. For checkpoint N, the start is when its chk-N/_metadata was written (the checkpoint
is durable: the sink's commit comes after), the end is when the snapshot carrying
flink.max-committed-checkpoint-id = N was committed: for the hadoop catalog the modification time of the
v<K>.metadata.json whose current snapshot carries N; for the REST catalog the time the stand-in saw the
commit request answered (GET /standin/stats). Both clocks are this machine's. The commit through the
catalog includes writing the manifest list and manifests to s3:// and the REST round trip, in which the
server writes the new metadata file to s3://. Numbers are printed, never asserted.
"""
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import urllib.request

RATE = 2000
ENV = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}


def run(binary, catalog_ddl, table, rows, checkpoints):
    sql = (f"SET 'execution.checkpointing.interval' = '500 ms';\nSET 'state.checkpoints.dir' = '{checkpoints}';\n"
           "SET 'state.checkpoints.num-retained' = '1000';\nSET 'pipeline.name' = 'bench';\n" + catalog_ddl +
           f"CREATE TABLE IF NOT EXISTS {table} (id BIGINT, payload STRING);\n"
           f"CREATE TEMPORARY TABLE gen (id BIGINT, payload STRING) WITH ('connector' = 'datagen', "
           f"'number-of-rows' = '{rows}', 'rows-per-second' = '{RATE}', 'fields.payload.length' = '100');\n"
           f"INSERT INTO {table} SELECT id, payload FROM gen;")
    out = subprocess.run([binary, "run", "-e", sql], capture_output=True, text=True, env=ENV)
    if out.returncode != 0:
        sys.exit(f"sluice run failed:\n{out.stdout}\n{out.stderr}")


def checkpoint_times(checkpoints):
    """checkpoint id -> ms when its _metadata was written."""
    return {int(p.parent.name[len("chk-"):]): p.stat().st_mtime_ns / 1e6
            for p in pathlib.Path(checkpoints).glob("*/chk-*/_metadata")}


def hadoop_commits(warehouse):
    done = {}
    for m in pathlib.Path(warehouse).glob("db/t/metadata/v*.metadata.json"):
        md = json.loads(m.read_text())
        current = [s for s in md.get("snapshots", []) if s["snapshot-id"] == md.get("current-snapshot-id")]
        if current and "flink.max-committed-checkpoint-id" in current[0]["summary"]:
            done[int(current[0]["summary"]["flink.max-committed-checkpoint-id"])] = m.stat().st_mtime_ns / 1e6
    return done


def latencies(started, done):
    return [done[c] - started[c] for c in sorted(done) if c in started]


def describe(name, values):
    if not values:
        return f"{name:34s} no checkpoint matched"
    return (f"{name:34s} {len(values):3d} commits  median {statistics.median(values):7.1f} ms  "
            f"min {min(values):7.1f} ms  max {max(values):7.1f} ms")


def main():
    binary = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    credential = subprocess.run([sys.executable, str(pathlib.Path(__file__).parents[2] / "tests/interop/polaris_setup.py")],
                                capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="sluice-commit-bench-") as tmp:
        local_ck, rest_ck, warehouse = f"{tmp}/ck-local", f"{tmp}/ck-rest", f"{tmp}/wh"
        run(binary, f"CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = '{warehouse}');\n"
            "CREATE DATABASE IF NOT EXISTS lake.db;\n", "lake.db.t", rows, local_ck)
        uri = os.environ["POLARIS_URI"]
        run(binary, f"CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'rest', 'uri' = '{uri}', "
            f"'warehouse' = 'larkspur', 'credential' = '{credential}', 'scope' = 'PRINCIPAL_ROLE:ALL', "
            "'header.X-Iceberg-Access-Delegation' = 'vended-credentials');\n", "lake.`stream`.t", rows, rest_ck)
        with urllib.request.urlopen(os.environ["POLARIS_STATS_URI"], timeout=30) as r:
            rest_done = {c["checkpoint"]: c["done_ms"] for c in json.load(r)["commits"] if c["table"] == "stream.t"}
        print(f"checkpoint -> committed snapshot, {rows} rows at {RATE} rows/s, a checkpoint every 500 ms:")
        print(describe("local hadoop catalog", latencies(checkpoint_times(local_ck), hadoop_commits(warehouse))))
        print(describe("REST catalog (Polaris stand-in, s3)", latencies(checkpoint_times(rest_ck), rest_done)))


if __name__ == "__main__":
    main()
