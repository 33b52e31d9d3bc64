"""The Iceberg sink against independent readers (issue 16; ctest interop.iceberg_sink).

Runs `sluice run` scripts that write Iceberg tables in a hadoop warehouse, then reads the tables with
PyIceberg 0.12 (StaticTable from the metadata file), DuckDB on the Parquet files the metadata lists,
and iceberg_read.py (fastavro + pyarrow, deletes applied from the spec) for the tables with equality
deletes, which PyIceberg must refuse. Rows are compared exactly with what the SQL computes (the
expected rows are computed here in Python from the same generator formulas).

  with_venv.sh iceberg_sink_check.py --sluice build/sluice --work /tmp/x
"""
import argparse
import collections
import datetime
import decimal
import glob
import json
import os
import shutil
import subprocess
import sys

import duckdb
from pyiceberg.table import StaticTable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iceberg_read  # noqa: E402

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)


def run_sql(sluice, work, name, sql, env=None, expect_ok=True):
    path = os.path.join(work, name + ".sql")
    with open(path, "w") as f:
        f.write(sql)
    p = subprocess.run([sluice, "run", path], capture_output=True, text=True, env=env, timeout=600)
    if expect_ok and p.returncode != 0:
        FAILURES.append("%s failed (rc=%s): %s" % (name, p.returncode, p.stderr[-2000:]))
        print("FAIL:", FAILURES[-1], flush=True)
    return p


def catalog(wh):
    return ("CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = 'file://%s');\n"
            "CREATE DATABASE IF NOT EXISTS lake.db;\n" % wh)


def static(table_dir):
    hint = open(os.path.join(table_dir, "metadata", "version-hint.text")).read().strip()
    return StaticTable.from_metadata("file://" + os.path.join(table_dir, "metadata", "v%s.metadata.json" % hint))


def pyiceberg_rows(table_dir):
    return [{k: iceberg_read.norm(v) for k, v in r.items()} for r in static(table_dir).scan().to_arrow().to_pylist()]


def duckdb_rows(table_dir):
    """DuckDB's Parquet reader on the data files of the current snapshot (append-only tables)."""
    md = iceberg_read.metadata(table_dir)
    data, deletes = iceberg_read.live_files(md)
    assert not deletes
    files = [iceberg_read.local(d["file"]["file_path"]) for d in data]
    if not files:
        return []
    rel = duckdb.sql("SELECT * FROM read_parquet(%s, hive_partitioning = false)" % json.dumps(files).replace('"', "'"))
    cols = rel.columns
    return [{c: iceberg_read.norm(v) for c, v in zip(cols, row)} for row in rel.fetchall()]


def sluice_rows(sluice, wh, table):
    """The table read back by Sluice's own Iceberg source (jsonl, the final rows)."""
    p = subprocess.run([sluice, "run", "--format", "jsonl", "--mode", "table", "-e",
                        catalog(wh) + "SELECT * FROM %s;" % table], capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, "Sluice reads %s: %s" % (table, p.stderr[-1000:]))
    return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def same_rows(want, got, what):
    a = collections.Counter(json.dumps(r, sort_keys=True) for r in want)
    b = collections.Counter(json.dumps(r, sort_keys=True) for r in got)
    if a != b:
        missing, extra = list((a - b).items())[:5], list((b - a).items())[:5]
        check(False, "%s: %d rows expected, %d read; missing %s extra %s" % (what, sum(a.values()), sum(b.values()),
                                                                            missing, extra))
    else:
        print("ok:", what, "(%d rows)" % sum(a.values()), flush=True)


def snapshots(table_dir):
    return iceberg_read.ancestry(iceberg_read.metadata(table_dir))[::-1]


def d(days):
    return (datetime.date(2026, 8, 15) + datetime.timedelta(days=days)).isoformat()


def test_append_partitioned(args, work):
    """Identity, bucket, day and hour partitions; rows read back by PyIceberg, DuckDB and iceberg_read."""
    wh = os.path.join(work, "wh_append")
    n = 500
    sql = catalog(wh) + """
CREATE TABLE IF NOT EXISTS lake.db.lines (id BIGINT NOT NULL, store STRING, qty INT, net DECIMAL(12, 2), price DOUBLE,
  business_date DATE, ts TIMESTAMP(6))
  PARTITIONED BY (business_date, bucket(4, store), hours(ts));
CREATE TABLE IF NOT EXISTS lake.db.plain (id BIGINT, store STRING);
CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '%d',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '%d');
EXECUTE STATEMENT SET BEGIN
INSERT INTO lake.db.lines SELECT id, CASE WHEN MOD(id, 7) = 0 THEN CAST(NULL AS STRING) ELSE CONCAT('S-', CAST(MOD(id, 5) AS STRING)) END,
  CAST(MOD(id, 3) AS INT), CAST(id AS DECIMAL(12, 2)) / 4, CAST(id AS DOUBLE) / 8,
  TIMESTAMPADD(DAY, CAST(MOD(id, 3) AS INT), DATE '2026-08-15'),
  TIMESTAMPADD(HOUR, CAST(MOD(id, 5) AS INT), TIMESTAMP '2026-08-15 05:00:00') FROM gen;
INSERT INTO lake.db.plain SELECT id, 'x' FROM gen;
END;
""" % (n, n - 1)
    p = run_sql(args.sluice, work, "append", sql)
    want = []
    for i in range(n):
        want.append({"id": i, "store": None if i % 7 == 0 else "S-%d" % (i % 5), "qty": i % 3,
                     "net": str(decimal.Decimal(i) / 4 if i % 4 else decimal.Decimal(i // 4)).split("E")[0],
                     "price": i / 8, "business_date": d(i % 3),
                     "ts": datetime.datetime(2026, 8, 15, 5 + i % 5).isoformat()})
    for w in want:
        w["net"] = "%.2f" % (decimal.Decimal(w["id"]) / 4)
    t = os.path.join(wh, "db", "lines")
    same_rows(want, pyiceberg_rows(t), "append partitioned: PyIceberg")
    same_rows(want, duckdb_rows(t), "append partitioned: DuckDB on the listed files")
    same_rows(want, iceberg_read.read_rows(iceberg_read.metadata(t)), "append partitioned: iceberg_read")
    tab = static(t)
    files = list(tab.scan().plan_files())
    check(len(files) == 3 * 5 * 5 or len(files) > 10, "partitioned files: %d" % len(files))
    # A filter PyIceberg prunes with the partition values and column bounds.
    got = tab.scan(row_filter="business_date = '2026-08-16' and id < 100").to_arrow().to_pylist()
    check(sorted(r["id"] for r in got) == [i for i in range(100) if i % 3 == 1], "pruned scan rows")
    snap = tab.current_snapshot()
    check(snap.summary.operation.value == "append", "operation append")
    s = snap.summary.additional_properties
    check(s.get("flink.max-committed-checkpoint-id") == "9223372036854775807", "end-of-input checkpoint id: %s" % s)
    check(s.get("added-records") == str(n) and s.get("total-records") == str(n), "summary records: %s" % s)
    check("stream" not in p.stderr and "db.lines" in p.stderr and "snapshots" in p.stderr, "summary table: " + p.stderr)
    # Re-running the job appends a new snapshot.
    run_sql(args.sluice, work, "append2", sql)
    same_rows(want + want, pyiceberg_rows(t), "append re-run: PyIceberg")
    check(len(snapshots(t)) == 2, "re-run: 2 snapshots")
    same_rows([{"id": i, "store": "x"} for i in range(n)] * 2, pyiceberg_rows(os.path.join(wh, "db", "plain")),
              "unpartitioned table")


def test_rolling(args, work):
    wh = os.path.join(work, "wh_roll")
    n = 20000
    sql = catalog(wh) + """
CREATE TABLE lake.db.r (id BIGINT, s STRING) WITH ('write.target-file-size-bytes' = '20000');
CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '%d',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '%d');
INSERT INTO lake.db.r /*+ OPTIONS('compression-codec' = 'snappy') */ SELECT id, CONCAT('row-', CAST(id AS STRING)) FROM gen;
""" % (n, n - 1)
    run_sql(args.sluice, work, "rolling", sql)
    t = os.path.join(wh, "db", "r")
    same_rows([{"id": i, "s": "row-%d" % i} for i in range(n)], pyiceberg_rows(t), "rolling files: PyIceberg")
    data, _ = iceberg_read.live_files(iceberg_read.metadata(t))
    check(len(data) > 3, "rolled into %d files" % len(data))
    import pyarrow.parquet as pq
    meta = pq.ParquetFile(iceberg_read.local(data[0]["file"]["file_path"])).metadata
    check(meta.row_group(0).column(0).compression == "SNAPPY", "compression-codec option: snappy")


def daily_expected(n):
    totals = {}
    for i in range(n):
        key = ("S-%d" % (i % 3), d(i % 2))
        c, s = totals.get(key, (0, 0))
        totals[key] = (c + 1, s + i)
    return [{"store_id": k[0], "business_date": k[1], "lines": c, "net": s} for k, (c, s) in totals.items()]


DAILY = """
CREATE TABLE IF NOT EXISTS lake.db.daily (store_id STRING NOT NULL, business_date DATE NOT NULL, lines BIGINT, net BIGINT,
  PRIMARY KEY (store_id, business_date) NOT ENFORCED) PARTITIONED BY (business_date)
  WITH ('format-version' = '2', 'write.upsert.enabled' = 'true');
CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '%d', %s
  'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '%d');
CREATE TEMPORARY VIEW lines AS SELECT CONCAT('S-', CAST(MOD(id, 3) AS STRING)) AS store_id,
  TIMESTAMPADD(DAY, CAST(MOD(id, 2) AS INT), DATE '2026-08-15') AS business_date, id FROM gen;
INSERT INTO lake.db.daily SELECT store_id, business_date, COUNT(*), SUM(id) FROM lines GROUP BY store_id, business_date;
"""


def test_upsert(args, work):
    """The seed's daily running total: upsert by the primary key; PyIceberg refuses the equality deletes."""
    wh = os.path.join(work, "wh_upsert")
    n = 3000
    p = run_sql(args.sluice, work, "upsert", catalog(wh) + DAILY % (n, "", n - 1))
    t = os.path.join(wh, "db", "daily")
    same_rows(daily_expected(n), iceberg_read.read_rows(iceberg_read.metadata(t)), "upsert: iceberg_read")
    try:
        static(t).scan().to_arrow()
        check(False, "PyIceberg read a table with equality deletes")
    except ValueError as e:
        check("equality deletes" in str(e), "PyIceberg refuses equality deletes: %s" % e)
    snap = snapshots(t)[-1]
    check(snap["summary"]["operation"] == "overwrite", "upsert operation overwrite")
    check(int(snap["summary"].get("added-equality-deletes", 0)) == 6, "6 equality deletes (one per key): %s" % snap["summary"])
    check(int(snap["summary"].get("added-position-deletes", 0)) == n - 6, "position deletes: %s" % snap["summary"])
    check("business_date,store_id" in p.stderr, "summary key columns: " + p.stderr)
    # A second run: its equality deletes remove the first run's rows (earlier sequence numbers).
    run_sql(args.sluice, work, "upsert2", catalog(wh) + DAILY % (n, "", n - 1))
    same_rows(daily_expected(n), iceberg_read.read_rows(iceberg_read.metadata(t)), "upsert re-run: iceberg_read")


def test_non_upsert(args, work):
    """An updating query without upsert: -U/-D become equality deletes of the full row."""
    wh = os.path.join(work, "wh_retract")
    n = 2000
    sql = catalog(wh) + """
CREATE TABLE lake.db.counts (k BIGINT, c BIGINT);
CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '%d',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '%d');
INSERT INTO lake.db.counts SELECT MOD(id, 10), COUNT(*) FROM gen GROUP BY MOD(id, 10);
""" % (n, n - 1)
    run_sql(args.sluice, work, "retract", sql)
    t = os.path.join(wh, "db", "counts")
    same_rows([{"k": k, "c": n // 10} for k in range(10)], iceberg_read.read_rows(iceberg_read.metadata(t)),
              "non-upsert updating query: iceberg_read")


def checkpointed_sql(wh, ckpt, n):
    return ("SET 'execution.checkpointing.interval' = '50 ms';\nSET 'state.checkpoints.dir' = '%s';\n"
            "SET 'pipeline.name' = 'ice';\nSET 'sluice.exec.chunk-size' = '64';\n" % ckpt) + catalog(wh) + DAILY % (
        n, "'rows-per-second' = '4000',", n - 1)


def test_checkpointed(args, work):
    """One snapshot per completed checkpoint, checkpoint ids increasing, and kills: the table equals an
    unkilled run's and no checkpoint id is committed twice."""
    n = 3000
    wh, ckpt = os.path.join(work, "wh_ckpt"), os.path.join(work, "ckpt")
    run_sql(args.sluice, work, "ckpt", checkpointed_sql(wh, ckpt, n))
    t = os.path.join(wh, "db", "daily")
    same_rows(daily_expected(n), iceberg_read.read_rows(iceberg_read.metadata(t)), "checkpointed upsert: iceberg_read")
    ids = iceberg_read.checkpoint_ids(iceberg_read.metadata(t))
    check(len(ids) > 2, "several checkpoint commits: %s" % ids)
    check([c for _, _, c in ids] == sorted(set(c for _, _, c in ids)), "checkpoint ids increase: %s" % ids)
    plans = [["sink.after-precommit@2"], ["checkpoint.before-commit@3"], ["checkpoint.after-sync@2"],
             ["sink.after-precommit@2", "restore.during@1"], ["checkpoint.before-commit@2", "checkpoint.before-commit@2"]]
    for plan in plans:
        fp = "+".join(plan)
        wh2, ckpt2 = os.path.join(work, "wh_kill"), os.path.join(work, "ckpt_kill")
        shutil.rmtree(wh2, ignore_errors=True)
        shutil.rmtree(ckpt2, ignore_errors=True)
        sql = checkpointed_sql(wh2, ckpt2, n)
        for attempt in range(10):
            env = dict(os.environ)
            if attempt < len(plan):
                env["SLUICE_FAILPOINT"] = plan[attempt]
            p = run_sql(args.sluice, work, "kill", sql, env=env, expect_ok=False)
            if p.returncode == 0:
                break
        check(p.returncode == 0, "%s: the job finished after restarts: %s" % (fp, p.stderr[-500:]))
        check(attempt == len(plan), "%s: every failpoint killed its run (finished at attempt %d)" % (fp, attempt))
        t2 = os.path.join(wh2, "db", "daily")
        md = iceberg_read.metadata(t2)
        same_rows(daily_expected(n), iceberg_read.read_rows(md), "killed at %s: iceberg_read" % fp)
        ids = [(j, o, c) for j, o, c in iceberg_read.checkpoint_ids(md)]
        check(len(ids) == len(set((o, c) for _, o, c in ids)), "%s: no checkpoint committed twice: %s" % (fp, ids))


def test_position_mode(args, work):
    """'sluice.write.delete-mode' = 'position': only position deletes, so PyIceberg reads the upsert
    table; across re-runs (the index is rebuilt from the table) and killed checkpointed runs."""
    n = 3000
    wh, ckpt = os.path.join(work, "wh_pos"), os.path.join(work, "ckpt_pos")
    sql = checkpointed_sql(wh, ckpt, n).replace(
        "'write.upsert.enabled' = 'true'", "'write.upsert.enabled' = 'true', 'sluice.write.delete-mode' = 'position'")
    t = os.path.join(wh, "db", "daily")
    for attempt in range(10):
        env = dict(os.environ)
        if attempt < 2:
            env["SLUICE_FAILPOINT"] = ["sink.after-precommit@2", "checkpoint.before-commit@2"][attempt]
        p = run_sql(args.sluice, work, "pos", sql, env=env, expect_ok=False)
        if p.returncode == 0:
            break
    check(p.returncode == 0 and attempt == 2, "position mode: killed twice, then finished: " + p.stderr[-500:])
    same_rows(daily_expected(n), pyiceberg_rows(t), "position mode, killed runs: PyIceberg")
    same_rows(daily_expected(n), iceberg_read.read_rows(iceberg_read.metadata(t)), "position mode: iceberg_read")
    # A second job on the same table: its index comes from the table.
    shutil.rmtree(ckpt, ignore_errors=True)
    run_sql(args.sluice, work, "pos2", sql)
    same_rows(daily_expected(n), pyiceberg_rows(t), "position mode, second job: PyIceberg")
    for s in snapshots(t):
        check(int(s["summary"].get("added-equality-deletes", 0)) == 0, "no equality deletes: %s" % s["summary"])
    ids = iceberg_read.checkpoint_ids(iceberg_read.metadata(t))
    check(len(ids) == len(set(ids)), "position mode: no checkpoint committed twice: %s" % ids)


def test_v3_deletion_vectors(args, work):
    """Format v3: the delta writer's position deletes are deletion vectors (Puffin), not position
    delete files, as the spec requires."""
    wh = os.path.join(work, "wh_v3")
    n = 3000
    sql = catalog(wh) + DAILY.replace("'format-version' = '2'", "'format-version' = '3'") % (n, "", n - 1)
    run_sql(args.sluice, work, "v3", sql)
    t = os.path.join(wh, "db", "daily")
    md = iceberg_read.metadata(t)
    check(md["format-version"] == 3, "a v3 table")
    same_rows(daily_expected(n), iceberg_read.read_rows(md), "v3 upsert with deletion vectors: iceberg_read")
    _, deletes = iceberg_read.live_files(md)
    formats = collections.Counter((d["file"]["content"], d["file"]["file_format"]) for d in deletes)
    check((1, "PARQUET") not in formats and formats[(1, "PUFFIN")] > 0, "v3 deletes are DVs: %s" % formats)
    summary = snapshots(t)[-1]["summary"]
    check(int(summary.get("added-dvs", 0)) == formats[(1, "PUFFIN")], "added-dvs: %s" % summary)


def test_job_id_per_job(args, work):
    """Every sink of one job (a statement set into two tables) records the same 'flink.job-id' and its
    own 'flink.operator-id', as Flink's committers do; the next job (not restored from the first one's
    checkpoints) has another id."""
    wh = os.path.join(work, "wh_jobid")
    sql = ("SET 'execution.checkpointing.interval' = '50 ms';\nSET 'state.checkpoints.dir' = '%s';\n"
           + catalog(wh)
           + "CREATE TABLE IF NOT EXISTS lake.db.a (id BIGINT);\nCREATE TABLE IF NOT EXISTS lake.db.b (id BIGINT);\n"
           "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '500',\n"
           "  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '500');\n"
           "EXECUTE STATEMENT SET BEGIN\nINSERT INTO lake.db.a SELECT id FROM gen;\n"
           "INSERT INTO lake.db.b SELECT id * 2 FROM gen;\nEND;\n")
    jobs = []
    for run in range(2):  # each run its own checkpoint folder: a new job, not a restore of the last one
        run_sql(args.sluice, work, "jobid%d" % run, sql % os.path.join(work, "ckpt_jobid%d" % run))
        ids_a = iceberg_read.checkpoint_ids(iceberg_read.metadata(os.path.join(wh, "db", "a")))
        ids_b = iceberg_read.checkpoint_ids(iceberg_read.metadata(os.path.join(wh, "db", "b")))
        check(ids_a and ids_b, "run %d: both tables committed with checkpoint ids: %s %s" % (run, ids_a, ids_b))
        if not (ids_a and ids_b):
            return
        job_a, op_a, _ = ids_a[-1]
        job_b, op_b, _ = ids_b[-1]
        check(job_a == job_b and len(job_a) == 32, "run %d: one flink.job-id for both sinks: %s %s" % (run, job_a, job_b))
        check(op_a != op_b, "run %d: each sink has its own flink.operator-id: %s %s" % (run, op_a, op_b))
        jobs.append(job_a)
    check(jobs[0] != jobs[1], "each job has its own id: %s" % jobs)


def check_one_dv_per_file(md, what):
    """The v3 rule in every snapshot of the current ancestry: at most one live DV per data file, and
    a DV replaced by a newer one (for the same file) keeps all its positions in the newer one."""
    seen = {}  # (Puffin path, offset) -> positions
    for snap in reversed(iceberg_read.ancestry(md)):
        one = dict(md, **{"current-snapshot-id": snap["snapshot-id"]})
        _, deletes = iceberg_read.live_files(one)
        per_file = collections.Counter(d["file"].get("referenced_data_file") for d in deletes
                                       if d["file"]["file_format"] == "PUFFIN")
        twice = [f for f, c in per_file.items() if c > 1]
        check(not twice, "%s: snapshot %s has two DVs for %s" % (what, snap["snapshot-id"], twice[:3]))
        for d in deletes:
            f = d["file"]
            key = (f["file_path"], f["content_offset"])
            if key not in seen:
                seen[key] = (f["referenced_data_file"], iceberg_read.dv_positions(f))
    latest = {}
    for ref, positions in seen.values():
        latest.setdefault(ref, []).append(positions)
    for ref, versions in latest.items():
        versions.sort(key=len)
        for a, b in zip(versions, versions[1:]):
            check(a <= b, "%s: a newer DV of %s dropped positions of the one it replaced" % (what, ref))


def test_dv_mode(args, work):
    """'sluice.write.delete-mode' = 'dv' on a format v3 table: every delete is a deletion vector,
    merged with the data file's previous one; PyIceberg, the pyroaring spec reader and Sluice agree,
    across killed checkpointed runs and a second job (the index and the DVs come from the table)."""
    n = 3000
    wh, ckpt = os.path.join(work, "wh_dv"), os.path.join(work, "ckpt_dv")
    sql = checkpointed_sql(wh, ckpt, n).replace("'format-version' = '2'", "'format-version' = '3'").replace(
        "'write.upsert.enabled' = 'true'", "'write.upsert.enabled' = 'true', 'sluice.write.delete-mode' = 'dv'")
    t = os.path.join(wh, "db", "daily")
    plan = ["sink.after-precommit@2", "checkpoint.before-commit@2", "checkpoint.after-sync@2"]
    for attempt in range(10):
        env = dict(os.environ)
        if attempt < len(plan):
            env["SLUICE_FAILPOINT"] = plan[attempt]
        p = run_sql(args.sluice, work, "dv", sql, env=env, expect_ok=False)
        if p.returncode == 0:
            break
    check(p.returncode == 0 and attempt == len(plan), "dv mode: killed %d times, then finished: %s" % (len(plan), p.stderr[-500:]))
    md = iceberg_read.metadata(t)
    check(md["format-version"] == 3, "dv mode: a v3 table")
    same_rows(daily_expected(n), pyiceberg_rows(t), "dv mode, killed runs: PyIceberg")
    same_rows(daily_expected(n), iceberg_read.read_rows(md), "dv mode, killed runs: iceberg_read (pyroaring)")
    ids = iceberg_read.checkpoint_ids(md)
    check(len(ids) > 2, "dv mode: several checkpoint commits: %s" % ids)
    check(len(ids) == len(set(ids)), "dv mode: no checkpoint committed twice: %s" % ids)
    # A second job on the same table: every key is updated again, in files of the first job.
    shutil.rmtree(ckpt, ignore_errors=True)
    run_sql(args.sluice, work, "dv2", sql)
    md = iceberg_read.metadata(t)
    same_rows(daily_expected(n), pyiceberg_rows(t), "dv mode, second job: PyIceberg")
    same_rows(daily_expected(n), iceberg_read.read_rows(md), "dv mode, second job: iceberg_read (pyroaring)")
    same_rows(daily_expected(n), sluice_rows(args.sluice, wh, "lake.db.daily"), "dv mode, second job: Sluice")
    for s in snapshots(t):
        summary = s["summary"]
        check(int(summary.get("added-equality-deletes", 0)) == 0 and int(summary.get("added-position-delete-files", 0)) == 0,
              "dv mode: only DVs: %s" % summary)
    removed = sum(int(s["summary"].get("removed-dvs", 0)) for s in snapshots(t))
    check(removed > 0, "dv mode: DVs of earlier snapshots were replaced (removed-dvs)")
    check_one_dv_per_file(md, "dv mode")
    ids = iceberg_read.checkpoint_ids(md)
    check(len(ids) == len(set(ids)), "dv mode: no checkpoint committed twice: %s" % ids)


def sluice_iceberg(sluice, *argv):
    """`sluice iceberg ...`: its "name<TAB>value" lines as a dict."""
    p = subprocess.run([sluice, "iceberg", *argv], capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, "sluice iceberg %s: %s" % (" ".join(argv), p.stderr[-1000:]))
    return {k: int(v) for k, v in (line.split("\t") for line in p.stdout.splitlines() if "\t" in line)}


def test_compact(args, work):
    """`sluice iceberg compact` (rewrite_data_files) and `expire-snapshots` on upsert tables of each
    delete mode: every reader agrees before and after; after compaction no delete file is left, so
    PyIceberg reads even the equality-delete table and DuckDB's Parquet reader sees the live rows; a
    later upsert job still applies to the compacted files; expiry leaves only the current snapshot's files."""
    n = 3000
    modes = [("equality", "2"), ("position", "2"), ("dv", "3")]
    for mode, version in modes:
        wh = os.path.join(work, "wh_compact_" + mode)
        sql = catalog(wh) + DAILY.replace("'format-version' = '2'", "'format-version' = '%s'" % version).replace(
            "'write.upsert.enabled' = 'true'", "'write.upsert.enabled' = 'true', 'sluice.write.delete-mode' = '%s'" % mode)
        run_sql(args.sluice, work, "compact_" + mode, sql % (n, "", n - 1))
        run_sql(args.sluice, work, "compact2_" + mode, sql % (n, "", n - 1))
        t = os.path.join(wh, "db", "daily")
        want = daily_expected(n)
        same_rows(want, iceberg_read.read_rows(iceberg_read.metadata(t)), "%s, before compaction: iceberg_read" % mode)
        if mode != "equality":
            same_rows(want, pyiceberg_rows(t), "%s, before compaction: PyIceberg" % mode)
        before = iceberg_read.live_files(iceberg_read.metadata(t))
        out = sluice_iceberg(args.sluice, "compact", wh, "db.daily")
        check(out.get("rewritten_data_files_count") == len(before[0]) and out.get("added_data_files_count") == 2
              and out.get("removed_delete_files_count") == len(before[1]), "%s: compact output %s" % (mode, out))
        md = iceberg_read.metadata(t)
        check(snapshots(t)[-1]["summary"]["operation"] == "replace", "%s: a replace snapshot" % mode)
        check(not iceberg_read.live_files(md)[1], "%s: no delete files after compaction" % mode)
        same_rows(want, iceberg_read.read_rows(md), "%s, compacted: iceberg_read" % mode)
        same_rows(want, pyiceberg_rows(t), "%s, compacted: PyIceberg" % mode)
        same_rows(want, duckdb_rows(t), "%s, compacted: DuckDB read_parquet" % mode)
        same_rows(want, sluice_rows(args.sluice, wh, "lake.db.daily"), "%s, compacted: Sluice" % mode)
        check(sluice_iceberg(args.sluice, "compact", wh, "db.daily").get("rewritten_data_files_count") == 0,
              "%s: a compacted table needs no compaction" % mode)
        # Another job upserts every key again: its deletes apply to the compacted files.
        run_sql(args.sluice, work, "compact3_" + mode, sql % (n, "", n - 1))
        same_rows(want, iceberg_read.read_rows(iceberg_read.metadata(t)), "%s, upserted after compaction: iceberg_read" % mode)
        same_rows(want, sluice_rows(args.sluice, wh, "lake.db.daily"), "%s, upserted after compaction: Sluice" % mode)
        out = sluice_iceberg(args.sluice, "expire-snapshots", wh, "db.daily", "--older-than", "2100-01-01 00:00:00",
                             "--retain-last", "1")
        md = iceberg_read.metadata(t)
        check(len(md["snapshots"]) == 1 and out.get("expired_snapshots_count") == 3 and out.get("deleted_data_files_count", 0) > 0,
              "%s: expire-snapshots output %s" % (mode, out))
        data, deletes = iceberg_read.live_files(md)
        live = set(iceberg_read.local(d["file"]["file_path"]) for d in data + deletes)
        on_disk = set(glob.glob(os.path.join(t, "data", "**", "*.*"), recursive=True))
        check(on_disk == live, "%s: after expiry the data directory holds the live files only: %s" % (mode, sorted(on_disk ^ live)[:5]))
        same_rows(want, iceberg_read.read_rows(md), "%s, expired: iceberg_read" % mode)
        if mode != "equality":
            same_rows(want, pyiceberg_rows(t), "%s, expired: PyIceberg" % mode)
        same_rows(want, sluice_rows(args.sluice, wh, "lake.db.daily"), "%s, expired: Sluice" % mode)


def orphan_lines(sluice, *argv):
    """`sluice iceberg remove-orphan-files ...`: the orphan_file_location values, as local paths."""
    p = subprocess.run([sluice, "iceberg", "remove-orphan-files", *argv], capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, "sluice iceberg remove-orphan-files %s: %s" % (" ".join(argv), p.stderr[-1000:]))
    out = []
    for line in p.stdout.splitlines():
        name, _, value = line.partition("\t")
        check(name == "orphan_file_location", "remove-orphan-files prints orphan_file_location lines: %r" % line)
        out.append(iceberg_read.local(value))
    return out


def reachable_files(table_dir):
    """What the table's metadata reaches, computed here from the spec: every snapshot's manifest list,
    manifests and their live entries' files, the statistics files, the current and logged metadata
    files and version-hint.text."""
    md = iceberg_read.metadata(table_dir)
    hint = open(os.path.join(table_dir, "metadata", "version-hint.text")).read().strip()
    out = {os.path.join(table_dir, "metadata", "version-hint.text"),
           os.path.join(table_dir, "metadata", "v%s.metadata.json" % hint)}
    out |= set(iceberg_read.local(e["metadata-file"]) for e in md.get("metadata-log", []))
    out |= set(iceberg_read.local(e["statistics-path"]) for e in md.get("statistics", []) + md.get("partition-statistics", []))
    for s in md.get("snapshots", []):
        out.add(iceberg_read.local(s["manifest-list"]))
        for m in iceberg_read.read_avro(s["manifest-list"]):
            out.add(iceberg_read.local(m["manifest_path"]))
            out |= set(iceberg_read.local(e["data_file"]["file_path"]) for e in iceberg_read.read_avro(m["manifest_path"])
                       if e["status"] != 2)
    return out


def listed_files(table_dir):
    return set(p for p in glob.glob(os.path.join(table_dir, "**", "*"), recursive=True) if os.path.isfile(p))


def test_remove_orphan_files(args, work):
    """`sluice iceberg remove-orphan-files` (remove_orphan_files) on a position-delete upsert table whose
    first job was killed after writing a checkpoint's files and temporary manifests (sink.after-precommit)
    and abandoned: the dry run lists
    exactly the files the metadata does not reach (computed here), the cutoff selects by modification
    time, the real run deletes them, every reader still reads the same rows and a second run finds nothing."""
    n = 3000
    wh, ckpt = os.path.join(work, "wh_orphan"), os.path.join(work, "ckpt_orphan")
    sql = checkpointed_sql(wh, ckpt, n).replace(
        "'write.upsert.enabled' = 'true'", "'write.upsert.enabled' = 'true', 'sluice.write.delete-mode' = 'position'")
    env = dict(os.environ)
    env["SLUICE_FAILPOINT"] = "sink.after-precommit@2"
    p = run_sql(args.sluice, work, "orphan", sql, env=env, expect_ok=False)
    check(p.returncode != 0, "orphans: the failpoint killed the job")
    # The killed job is abandoned (a restart would write its checkpoint's temporary manifests again
    # under the same names and delete them); a new job upserts every key again.
    shutil.rmtree(ckpt, ignore_errors=True)
    run_sql(args.sluice, work, "orphan2", sql)
    t = os.path.abspath(os.path.join(wh, "db", "daily"))
    want = daily_expected(n)
    orphans = sorted(listed_files(t) - reachable_files(t))
    check(any("/data/" in f and f.endswith(".parquet") for f in orphans), "the killed run left data files: %s" % orphans)
    check(any(f.endswith(".avro") and "/metadata/" in f for f in orphans), "the killed run left temporary manifests: %s" % orphans)
    print("orphans of the killed job:", [os.path.relpath(f, t) for f in orphans], flush=True)
    before = listed_files(t)
    check(orphan_lines(args.sluice, wh, "db.daily", "--dry-run") == [], "default cutoff (3 days ago): no orphans yet")
    check(orphan_lines(args.sluice, wh, "db.daily", "--dry-run", "--older-than", "1000") == [],
          "a cutoff in the past: no orphans")
    check(orphan_lines(args.sluice, wh, "db.daily", "--dry-run", "--older-than", "2100-01-01 00:00:00") == orphans,
          "dry run, a cutoff in the future: exactly the unreferenced files %s" % orphans)
    # The cutoff compares modification times: only the file made old is older than a 2001 cutoff.
    old = orphans[0]
    os.utime(old, (946684800, 946684800))  # 2000-01-01
    check(orphan_lines(args.sluice, wh, "db.daily", "--dry-run", "--older-than", "2001-01-01 00:00:00") == [old],
          "a cutoff between the modification times selects the older file only")
    check(listed_files(t) == before, "a dry run deletes nothing")
    check(orphan_lines(args.sluice, wh, "db.daily", "--older-than", "2100-01-01 00:00:00") == orphans,
          "the real run reports the orphans")
    check(listed_files(t) == before - set(orphans), "the real run deletes exactly the orphans")
    same_rows(want, iceberg_read.read_rows(iceberg_read.metadata(t)), "orphans removed: iceberg_read")
    same_rows(want, pyiceberg_rows(t), "orphans removed: PyIceberg")
    same_rows(want, sluice_rows(args.sluice, wh, "lake.db.daily"), "orphans removed: Sluice")
    check(orphan_lines(args.sluice, wh, "db.daily", "--older-than", "2100-01-01 00:00:00") == [],
          "a second run finds nothing")
    # After expiry every file the expired snapshots alone reached is gone too: nothing is orphaned.
    sluice_iceberg(args.sluice, "expire-snapshots", wh, "db.daily", "--older-than", "2100-01-01 00:00:00",
                   "--retain-last", "1")
    check(orphan_lines(args.sluice, wh, "db.daily", "--dry-run", "--older-than", "2100-01-01 00:00:00") == [],
          "expire-snapshots leaves no orphans")
    same_rows(want, pyiceberg_rows(t), "orphans removed, expired: PyIceberg")


def test_errors(args, work):
    wh = os.path.join(work, "wh_err")
    base = catalog(wh) + "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\n"
    p = run_sql(args.sluice, work, "err1", base + "CREATE TABLE lake.db.nokey (id BIGINT);\n"
                "INSERT INTO lake.db.nokey /*+ OPTIONS('upsert-enabled'='true') */ SELECT id FROM gen;\n", expect_ok=False)
    check(p.returncode != 0 and "Equality field columns shouldn't be empty when configuring to use UPSERT data stream."
          in p.stderr, "upsert without a primary key: " + p.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only", help="run only the test of this name (test_...)")
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    for test in [test_append_partitioned, test_rolling, test_upsert, test_non_upsert, test_checkpointed, test_position_mode,
                 test_v3_deletion_vectors, test_dv_mode, test_compact, test_remove_orphan_files, test_job_id_per_job,
                 test_errors]:
        if args.only and test.__name__ != args.only:
            continue
        print("==", test.__name__, flush=True)
        try:
            test(args, args.work)
        except Exception as e:  # a reader error is a failure of this test, not of the script
            import traceback
            traceback.print_exc()
            FAILURES.append("%s raised %s: %s" % (test.__name__, type(e).__name__, e))
    if FAILURES:
        print("%d failures" % len(FAILURES))
        sys.exit(1)
    print("all Iceberg sink interop checks passed")


if __name__ == "__main__":
    main()
