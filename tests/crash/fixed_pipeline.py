"""The fixed pipeline of the crash harness (crash_harness.py runs it first): pipeline.sql next to this
file reads generated JSON files and writes filesystem sinks: append-only json sinks (dedup and
regular join; window aggregate, also into a sink PARTITIONED BY (dt, hm) that commits its partitions
by partition time with success files), a changelog sink (group aggregate with Top-N, debezium-json), and
the late-rows table ('sluice.exec.late-rows.table') that receives the orders the window aggregate
drops as late. Outputs are compared after concatenating the committed (visible) files in file-number
order (per partition directory for the partitioned sink, whose success files must be the same too):
byte for byte, so every change and every late row appears exactly once and in the same order.

Besides kills at random moments and at failpoints, it checks that restoring from each retained
checkpoint k of an uninterrupted run reproduces that run's output suffix byte for byte, that a corrupt
latest checkpoint is skipped for the previous one with a note, that a changed plan is refused, and
that a checkpoint past 'execution.checkpointing.timeout' fails the job or, tolerated, is committed
with a later one. Deterministic for a given seed.
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FAILPOINTS = ["checkpoint.before-sync", "checkpoint.after-sync", "sink.after-precommit",
              "checkpoint.before-commit", "restore.during"]


def generate(data_dir, rows, seed):
    """Orders (with re-sent duplicates, out of order within bounds, and ~2% late: over a minute behind,
    so their TUMBLE window fired already) in 3 files, and a customer table."""
    rng = random.Random(seed)
    os.makedirs(os.path.join(data_dir, "orders"), exist_ok=True)
    os.makedirs(os.path.join(data_dir, "customers"), exist_ok=True)
    base = 1_700_000_000_000  # epoch millis
    files = [open(os.path.join(data_dir, "orders", "part-%d.json" % i), "w") for i in range(3)]
    for i in range(rows):
        order_id = i if rng.random() > 0.1 else max(0, i - rng.randint(1, 50))  # ~10% re-sends
        ts = base + i * 200 + rng.randint(0, 3000)
        if rng.random() < 0.02:
            ts -= rng.randint(65_000, 180_000)  # late for the window aggregate: goes to the late-rows table
        rec = {"order_id": order_id, "customer_id": rng.randint(0, 199), "amount": rng.randint(1, 10_000),
               "ts": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ts // 1000)) + ".%03d" % (ts % 1000)}
        files[i % 3].write(json.dumps(rec) + "\n")
    for f in files:
        f.close()
    with open(os.path.join(data_dir, "customers", "part-0.json"), "w") as f:
        for c in range(200):
            f.write(json.dumps({"customer_id": c, "region": "R%d" % (c % 7)}) + "\n")


def script(data_dir, out_dir, ckpt_dir, extra_sets):
    with open(os.path.join(HERE, "pipeline.sql")) as f:
        sql = f.read()
    sets = "".join("SET '%s' = '%s';\n" % kv for kv in extra_sets)
    return sets + sql.replace("${DATA}", data_dir).replace("${OUT}", out_dir).replace("${CKPT}", ckpt_dir)


def committed(out_dir):
    """Every sink's visible files concatenated in file-number order, per directory: "sink" for an
    unpartitioned sink, "sink/dt=.../hm=..." for each partition of a partitioned one, and each success
    file ("sink/dt=.../hm=.../_SUCCESS") as an empty entry."""
    result = {}
    for sink in sorted(os.listdir(out_dir)):
        for d, dirs, files in os.walk(os.path.join(out_dir, sink)):
            dirs[:] = sorted(x for x in dirs if not x.startswith((".", "_")))
            rel = os.path.relpath(d, out_dir)
            names = [n for n in files if not n.startswith(".") and not n.startswith("_")]
            names.sort(key=lambda n: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", n)])
            if names:
                result[rel] = b"".join(open(os.path.join(d, n), "rb").read() for n in names)
            for n in files:
                if n.startswith("_"):
                    result[os.path.join(rel, n)] = b""
    return result


def run(sluice, sql_path, env=None, kill_after=None):
    """Runs the job; returns (returncode, stderr). kill_after: seconds until SIGKILL."""
    p = subprocess.Popen([sluice, "run", sql_path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if kill_after is not None:
        try:
            _, err = p.communicate(timeout=kill_after)
            return p.returncode, err.decode()
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGKILL)
            _, err = p.communicate()
            return p.returncode, err.decode()
    _, err = p.communicate()
    return p.returncode, err.decode()


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def check(args, sluice, work):
    """Runs every check of the fixed pipeline in `work`; exits with a message on the first failure.
    args: runs (kill runs), rows, seed, interval."""
    fresh(work)
    data = os.path.join(work, "data")
    generate(data, args.rows, args.seed)
    rng = random.Random(args.seed)

    # The reference: one run without checkpoints, and one with every checkpoint retained.
    ref_out, ref_ckpt = os.path.join(work, "ref-out"), os.path.join(work, "ref-ckpt")
    fresh(ref_out)
    sql = os.path.join(work, "ref.sql")
    open(sql, "w").write(script(data, ref_out, "", []))
    t0 = time.time()
    rc, err = run(sluice, sql)
    ref_seconds = time.time() - t0
    if rc != 0:
        sys.exit("reference run failed:\n" + err)
    reference = committed(ref_out)
    missing = {"enriched", "per_minute", "top_customers", "late_orders"} - set(reference)
    if not any(k.startswith("per_minute_parts/") and k.endswith("/_SUCCESS") for k in reference):
        missing.add("per_minute_parts (partitions with success files)")
    if missing:
        sys.exit("reference run wrote nothing to %s" % sorted(missing))
    # A success file is empty by design (Flink's _SUCCESS marker); every other file holds rows.
    if not all(v for k, v in reference.items() if not k.endswith("/_SUCCESS")):
        sys.exit("reference run wrote an empty sink: %s" % {k: len(v) for k, v in reference.items()})

    full_out = os.path.join(work, "full-out")
    fresh(full_out)
    fresh(ref_ckpt)
    sql = os.path.join(work, "full.sql")
    open(sql, "w").write(script(data, full_out, ref_ckpt, [("execution.checkpointing.interval", args.interval),
                                                           ("state.checkpoints.num-retained", "1000")]))
    rc, err = run(sluice, sql)
    if rc != 0:
        sys.exit("checkpointed run failed:\n" + err)
    if committed(full_out) != reference:
        sys.exit("a checkpointed run without a crash differs from the reference")

    # Restoring from checkpoint k reproduces the output suffix byte for byte.
    job_dir = os.path.join(ref_ckpt, "crash-pipeline")
    chks = sorted((int(n[4:]) for n in os.listdir(job_dir) if re.fullmatch(r"chk-\d+", n)))
    picks = sorted(set(rng.sample(chks, min(5, len(chks)))))
    for k in picks:
        out = os.path.join(work, "suffix-out")
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(full_out, out)
        # Drop what the full run wrote after checkpoint k (files last written after its metadata):
        # the restored run must write exactly those again.
        meta_time = os.stat(os.path.join(job_dir, "chk-%d" % k, "_metadata")).st_mtime_ns
        dropped = 0
        for d, _, files in os.walk(out):
            for name in files:
                path = os.path.join(d, name)
                if os.stat(path).st_mtime_ns > meta_time:
                    os.remove(path)
                    dropped += 1
        sql = os.path.join(work, "suffix.sql")
        scratch = os.path.join(work, "suffix-ckpt")
        fresh(scratch)
        open(sql, "w").write(script(data, out, scratch, [("execution.savepoint.path", os.path.join(job_dir, "chk-%d" % k))]))
        rc, err = run(sluice, sql)
        if rc != 0:
            sys.exit("restore from chk-%d failed:\n%s" % (k, err))
        if committed(out) != reference:
            sys.exit("restoring from chk-%d did not reproduce the output suffix" % k)

    # A corrupt latest checkpoint is skipped for the previous one, with a note; the output is unchanged.
    ckpt = os.path.join(work, "corrupt-ckpt")
    shutil.rmtree(ckpt, ignore_errors=True)
    shutil.copytree(ref_ckpt, ckpt)
    newest = os.path.join(ckpt, "crash-pipeline", "chk-%d" % chks[-1], "_metadata")
    size = os.path.getsize(newest)
    with open(newest, "r+b") as f:
        f.truncate(size // 2)
    out = os.path.join(work, "corrupt-out")
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(full_out, out)
    sql = os.path.join(work, "corrupt.sql")
    open(sql, "w").write(script(data, out, ckpt, []))
    rc, err = run(sluice, sql)
    if rc != 0 or "falling back to the previous checkpoint" not in err:
        sys.exit("a corrupt latest checkpoint was not skipped with a note (rc=%d):\n%s" % (rc, err))
    if committed(out) != reference:
        sys.exit("restoring the checkpoint before a corrupt one changed the output")

    # A script whose plan changed is refused, naming the operator.
    sql = os.path.join(work, "changed.sql")
    open(sql, "w").write(script(data, out, ckpt, []).replace("= c.customer_id", "= c.customer_id AND c.region <> 'R9'"))
    rc, err = run(sluice, sql)
    if rc == 0 or "does not match the checkpoint" not in err:
        sys.exit("a changed plan was not refused at restore (rc=%d):\n%s" % (rc, err))

    # A checkpoint still being written after 'execution.checkpointing.timeout' (here the first one,
    # which the checkpoint.stall failpoint holds until it is abandoned) fails: with no failure
    # tolerated the job fails saying why; with one tolerated it goes on, and the sinks commit that
    # checkpoint's output with a later one.
    for tolerated in ("0", "1"):
        out, ckpt = os.path.join(work, "timeout-out"), os.path.join(work, "timeout-ckpt")
        fresh(out)
        fresh(ckpt)
        sql = os.path.join(work, "timeout.sql")
        open(sql, "w").write(script(data, out, ckpt, [("execution.checkpointing.interval", args.interval),
                                                      ("state.checkpoints.num-retained", "2"),
                                                      ("execution.checkpointing.timeout", "2 s"),
                                                      ("execution.checkpointing.tolerable-failed-checkpoints",
                                                       tolerated)]))
        rc, err = run(sluice, sql, dict(os.environ, SLUICE_FAILPOINT="checkpoint.stall@1"))
        if tolerated == "0":
            if rc == 0 or "Checkpoint 1 expired before completing" not in err or "tolerable-failed" not in err:
                sys.exit("a checkpoint past its timeout did not fail the job (rc=%d):\n%s" % (rc, err))
        else:
            if rc != 0 or "failed=1" not in err:
                sys.exit("a tolerated checkpoint timeout failed the job or was not counted (rc=%d):\n%s" % (rc, err))
            if committed(out) != reference:
                sys.exit("the output of a job with a failed checkpoint differs from the uninterrupted run")

    # Kill at random moments and at failpoints; restart until done.
    kills = 0
    for i in range(args.runs):
        out, ckpt = os.path.join(work, "out"), os.path.join(work, "ckpt")
        fresh(out)
        fresh(ckpt)
        sql = os.path.join(work, "crash.sql")
        # With one checkpoint retained, the job abandons the checkpoint it is writing when it ends
        # (its final checkpoint takes over the sinks' pre-commits); with two, it waits for it.
        retained = rng.choice(["1", "2"])
        open(sql, "w").write(script(data, out, ckpt, [("execution.checkpointing.interval", args.interval),
                                                      ("state.checkpoints.num-retained", retained)]))
        for attempt in range(200):
            env = dict(os.environ)
            kill_after = None
            mode = rng.random()
            if mode < 0.5:
                env["SLUICE_FAILPOINT"] = "%s@%d" % (rng.choice(FAILPOINTS), rng.randint(1, 4))
            elif mode < 0.9:
                kill_after = rng.uniform(0, ref_seconds * 1.2)
            rc, err = run(sluice, sql, env, kill_after)
            if rc == 0:
                break
            if rc != -signal.SIGKILL:
                sys.exit("run %d attempt %d failed (rc=%d):\n%s" % (i, attempt, rc, err))
            kills += 1
        else:
            sys.exit("run %d did not finish in 200 attempts" % i)
        got = committed(out)
        if got != reference:
            for sink in reference:
                a, b = reference[sink].splitlines(), got.get(sink, b"").splitlines()
                if a != b:
                    print("sink %s: %d rows expected, %d committed" % (sink, len(a), len(b)), file=sys.stderr)
            sys.exit("fixed pipeline run %d (--seed %d): committed output differs from the uninterrupted run"
                     % (i, args.seed))
    print("fixed pipeline: %d runs, %d kills, %d checkpoint restores checked, outputs equal in every run"
          % (args.runs, kills, len(picks)))
    shutil.rmtree(work, ignore_errors=True)
