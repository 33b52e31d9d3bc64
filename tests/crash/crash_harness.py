#!/usr/bin/env python3
"""Crash harness for Sluice checkpoints: kill running jobs with SIGKILL at random moments and at every
named failpoint, several times per run, restart each until it finishes, and check that the committed
output equals that of a run that was never killed -- no duplicate, no missing row or change.

  python3 tests/crash/crash_harness.py --sluice build/sluice --runs 20 --scale 0.3   # `make test` (ctest crash)
  python3 tests/crash/crash_harness.py --sluice build/sluice --runs 1000             # the long version
  python3 tests/crash/crash_harness.py --sluice build/sluice --case 7000042          # one case again

First the fixed pipeline (fixed_pipeline.py, pipeline.sql: byte-for-byte outputs, restore from each
retained checkpoint, a corrupt latest checkpoint skipped, a changed plan refused, checkpoint timeouts),
then --runs random pipelines (pipelines.py: sources, operator chains, sinks, chunk sizes, checkpoint
intervals and options drawn from the case's seed). For each random case:

  1. an unkilled run (the reference; its script must plan and run, else the case fails);
  2. kill runs: 1-4 kills, each at a random moment of the reference's duration or at a failpoint
     (SLUICE_FAILPOINT=<name>@<n>, n up to the reference's number of checkpoints), then restarts
     until the job finishes;
  3. the committed output compared with the reference: append-only sinks (json) as multisets of rows;
     changelog sinks (debezium-json) folded into a multiset of rows, and where the pipeline's changelog
     is deterministic, as a multiset of change events, so each change is there exactly once;
  4. for one case in four, a run that retains every checkpoint, then a restore from a random one of
     them (the output suffix after it must come out again) and from a copy whose newest checkpoint is
     truncated (skipped with a note, same output).

With --kafka, the random pipelines run on a real Apache Kafka broker (one KRaft node for the whole run,
started and stopped by tests/interop/kafka_broker.sh; jars from scripts/install-kafka.sh, Java 17): the
main stream is a topic of it (loaded once per case in one transaction, read with read_committed from
the earliest to the latest offset; a changelog case reads debezium-json), the same stateful chains,
and every sink an 'exactly-once' kafka sink into a topic of the run (json values, debezium-json for a
changelog; for a keyed aggregate sometimes 'upsert-kafka' with a json key, compared folded by key
and, without its reducing buffer, record for record). The kills add the failpoints checkpoint.after-commit and the Kafka sink's own
(kafka.before-commit-transaction, kafka.after-commit-transaction, kafka.recovery-before-commit). What
the sink wrote is read back by a read_committed consumer (tests/crash/kafka/CrashKafkaTool.java, to
the last stable offset) and compared with the unkilled run's topic as above: each change exactly
once. No fixed pipeline and no retained-checkpoint restores (a topic cannot be cut back to a
checkpoint). `make crash-kafka RUNS=N` runs it; ctest's crash.kafka a seeded sample.

  python3 tests/crash/crash_harness.py --sluice build/sluice --kafka --runs 100       # make crash-kafka RUNS=100

Every failure prints its case seed and a one-line command that reruns exactly that case (the kill
moments are drawn from the seed too, but a kill at a moment hits the job where its timing puts it).
The exit status is 1 if any case failed. The case seed of run i is seed * 1000000 + i.
"""
import argparse
import collections
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
sys.path.insert(0, HERE)
import fixed_pipeline  # noqa: E402
import pipelines  # noqa: E402

FAILPOINTS = fixed_pipeline.FAILPOINTS
# With --kafka: also the commit of the checkpoint done, and the exactly-once Kafka sink's own points
# (common/failpoint.h).
KAFKA_FAILPOINTS = FAILPOINTS + ["checkpoint.after-commit", "kafka.before-commit-transaction",
                                 "kafka.after-commit-transaction", "kafka.recovery-before-commit"]
ROOT = os.path.dirname(os.path.dirname(HERE))
MAX_OUTPUT = 200 << 20  # bytes of committed output a case may write (it is read into memory)


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def run(sluice, sql_path, env=None, kill_after=None, timeout=300):
    """Runs the job; returns (returncode, stderr, seconds). kill_after: seconds until SIGKILL."""
    t0 = time.time()
    p = subprocess.Popen([sluice, "run", sql_path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        _, err = p.communicate(timeout=kill_after if kill_after is not None else timeout)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGKILL)
        _, err = p.communicate()
        if kill_after is None:
            return "timeout", err.decode(errors="replace"), time.time() - t0
    return p.returncode, err.decode(errors="replace"), time.time() - t0


_VENV_PYTHON = []


def venv_python():
    """The interop venv's python (scripts/install-python.sh creates it on first use): Iceberg tables
    are read with fastavro and pyarrow."""
    if not _VENV_PYTHON:
        root = os.path.dirname(os.path.dirname(HERE))
        _VENV_PYTHON.append(subprocess.check_output(["bash", os.path.join(root, "scripts", "install-python.sh")],
                                                    text=True).strip())
    return _VENV_PYTHON[0]


def iceberg_lines(table_dir):
    """The live rows of an Iceberg table as sorted JSON lines, plus a '!! ...' line per checkpoint id
    committed twice."""
    if not os.path.isdir(os.path.join(table_dir, "metadata")):
        return []
    reader = os.path.join(os.path.dirname(HERE), "interop", "iceberg_read.py")
    p = subprocess.run([venv_python(), reader, "--check-checkpoints", table_dir], capture_output=True, text=True)
    if p.returncode not in (0, 2):
        return ["!! iceberg_read failed: " + p.stderr.strip()[-500:]]
    return p.stdout.splitlines()


def committed(out_dir, sinks):
    """sink -> its committed (visible) files' lines."""
    result = {}
    for sink, kind in sinks.items():
        if kind == "iceberg":
            result[sink] = iceberg_lines(os.path.join(out_dir, sink, "db", sink))
            continue
        d = os.path.join(out_dir, sink)
        lines = []
        if os.path.isdir(d):
            names = [n for n in os.listdir(d) if not n.startswith(".") and not n.startswith("_")]
            # In commit order (part-0-2 before part-0-10), so a changelog folds in the order it was written.
            names.sort(key=lambda n: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", n)])
            for name in names:
                with open(os.path.join(d, name), "rb") as f:
                    lines += f.read().decode(errors="replace").splitlines()
        result[sink] = lines
    return result


def fold(lines):
    """A debezium-json changelog folded into a multiset of rows; a retraction of a row that is not
    there is an error (returned as the second item)."""
    rows, errors = collections.Counter(), []
    for line in lines:
        e = json.loads(line)
        if e["op"] in ("c", "r"):
            rows[json.dumps(e["after"], sort_keys=True)] += 1
        else:
            key = json.dumps(e["before"], sort_keys=True)
            if rows[key] == 0:
                errors.append("retracts a row that is not there: " + line)
            rows[key] -= 1
    return +rows, errors


def fold_upsert(lines):
    """An upsert-kafka topic's "key<TAB>value" records folded by key: the last value of each key, a
    tombstone (null value) removing it."""
    table = {}
    for line in lines:
        key, value = line.split("\t", 1)
        if value == "\\N":
            table.pop(key, None)
        else:
            table[key] = value
    return collections.Counter("%s -> %s" % kv for kv in table.items())


def multiset_diff(want, got, what):
    """Lines describing how multiset `got` differs from `want` (at most a few of each)."""
    missing, extra = want - got, got - want
    if not missing and not extra:
        return []
    out = ["%s: %d expected, %d committed; %d missing, %d extra" % (what, sum(want.values()), sum(got.values()),
                                                                       sum(missing.values()), sum(extra.values()))]
    out += ["  missing x%d %s" % (n, r) for r, n in list(missing.items())[:5]]
    out += ["  extra   x%d %s" % (n, r) for r, n in list(extra.items())[:5]]
    return out


def without_proctime(lines):
    """Late rows name the dropped row with its columns, processing-time ones (`pt`) included: those
    differ from run to run, so they are left out of the comparison."""
    out = []
    for line in lines:
        e = json.loads(line)
        row = json.loads(e["row"])
        row.pop("pt", None)
        e["row"] = row
        out.append(json.dumps(e, sort_keys=True))
    return out


def compare(case, want, got):
    problems = []
    for sink, kind in case.sinks.items():
        a, b = want[sink], got[sink]
        if sink == "late_rows":
            a, b = without_proctime(a), without_proctime(b)
        if kind == "append" or case.exact[sink]:
            problems += multiset_diff(collections.Counter(a), collections.Counter(b), "sink %s rows/changes" % sink)
        if kind == "upsert":
            problems += multiset_diff(fold_upsert(a), fold_upsert(b), "sink %s upserts folded by key" % sink)
        if kind == "changelog":
            fa, _ = fold(a)
            fb, errors = fold(b)
            problems += ["sink %s %s" % (sink, e) for e in errors[:3]]
            problems += multiset_diff(fa, fb, "sink %s folded table" % sink)
    return problems


class KafkaTool:
    """tests/crash/kafka/CrashKafkaTool.java, compiled into the work directory and run once for the
    whole harness run (KAFKA_BOOTSTRAP and KAFKA_CP from kafka_broker.sh): creates, deletes and reads
    topics (read_committed, to the last stable offset)."""

    def __init__(self, work):
        self.bootstrap, cp = os.environ["KAFKA_BOOTSTRAP"], os.environ["KAFKA_CP"]
        classes = os.path.join(work, "kafka-classes")
        os.makedirs(classes, exist_ok=True)
        subprocess.run(["javac", "-cp", cp, "-d", classes, os.path.join(HERE, "kafka", "CrashKafkaTool.java")],
                       check=True)
        self.p = subprocess.Popen(["java", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                                   "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", cp + os.pathsep + classes,
                                   "CrashKafkaTool", self.bootstrap],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def call(self, *words):
        self.p.stdin.write(" ".join(words) + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("CrashKafkaTool ended")
            if line.startswith("ok"):
                return lines
            if line.startswith("error "):
                raise RuntimeError("CrashKafkaTool %s: %s" % (words[0], line[6:].strip()))
            lines.append(line.rstrip("\n"))

    def read(self, topic, keyed=False):
        """The values of `topic` in offset order per partition (partitions in order); keyed: lines
        "key<TAB>value" ("\\N" for null)."""
        out = []
        for line in self.call("read", topic):
            _, _, _, _, key, value = line.split("\t", 5)
            out.append(key + "\t" + value if keyed else value)
        return out

    def close(self):
        self.p.stdin.close()
        self.p.wait()


class CaseRun:
    """One random case: its files, scripts and runs under work/."""

    def __init__(self, args, sluice, seed, work):
        self.args, self.sluice, self.seed, self.work = args, sluice, seed, work
        self.kafka = args.kafka_tool
        self.case = pipelines.generate(seed, args.scale, self.kafka.bootstrap if self.kafka else None)
        self.rng = random.Random(seed * 7919 + 1)  # the kills
        self.data = os.path.join(work, "data")
        self.case.write_files(self.data)
        self.template = self.case.sql()
        self.kills = 0
        self.topics = []  # the case's topics on the broker (deleted when it passes)

    def run_name(self, name):
        return "k%d-%s" % (self.seed, name)

    def load_kafka(self):
        """Creates the input topics and loads them (one job, one transaction)."""
        for topic, partitions in self.case.kafka_inputs.items():
            self.kafka.call("create", topic, str(partitions))
            self.topics.append(topic)
        if not self.case.kafka_load:
            return []
        path = os.path.join(self.work, "load.sql")
        with open(path, "w") as f:
            f.write("\n".join(self.case.kafka_load).replace("${DATA}", self.data) + "\n")
        rc, err, _ = run(self.sluice, path)
        if rc != 0:
            return ["loading the input topics failed (rc=%s): %s" % (rc, err.strip()[-2000:])]
        return []

    def create_sink_topics(self, name):
        for topic, partitions in self.case.kafka_sinks.values():
            topic = topic.replace("${RUN}", self.run_name(name))
            self.kafka.call("create", topic, str(partitions))
            self.topics.append(topic)

    def committed(self, out, name):
        """committed() of the file sinks, and the Kafka sinks' topics of run `name` as a read_committed
        consumer sees them."""
        kafka = self.case.kafka_sinks
        result = committed(out, {s: k for s, k in self.case.sinks.items() if s not in kafka})
        for sink, (topic, _) in kafka.items():
            result[sink] = self.kafka.read(topic.replace("${RUN}", self.run_name(name)), self.case.sinks[sink] == "upsert")
        return result

    def drop_topics(self):
        if self.kafka and self.topics:
            self.kafka.call("delete", *self.topics)

    def script(self, name, out, ckpt, extra_sets=(), replace=()):
        sql = self.template
        for old, new in replace:
            sql = sql.replace(old, new)
        # Extra options go with the job's own (after the Kafka producer jobs of the script's head).
        anchor = "SET 'pipeline.name' = 'crash';"
        sql = sql.replace(anchor, "".join("SET '%s' = '%s';\n" % kv for kv in extra_sets) + anchor)
        sql = sql.replace("${DATA}", self.data).replace("${OUT}", out).replace("${CKPT}", ckpt)
        sql = sql.replace("${RUN}", self.run_name(name))
        path = os.path.join(self.work, name + ".sql")
        with open(path, "w") as f:
            f.write(sql)
        return path

    def reference(self):
        out, ckpt = os.path.join(self.work, "ref-out"), os.path.join(self.work, "ref-ckpt")
        fresh(out)
        fresh(ckpt)
        if self.kafka:
            self.create_sink_topics("ref")
        rc, err, secs = run(self.sluice, self.script("ref", out, ckpt))
        if rc != 0:
            return None, ["the unkilled run failed (rc=%s): %s" % (rc, err.strip()[-2000:])]
        self.ref_seconds = secs
        self.ref_out = out
        # Checkpoints the unkilled run took (the job summary's checkpoints=N), for the failpoint counts.
        m = re.search(r"checkpoints=(\d+)", err)
        self.ref_checkpoints = int(m.group(1)) if m else 1
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
        if size > MAX_OUTPUT:
            return None, ["the unkilled run wrote %d MB: too much for the harness (a generator bug)" % (size >> 20)]
        self.want = self.committed(out, "ref")
        return self.want, []

    def killed_runs(self):
        out, ckpt = os.path.join(self.work, "out"), os.path.join(self.work, "ckpt")
        fresh(out)
        fresh(ckpt)
        sql = self.script("crash", out, ckpt)
        if self.kafka:
            self.create_sink_topics("crash")
        failpoints = KAFKA_FAILPOINTS if self.kafka else FAILPOINTS
        kills_wanted = self.rng.randint(1, 4)
        log = []
        forced = self.args.kills.split(",") if self.args.kills else None
        self.attempts = log
        for attempt in range(60):
            env, kill_after = dict(os.environ), None
            if forced is not None:
                # --kills: this schedule instead of the drawn one (failpoint@n or kill@<seconds>s).
                k = forced[attempt] if attempt < len(forced) else "to-end"
                log.append(k)
                if k.startswith("kill@"):
                    kill_after = float(k[5:].rstrip("s"))
                elif k != "to-end":
                    env["SLUICE_FAILPOINT"] = k
            elif self.kills < kills_wanted:
                if self.rng.random() < 0.5:
                    # Points a first run never reaches (a restore, a recovery) only after a kill.
                    choices = failpoints if self.kills or not self.kafka else \
                        [f for f in failpoints if f not in ("restore.during", "kafka.recovery-before-commit")]
                    fp = "%s@%d" % (self.rng.choice(choices), self.rng.randint(1, max(1, min(6, self.ref_checkpoints))))
                    env["SLUICE_FAILPOINT"] = fp
                    log.append(fp)
                else:
                    kill_after = self.rng.uniform(0.0, self.ref_seconds)
                    log.append("kill@%.3fs" % kill_after)
            else:
                log.append("to-end")
            rc, err, _ = run(self.sluice, sql, env, kill_after, timeout=max(120, 30 * self.ref_seconds))
            if rc == 0:
                self.log = log
                return self.committed(out, "crash"), []
            if rc != -signal.SIGKILL:
                return None, ["attempt %d (%s) failed (rc=%s): %s" % (attempt, log[-1], rc, err.strip()[-2000:])]
            self.kills += 1
        return None, ["the job did not finish in 60 attempts"]

    def retained_checks(self):
        """A run retaining every checkpoint; a restore from a random one must write the output after it
        again; a truncated newest checkpoint must be skipped with a note."""
        out, ckpt = os.path.join(self.work, "full-out"), os.path.join(self.work, "full-ckpt")
        fresh(out)
        fresh(ckpt)
        retain = [("'state.checkpoints.num-retained' = '1'", "'state.checkpoints.num-retained' = '1000'"),
                  ("'state.checkpoints.num-retained' = '2'", "'state.checkpoints.num-retained' = '1000'")]
        rc, err, _ = run(self.sluice, self.script("full", out, ckpt, replace=retain))
        if rc != 0:
            return ["the run retaining every checkpoint failed (rc=%s): %s" % (rc, err.strip()[-2000:])]
        problems = compare(self.case, self.want, committed(out, self.case.sinks))
        if problems:
            return ["the run retaining every checkpoint differs from the unkilled run"] + problems
        job = os.path.join(ckpt, "crash")
        chks = sorted(int(n[4:]) for n in os.listdir(job) if re.fullmatch(r"chk-\d+", n))
        if len(chks) < 2:
            return []
        k = self.rng.choice(chks[:-1])
        if "iceberg" in self.case.sinks.values():
            # An Iceberg table cannot be cut back to checkpoint k by deleting files (its commits
            # delete their temporary manifests): the restore-from-k check is for file sinks.
            return self.corrupt_check(ckpt, out, chks, retain)
        # Drop what the full run wrote after checkpoint k (files last written after its metadata).
        suffix = os.path.join(self.work, "suffix-out")
        shutil.rmtree(suffix, ignore_errors=True)
        shutil.copytree(out, suffix)
        meta_time = os.stat(os.path.join(job, "chk-%d" % k, "_metadata")).st_mtime_ns
        for sink in os.listdir(suffix):
            for name in os.listdir(os.path.join(suffix, sink)):
                path = os.path.join(suffix, sink, name)
                if os.stat(path).st_mtime_ns > meta_time:
                    os.remove(path)
        scratch = os.path.join(self.work, "suffix-ckpt")
        fresh(scratch)
        rc, err, _ = run(self.sluice, self.script("suffix", suffix, scratch, replace=retain,
                                                  extra_sets=[("execution.savepoint.path", os.path.join(job, "chk-%d" % k))]))
        if rc != 0:
            return ["restore from chk-%d failed (rc=%s): %s" % (k, rc, err.strip()[-2000:])]
        problems = compare(self.case, self.want, committed(suffix, self.case.sinks))
        if problems:
            return ["restoring chk-%d (of %s) did not write the output after it again" % (k, chks)] + problems
        return self.corrupt_check(ckpt, out, chks, retain)

    def corrupt_check(self, ckpt, out, chks, retain):
        """A truncated newest checkpoint: the one before it is restored, with a note."""
        corrupt = os.path.join(self.work, "corrupt-ckpt")
        shutil.rmtree(corrupt, ignore_errors=True)
        shutil.copytree(ckpt, corrupt)
        newest = os.path.join(corrupt, "crash", "chk-%d" % chks[-1], "_metadata")
        with open(newest, "r+b") as f:
            f.truncate(os.path.getsize(newest) // 2)
        cout = os.path.join(self.work, "corrupt-out")
        shutil.rmtree(cout, ignore_errors=True)
        shutil.copytree(out, cout)
        rc, err, _ = run(self.sluice, self.script("corrupt", cout, corrupt, replace=retain))
        if rc != 0 or "falling back to the previous checkpoint" not in err:
            return ["a truncated newest checkpoint was not skipped with a note (rc=%s): %s" % (rc, err.strip()[-2000:])]
        # Iceberg appends are left out: Flink's committer protocol (a commit is skipped when its
        # checkpoint id is at most the table's max committed one) assumes the restored checkpoint is
        # the latest completed one. Falling back past a completed checkpoint whose commit landed
        # replays its rows under new checkpoint ids, which commit them again (docs/iceberg.md).
        # Upserts converge to the same table.
        kept = {s: k for s, k in self.case.sinks.items() if s not in self.case.iceberg_appends}
        saved, self.case.sinks = self.case.sinks, kept
        try:
            problems = compare(self.case, self.want, committed(cout, kept))
        finally:
            self.case.sinks = saved
        if problems:
            return ["restoring the checkpoint before a truncated one changed the output"] + problems
        return []

    def check(self):
        """Problems found (empty: the case passed)."""
        if self.kafka:
            problems = self.load_kafka()
            if problems:
                return problems
        want, problems = self.reference()
        if problems:
            return problems
        got, problems = self.killed_runs()
        if problems:
            return problems
        problems = compare(self.case, want, got)
        if problems:
            return ["after %d kills (%s) the committed output differs from the unkilled run" % (self.kills, ", ".join(self.log))] + problems
        if self.rng.random() < 0.25 and not self.kafka:
            return self.retained_checks()
        return []


def repro(args, seed):
    return "python3 tests/crash/crash_harness.py --sluice %s%s --case %d%s" % (
        args.sluice, " --kafka" if args.kafka else "", seed, "" if args.scale == 1.0 else " --scale %g" % args.scale)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sluice", required=True)
    ap.add_argument("--runs", type=int, default=30, help="random pipelines to run")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--case", type=int, default=None, help="run only the random case of this seed")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies the rows of the random pipelines")
    ap.add_argument("--fixed-runs", type=int, default=10, help="kill runs of the fixed pipeline (0: skip it)")
    ap.add_argument("--rows", type=int, default=30000, help="rows of the fixed pipeline")
    ap.add_argument("--interval", default="5 ms", help="'execution.checkpointing.interval' of the fixed pipeline")
    ap.add_argument("--work", default=None, help="work directory (default: a fresh one under /tmp)")
    ap.add_argument("--verbose", action="store_true", help="print every case")
    ap.add_argument("--kills", default=None,
                    help="with --case: this kill schedule instead of the drawn one, as a failure prints it "
                         "(e.g. 'checkpoint.before-sync@2,kill@0.3s,to-end')")
    ap.add_argument("--kafka", action="store_true",
                    help="Kafka source -> pipeline -> 'exactly-once' Kafka sinks on a real broker, started for the "
                         "run by tests/interop/kafka_broker.sh (no fixed pipeline)")
    args = ap.parse_args()
    if args.kafka and "KAFKA_BOOTSTRAP" not in os.environ:
        # One broker for the whole run: this script again, inside kafka_broker.sh.
        cmd = ["bash", os.path.join(ROOT, "tests", "interop", "kafka_broker.sh"), sys.executable,
               os.path.abspath(__file__)] + sys.argv[1:]
        sys.exit(subprocess.call(cmd))
    sluice = os.path.abspath(args.sluice)
    work = args.work or "/tmp/sluice-crash-%d" % os.getpid()
    fresh(work)
    args.kafka_tool = KafkaTool(work) if args.kafka else None
    if args.case is None and args.fixed_runs > 0 and not args.kafka:
        try:
            fixed_pipeline.check(argparse.Namespace(runs=args.fixed_runs, rows=args.rows, seed=args.seed,
                                                    interval=args.interval), sluice, os.path.join(work, "fixed"))
        except SystemExit as e:
            print("fixed pipeline (seed %d) FAILED: %s" % (args.seed, e.code))
            print("  reproduce: python3 tests/crash/crash_harness.py --sluice %s --seed %d --runs 0 --fixed-runs %d "
                  "--rows %d --interval '%s'" % (args.sluice, args.seed, args.fixed_runs, args.rows, args.interval))
            sys.exit(1)
    seeds = [args.case] if args.case is not None else [args.seed * 1000000 + i for i in range(args.runs)]
    failed, kills, t0 = [], 0, time.time()
    for i, seed in enumerate(seeds):
        case_work = os.path.join(work, "case")
        fresh(case_work)
        c = CaseRun(args, sluice, seed, case_work)
        try:
            problems = c.check()
        except (RuntimeError, subprocess.CalledProcessError) as e:
            problems = ["the harness failed: %s" % e]
        kills += c.kills
        if not problems:
            c.drop_topics()
        if args.verbose or problems:
            detail = ""
            if args.verbose and getattr(c, "log", None):
                detail = " [%s; %s]" % (" ".join(c.log), " ".join(
                    "%s=%d" % (s, len(v)) for s, v in sorted(getattr(c, "want", {}).items())))
            print("case %d: %s: %s%s" % (seed, "FAILED" if problems else "ok", " ".join(c.case.desc), detail), flush=True)
        if problems:
            failed.append(seed)
            print("\n".join("  " + p for p in problems))
            print("  reproduce: " + repro(args, seed), flush=True)
            if getattr(c, "log", None) or getattr(c, "attempts", None):
                print("  with this run's kills: " + repro(args, seed) + " --kills " +
                      ",".join(getattr(c, "log", None) or c.attempts), flush=True)
            keep = os.path.join(work, "failed-%d" % seed)
            shutil.rmtree(keep, ignore_errors=True)
            shutil.move(case_work, keep)
            print("  files kept in " + keep, flush=True)
    if args.kafka_tool:
        args.kafka_tool.close()
    print("crash harness%s: %d random pipelines, %d kills, %d failed%s (%.0f s)"
          % (" (kafka)" if args.kafka else "", len(seeds), kills, len(failed), (": seeds " + " ".join(map(str, failed))) if failed else "",
             time.time() - t0))
    if failed:
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
