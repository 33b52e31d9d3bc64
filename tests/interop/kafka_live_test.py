#!/usr/bin/env python3
"""Running Kafka sources against a real broker (issue 17): partitions and topics discovered while a job
runs and across a restore, per-partition watermarks with 'scan.watermark.idle-timeout', and clear errors.

Run inside tests/interop/kafka_broker.sh (which sets KAFKA_BOOTSTRAP and KAFKA_CP):

  bash tests/interop/kafka_broker.sh python3 tests/interop/kafka_live_test.py build/sluice [CASE...]

Each case drives an unbounded job step by step: it makes a change on the broker (kafka-topics --alter,
kafka-console-producer), then waits, with a bound, for the job to show the effect (its printed rows, or
the offsets its checkpoints commit to the consumer group). Nothing sleeps for a fixed time.
"""
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time

import kafka_broker_test as kb
from kafka_broker_test import BOOTSTRAP, SLUICE, check, create_topic, failures, group_offsets, kafka_table, tool

WAIT = 90  # the bound on each wait for a job to show an effect (never an assertion on speed)


class LiveJob:
    """`sluice run --format csv` of an unbounded script; its printed rows are collected as they come."""

    def __init__(self, sql, sets=()):
        self.file = tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, dir=kb.TMP)
        self.file.write(sql)
        self.file.close()
        cmd = [SLUICE, "run", "--format", "csv"]
        for s in sets:
            cmd += ["--set", s]
        self.proc = subprocess.Popen(cmd + [self.file.name], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.lines = queue.Queue()
        self.rows = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_rows(self, done, what):
        """Collects rows until done(rows) holds, the job ends, or WAIT seconds pass; True when done."""
        deadline = time.monotonic() + WAIT
        while not done(self.rows):
            left = deadline - time.monotonic()
            if left <= 0:
                print("     (timed out waiting for %s; %d rows so far)" % (what, len(self.rows)))
                return False
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                print("     (the job ended while waiting for %s: %s)" % (what, self.stderr()[-400:]))
                return False
            if line.startswith(("+I", "-U", "+U", "-D")):
                self.rows.append(line.split(","))
        return True

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        os.unlink(self.file.name)
        if os.environ.get("SLUICE_LIVE_VERBOSE"):
            print("     (job stderr: %s)" % self.proc.stderr.read()[-2000:])

    def stderr(self):
        return self.proc.stderr.read() if self.proc.poll() is not None else ""


def alter_partitions(topic, n):
    tool("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", BOOTSTRAP, "--alter", "--topic", topic,
         "--partitions", str(n))


def produce_ids(topic, ids, keyed=True):
    """One JSON record {"id": i} per id, keyed by "k<i>" (Kafka's murmur2 spreads them over the partitions)."""
    kb.produce(topic, ['k%d|{"id":%d}' % (i, i) for i in ids])


def wait_committed(group, topics, what):
    """Waits (bounded: at most WAIT seconds of polls) until the group's committed offsets reach the log end
    of every partition of `topics`: a checkpoint that holds every record there has completed."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        ok = True
        for topic, partitions in topics.items():
            lag = group_offsets(group, topic)
            ok = ok and len(lag) == partitions and all(cur == end for cur, end in lag.values())
        if ok:
            return True
    print("     (timed out waiting for %s)" % what)
    return False


def ids_of(rows):
    return sorted(int(r[1]) for r in rows)


def test_discovery():
    """'topic-pattern' with 'scan.topic-partition-discovery.interval': partitions added to a topic and a new
    topic matching the pattern while the job runs are read from their earliest offset (also with
    'scan.startup.mode' = 'latest-offset', as Flink's); a restore whose topic gained a partition while the
    job was down reads the checkpointed partitions from their offsets and the new one from its start."""
    create_topic("disc_a", 1)
    produce_ids("disc_a", range(0, 5))  # before the job: skipped by latest-offset
    group = "sluice-disc"
    ddl = kafka_table("t", "", "id INT, tp STRING METADATA FROM 'topic' VIRTUAL, "
                      "part INT METADATA FROM 'partition' VIRTUAL",
                      **{"value.format": "json", "properties.group.id": group,
                         "scan.startup.mode": "latest-offset", "scan.topic-partition-discovery.interval": "200 ms"})
    ddl = ddl.replace("'topic' = ''", "'topic-pattern' = 'disc_[a-z]+'")
    sql = ddl + "SELECT id, tp, part FROM t;"
    ckpt = tempfile.mkdtemp(prefix="ckpt-disc-", dir=kb.TMP)
    sets = ("execution.checkpointing.interval=100 ms", "state.checkpoints.dir=" + ckpt)
    job = LiveJob(sql, sets)
    try:
        # Step 1: the job's first checkpoint commits the start offsets (the log end: latest-offset).
        ready = wait_committed(group, {"disc_a": 1}, "the first checkpoint")
        check("discovery: the job started at the latest offset of disc_a", ready, True)
        produce_ids("disc_a", range(5, 10))
        check("discovery: records of disc_a-0 read", job.wait_rows(lambda r: len(r) >= 5, "ids 5..9"), True)
        # Step 2: two more partitions; records for them may arrive before the job sees the partitions.
        alter_partitions("disc_a", 3)
        produce_ids("disc_a", range(10, 40))
        job.wait_rows(lambda r: len(r) >= 35, "ids 10..39")
        check("discovery: partitions added while running are read from their start",
              ids_of(job.rows), list(range(5, 40)))
        check("discovery: rows from the new partitions", sorted({r[3] for r in job.rows}), ["0", "1", "2"])
        # Step 3: a new topic that matches the pattern, and one that does not.
        create_topic("disc_b", 2)
        create_topic("other_c", 1)
        produce_ids("other_c", range(1000, 1005))
        produce_ids("disc_b", range(40, 60))
        job.wait_rows(lambda r: len(r) >= 55, "ids 40..59")
        check("discovery: a new topic matching 'topic-pattern' is read from its start; others are not",
              ids_of(job.rows), list(range(5, 60)))
        # Step 4: a checkpoint with every record so far completes; then the job is killed.
        done = wait_committed(group, {"disc_a": 3, "disc_b": 2}, "a checkpoint with every partition at its end")
        check("discovery: the offsets of discovered partitions are committed on checkpoints", done, True)
    finally:
        job.kill()
    # While the job is down: disc_b gains a partition, and records go to every partition.
    alter_partitions("disc_b", 3)
    produce_ids("disc_a", range(60, 80))
    produce_ids("disc_b", range(80, 100))
    job = LiveJob(sql, sets)
    try:
        job.wait_rows(lambda r: len(r) >= 40, "ids 60..99")
        # Partitions are read in offset order, so a re-read of older records would have come first.
        check("discovery restore: exactly the records after the checkpoint, the new partition from its start",
              ids_of(job.rows), list(range(60, 100)))
        check("discovery restore: rows from the partition added while the job was down",
              "2" in {r[3] for r in job.rows if r[2] == "disc_b"}, True)
    finally:
        job.kill()


def test_idle_watermark():
    """One split per partition, each with its own watermark: records only in partition 0 of a 2-partition
    topic. Without an idle timeout the empty partition holds the watermark back, so the window [0 s, 10 s)
    never fires, even after a checkpoint shows every record was read; with 'scan.watermark.idle-timeout'
    the empty partition goes idle and the window fires on partition 0's watermark (the records arrive
    after the job started, so partition 0 is active while partition 1 is idle, as in Flink, where a
    source whose splits are all idle emits no watermark)."""
    create_topic("wm", 2)

    def job(group, idle):
        opts = {"value.format": "json", "scan.startup.mode": "earliest-offset", "properties.group.id": group}
        if idle:
            opts["scan.watermark.idle-timeout"] = idle
        ddl = kafka_table("w", "wm", "id INT, ts TIMESTAMP(3), part INT METADATA FROM 'partition' VIRTUAL, "
                          "WATERMARK FOR ts AS ts", **opts)
        sql = ddl + ("SELECT window_start, COUNT(*) AS n, MAX(part) AS p FROM TABLE(TUMBLE(TABLE w, DESCRIPTOR(ts), "
                     "INTERVAL '10' SECOND)) GROUP BY window_start, window_end;")
        d = tempfile.mkdtemp(prefix="ckpt-wm-", dir=kb.TMP)
        return LiveJob(sql, ("execution.checkpointing.interval=100 ms", "state.checkpoints.dir=" + d))

    idle = job("sluice-wm-idle", "500 ms")
    try:
        # Step 1: the job runs (its first checkpoint commits the empty partitions' offsets).
        check("idle: the job started", wait_committed("sluice-wm-idle", {"wm": 2}, "the first checkpoint"), True)
        # Step 2: records in partition 0 only ('sink.partitioner' = 'fixed': the sink's one writer writes
        # partition 0).
        sink = kafka_table("w", "wm", "id INT, ts TIMESTAMP(3)", **{"value.format": "json",
                                                                    "sink.partitioner": "fixed"})
        kb.sluice(sink + "INSERT INTO w VALUES (1, TIMESTAMP '2026-01-01 00:00:01'), "
                  "(2, TIMESTAMP '2026-01-01 00:00:05'), (3, TIMESTAMP '2026-01-01 00:00:12');")
        idle.wait_rows(lambda r: len(r) >= 1, "the window [0 s, 10 s)")
        got = [(r[1][:19], r[2], r[3]) for r in idle.rows]
        check("idle: with 'scan.watermark.idle-timeout' the window fires on partition 0's watermark",
              got, [("2026-01-01 00:00:00", "2", "0")])
    finally:
        idle.kill()
    held = job("sluice-wm-held", None)
    try:
        read = wait_committed("sluice-wm-held", {"wm": 2}, "a checkpoint after every record")
        check("idle: without the idle timeout every record is read and checkpointed", read, True)
        while not held.lines.empty():
            line = held.lines.get()
            if line and line.startswith("+I"):
                held.rows.append(line.split(","))
        check("idle: the empty partition holds the watermark back (no window)", held.rows, [])
    finally:
        held.kill()


def test_tls():
    """TLS with a client certificate through 'properties.security.protocol' = 'SSL' and 'properties.ssl.*'
    (kafka_broker.sh with SLUICE_KAFKA_TLS=1); the key password never shows in EXPLAIN, SHOW CREATE TABLE
    or errors, and a failed handshake names the broker and the cause."""
    servers = os.environ.get("KAFKA_SSL_BOOTSTRAP")
    if not servers:
        print("skip tls: run kafka_broker.sh with SLUICE_KAFKA_TLS=1")
        return
    password = os.environ["KAFKA_SSL_KEY_PASSWORD"]
    create_topic("tls_t", 1)

    def ddl(**override):
        o = {"properties.bootstrap.servers": servers, "properties.security.protocol": "SSL",
             "properties.ssl.ca.location": os.environ["KAFKA_SSL_CA"],
             "properties.ssl.certificate.location": os.environ["KAFKA_SSL_CERT"],
             "properties.ssl.key.location": os.environ["KAFKA_SSL_KEY"],
             "properties.ssl.key.password": password,
             "value.format": "json", "scan.startup.mode": "earliest-offset", "scan.bounded.mode": "latest-offset"}
        o.update(override)
        return kafka_table("t", "tls_t", "id INT, v STRING", **o)
    p = kb.sluice(ddl() + "INSERT INTO t VALUES (1, 'a'), (2, 'b');\nSELECT * FROM t;\n"
                  "EXPLAIN SELECT * FROM t;\nSHOW CREATE TABLE t;\n", check=False)
    check("tls: write and read back through SSL with a client certificate",
          [r for r in kb.csv_rows(p.stdout) if r.startswith("+I")], ["+I,1,a", "+I,2,b"])
    check("tls: the key password is not in the output", password in p.stdout + p.stderr, False)
    check("tls: EXPLAIN and SHOW CREATE TABLE ran (the ssl options shown, the password masked)",
          ("TableSourceScan" in p.stdout, "'properties.ssl.key.password'" in p.stdout), (True, True))
    bad = "wrong-" + password[:6]
    p = kb.sluice(ddl(**{"properties.ssl.key.password": bad}) + "SELECT * FROM t;\n", check=False)
    check("tls: a wrong key password fails without showing it", (p.returncode != 0, bad in p.stdout + p.stderr),
          (True, False))
    print("     (error: %s)" % (p.stderr.strip().splitlines() or [""])[-1][:300])
    noclient = ddl()
    for k in ("properties.ssl.certificate.location", "properties.ssl.key.location", "properties.ssl.key.password"):
        noclient = "\n".join(l for l in noclient.split("\n") if k not in l)
    p = kb.sluice(noclient + "SELECT * FROM t;\n", check=False)
    err = (p.stderr.strip().splitlines() or [""])[-1]
    check("tls: without a client certificate the error names the servers and the protocol",
          (p.returncode != 0, servers in err, "security.protocol SSL" in err), (True, True, True))
    print("     (error: %s)" % err[:300])
    p = kb.sluice(ddl(**{"properties.ssl.truststore.location": "/tmp/x.jks"}) + "SELECT * FROM t;\n", check=False)
    check("tls: Java's truststore option gets a clear error", "ssl.ca.location" in p.stderr, True)


def test_errors():
    """A wrong SASL password names the broker, the mechanism and the cause, and fails early (before the
    request timeout); a missing topic and an unreachable broker name what is wrong too."""
    servers = os.environ.get("KAFKA_SASL_BOOTSTRAP")
    if servers:
        jaas = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="%s" '
                'password="nope-%s";' % (os.environ["KAFKA_SASL_USER"], os.environ["KAFKA_SASL_PASSWORD"][:4]))
        ddl = kafka_table("t", "sasl_x", "id INT", **{
            "properties.bootstrap.servers": servers, "properties.security.protocol": "SASL_PLAINTEXT",
            "properties.sasl.mechanism": "PLAIN", "properties.sasl.jaas.config": jaas,
            "value.format": "json", "scan.startup.mode": "earliest-offset", "scan.bounded.mode": "latest-offset"})
        p = kb.sluice(ddl + "SELECT * FROM t;", check=False)
        err = (p.stderr.strip().splitlines() or [""])[-1]
        print("     (error: %s)" % err[:300])
        check("errors: a wrong SASL password names the servers, the mechanism and the failed authentication",
              (p.returncode != 0, servers in err, "sasl.mechanism PLAIN" in err, "uthenticat" in err),
              (True, True, True, True))
        check("errors: ... before the request timeout (not 'after 30 s')", "after 30 s" in err, False)
    else:
        print("skip errors/sasl: run kafka_broker.sh with SLUICE_KAFKA_SASL=1")
    dead = "127.0.0.1:%d" % kb.free_port()
    src = kafka_table("nope", "no_such_topic", "id INT", **{"value.format": "json",
                                                            "scan.startup.mode": "earliest-offset",
                                                            "scan.bounded.mode": "latest-offset"})
    p = kb.sluice(src + "SELECT * FROM nope;", check=False)
    err = (p.stderr.strip().splitlines() or [""])[-1]
    check("errors: a missing topic is named with the cluster", ("no_such_topic" in err, BOOTSTRAP in err), (True, True))
    p = kb.sluice(src.replace(BOOTSTRAP, dead) + "SELECT * FROM nope;", check=False)
    err = (p.stderr.strip().splitlines() or [""])[-1]
    print("     (error: %s)" % err[:300])
    check("errors: an unreachable broker: the servers, the protocol and the refused connection",
          (dead in err, "security.protocol PLAINTEXT" in err, "refused" in err.lower()), (True, True, True))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        kb.TMP = tmp
        cases = {"discovery": test_discovery, "idle_watermark": test_idle_watermark, "tls": test_tls,
                 "errors": test_errors}
        only = sys.argv[2:]
        for name, t in cases.items():
            if only and name not in only:
                continue
            try:
                t()
            except Exception as e:  # one broken case does not hide the others
                print("FAIL %s: %s" % (name, e))
                failures.append(str(e)[:80])
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("all live Kafka checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
