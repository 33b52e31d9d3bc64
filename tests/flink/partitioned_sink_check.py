#!/usr/bin/env python3
"""Partitioned filesystem tables on Apache Flink 2.2.1 and on Sluice, compared (issue 20, Nexmark q10).

The same script writes two partitioned filesystem tables on both engines (Flink through the
differential suite's runner, tests/flink/runner, with --write-filesystem-sinks so its real filesystem
connector writes the files): a PARTITIONED BY (dt, hm) csv table with Nexmark q10's partition-time
commit options, and a PARTITIONED BY (channel) json table whose values need escaping, hold NULL and ''
(the default partition) and whose success file has another name. Compared:

  layout   the partition directories (relative paths, escaped as each engine names them) and the
           success files in them; part file names are each engine's own and are not compared;
  rows     per partition, the lines of the visible part files (as a multiset: how rows spread over
           part files is the sink's business);
  reading  each engine reads the tree the other wrote (SELECT *, and a WHERE on a partition column):
           the same rows, partition columns restored from the paths, the default partition as NULL.

  python3 tests/flink/partitioned_sink_check.py [--sluice build/sluice] [--out build/partitioned-sink-check]

Exit 1 on any difference (printed). Needs what the differential suite needs (scripts/install-flink.sh).
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WRITE = """
CREATE TABLE bids (auction BIGINT, price BIGINT, ts TIMESTAMP(3), extra STRING, dt STRING, hm STRING)
PARTITIONED BY (dt, hm) WITH (
  'connector' = 'filesystem', 'path' = '${DIR}/bids', 'format' = 'csv',
  'sink.partition-commit.trigger' = 'partition-time', 'sink.partition-commit.delay' = '1 min',
  'sink.partition-commit.policy.kind' = 'success-file',
  'partition.time-extractor.timestamp-pattern' = '$dt $hm:00');
CREATE TABLE by_channel (auction BIGINT, price BIGINT, channel STRING) PARTITIONED BY (channel) WITH (
  'connector' = 'filesystem', 'path' = '${DIR}/channels', 'format' = 'json',
  'sink.partition-commit.policy.kind' = 'success-file', 'sink.partition-commit.success-file.name' = '_DONE');
INSERT INTO bids
SELECT auction, price, ts, extra, DATE_FORMAT(ts, 'yyyy-MM-dd'), DATE_FORMAT(ts, 'HH:mm')
FROM (VALUES
  (CAST(1 AS BIGINT), CAST(10 AS BIGINT), TIMESTAMP '2026-08-15 10:00:10', 'a'),
  (CAST(2 AS BIGINT), CAST(20 AS BIGINT), TIMESTAMP '2026-08-15 10:00:59', 'b'),
  (CAST(1 AS BIGINT), CAST(30 AS BIGINT), TIMESTAMP '2026-08-15 10:01:00', 'c'),
  (CAST(3 AS BIGINT), CAST(40 AS BIGINT), TIMESTAMP '2026-08-15 23:59:59', 'd'),
  (CAST(4 AS BIGINT), CAST(50 AS BIGINT), TIMESTAMP '2026-08-16 00:00:00', 'e')
) AS v(auction, price, ts, extra);
INSERT INTO by_channel VALUES
  (CAST(1 AS BIGINT), CAST(10 AS BIGINT), 'web'),
  (CAST(2 AS BIGINT), CAST(20 AS BIGINT), 'app/v2=x'),
  (CAST(3 AS BIGINT), CAST(30 AS BIGINT), CAST(NULL AS STRING)),
  (CAST(4 AS BIGINT), CAST(40 AS BIGINT), ''),
  (CAST(5 AS BIGINT), CAST(50 AS BIGINT), 'a%b#c:d?e*f'),
  (CAST(6 AS BIGINT), CAST(60 AS BIGINT), 'caf\u00e9 [x]^{y}'),
  (CAST(7 AS BIGINT), CAST(70 AS BIGINT), 'web');
"""

READ = """
CREATE TABLE bids (auction BIGINT, price BIGINT, ts TIMESTAMP(3), extra STRING, dt STRING, hm STRING)
PARTITIONED BY (dt, hm) WITH ('connector' = 'filesystem', 'path' = '${DIR}/bids', 'format' = 'csv');
CREATE TABLE by_channel (auction BIGINT, price BIGINT, channel STRING) PARTITIONED BY (channel) WITH (
  'connector' = 'filesystem', 'path' = '${DIR}/channels', 'format' = 'json');
SELECT * FROM bids;
SELECT auction, dt, hm FROM bids WHERE dt = '2026-08-15' AND hm <> '10:00';
SELECT * FROM by_channel;
SELECT auction, channel FROM by_channel WHERE channel IS NULL;
"""


def layout_and_rows(root):
    """{partition dir: sorted part-file lines}, {success files}: the visible tree under root."""
    rows, success = collections.defaultdict(list), set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "_"))]
        rel = os.path.relpath(dirpath, root)
        for name in filenames:
            if name.startswith("_"):
                success.add(os.path.join(rel, name))
            elif not name.startswith("."):
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    rows[rel].extend(l for l in f.read().splitlines() if l)
    return {k: sorted(v) for k, v in rows.items()}, success


def canonical(lines):
    return sorted(json.dumps(json.loads(l), sort_keys=True) for l in lines)


def run_sluice(sluice, script):
    p = subprocess.run([sluice, "run", "--format", "jsonl", str(script)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("sluice failed on %s:\n%s" % (script, p.stderr))
    # One block of jsonl lines per SELECT, in order; blank lines and headers are not rows.
    return [l for l in p.stdout.splitlines() if l.startswith("{")], p.stdout


def run_flink(deps, out, scripts):
    cmd = ["nice", "-n", "10", "java", "-Xmx1g", "-XX:+UseSerialGC", "-cp", f"{deps}/lib/*:{deps}/classes",
           "sluice.flink.FlinkRunner", "--out", str(out), "--write-filesystem-sinks"] + [str(s) for s in scripts]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("flink runner failed:\n" + p.stdout[-4000:])
    results = {}
    for s in scripts:
        doc = json.loads((out / (s.stem + ".json")).read_text())
        for st in doc["statements"]:
            if "error" in st:
                sys.exit("flink failed on %s: %s\n%s" % (s.name, st["sql"][:200], st["error"]))
        results[s.stem] = doc
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=str(ROOT / "build" / "sluice"))
    ap.add_argument("--out", default=str(ROOT / "build" / "partitioned-sink-check"))
    args = ap.parse_args()
    out = Path(args.out).resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    deps = subprocess.run(["bash", str(ROOT / "scripts" / "install-flink.sh")], check=True,
                          stdout=subprocess.PIPE, text=True).stdout.strip()
    flink_dir, sluice_dir = out / "flink-tree", out / "sluice-tree"
    scripts = {}
    for name, text, d in [("flink_write", WRITE, flink_dir), ("sluice_write", WRITE, sluice_dir),
                          ("flink_reads_sluice", READ, sluice_dir), ("sluice_reads_flink", READ, flink_dir)]:
        scripts[name] = out / (name + ".sql")
        scripts[name].write_text(text.replace("${DIR}", str(d)))

    run_sluice(args.sluice, scripts["sluice_write"])
    flink = run_flink(deps, out / "flink-out", [scripts["flink_write"]])
    problems = []
    for table in ("bids", "channels"):
        f_rows, f_success = layout_and_rows(flink_dir / table)
        s_rows, s_success = layout_and_rows(sluice_dir / table)
        if sorted(f_rows) != sorted(s_rows):
            problems.append("%s: partition directories differ\n  flink:  %s\n  sluice: %s" % (table, sorted(f_rows), sorted(s_rows)))
        if f_success != s_success:
            problems.append("%s: success files differ\n  flink:  %s\n  sluice: %s" % (table, sorted(f_success), sorted(s_success)))
        for part in sorted(set(f_rows) & set(s_rows)):
            if f_rows[part] != s_rows[part]:
                problems.append("%s/%s: rows differ\n  flink:  %s\n  sluice: %s" % (table, part, f_rows[part], s_rows[part]))
        if not f_rows or not f_success:
            problems.append("%s: Flink wrote no partition or no success file (check the runner)" % table)

    # Each engine reads the other's tree.
    flink_read = run_flink(deps, out / "flink-read", [scripts["flink_reads_sluice"]])["flink_reads_sluice"]
    flink_selects = [st.get("rows", []) for st in flink_read["statements"] if st["kind"] == "query"]
    sluice_lines, sluice_text = run_sluice(args.sluice, scripts["sluice_reads_flink"])
    flink_all = [l for rows in flink_selects for l in rows]
    if len(flink_selects) != 4:
        problems.append("flink ran %d SELECTs, not 4" % len(flink_selects))
    if canonical(flink_all) != canonical(sluice_lines):
        problems.append("reading the other engine's tree: the rows differ\n  flink reads sluice's:  %s\n  sluice reads flink's: %s"
                        % (canonical(flink_all), canonical(sluice_lines)))
    expected_rows = 5 + 2 + 7 + 2
    if len(sluice_lines) != expected_rows:
        problems.append("sluice read %d rows, expected %d:\n%s" % (len(sluice_lines), expected_rows, sluice_text))
    for p in problems:
        print(p)
    print("partitioned sink check: %s" % ("%d difference(s)" % len(problems) if problems else
                                           "same partition directories, success files and rows on Flink 2.2.1 and Sluice"))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
