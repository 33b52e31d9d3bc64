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
import sys
import tempfile

import kafka_tools as kt
from kafka_tools import (BOOTSTRAP, LiveJob, alter_partitions, check, create_topic, kafka_table, produce, run_cases,
                         sluice, wait_committed)


def produce_ids(topic, ids):
    """One JSON record {"id": i} per id, keyed by "k<i>" (Kafka's murmur2 spreads them over the partitions)."""
    produce(topic, ['k%d|{"id":%d}' % (i, i) for i in ids])


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
    ckpt = tempfile.mkdtemp(prefix="ckpt-disc-", dir=kt.TMP)
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


def test_empty_pattern():
    """A 'topic-pattern' source that starts while no topic matches: the job runs with no split (waiting
    in a bounded poll until the next discovery, not spinning), then reads a matching topic created later
    from its start."""
    ddl = kafka_table("t", "", "id INT, tp STRING METADATA FROM 'topic' VIRTUAL",
                      **{"value.format": "json", "scan.startup.mode": "latest-offset",
                         "scan.topic-partition-discovery.interval": "200 ms"})
    ddl = ddl.replace("'topic' = ''", "'topic-pattern' = 'late_[a-z]+'")
    ckpt = tempfile.mkdtemp(prefix="ckpt-late-", dir=kt.TMP)
    job = LiveJob(ddl + "SELECT id, tp FROM t;", ("execution.checkpointing.interval=100 ms",
                                                 "state.checkpoints.dir=" + ckpt))
    try:
        # The job runs (its splits were made, none) once a checkpoint was written.
        check("empty pattern: the job runs without a split", kt.wait_for(lambda: any(os.scandir(ckpt)), "a checkpoint"),
              True)
        create_topic("late_a", 2)
        produce_ids("late_a", range(0, 10))
        job.wait_rows(lambda r: len(r) >= 10, "ids 0..9")
        check("empty pattern: a topic created after the job started is read from its start",
              (ids_of(job.rows), {r[2] for r in job.rows}), (list(range(10)), {"late_a"}))
        check("empty pattern: the job is still running", job.proc.poll(), None)
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
        d = tempfile.mkdtemp(prefix="ckpt-wm-", dir=kt.TMP)
        return LiveJob(sql, ("execution.checkpointing.interval=100 ms", "state.checkpoints.dir=" + d))

    idle = job("sluice-wm-idle", "500 ms")
    try:
        # Step 1: the job runs (its first checkpoint commits the empty partitions' offsets).
        check("idle: the job started", wait_committed("sluice-wm-idle", {"wm": 2}, "the first checkpoint"), True)
        # Step 2: records in partition 0 only ('sink.partitioner' = 'fixed': the sink's one writer writes
        # partition 0).
        sink = kafka_table("w", "wm", "id INT, ts TIMESTAMP(3)", **{"value.format": "json",
                                                                    "sink.partitioner": "fixed"})
        sluice(sink + "INSERT INTO w VALUES (1, TIMESTAMP '2026-01-01 00:00:01'), "
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
        held.drain()
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
    p = sluice(ddl() + "INSERT INTO t VALUES (1, 'a'), (2, 'b');\nSELECT * FROM t;\n"
                  "EXPLAIN SELECT * FROM t;\nSHOW CREATE TABLE t;\n", check=False)
    check("tls: write and read back through SSL with a client certificate",
          [r for r in kt.csv_rows(p.stdout) if r.startswith("+I")], ["+I,1,a", "+I,2,b"])
    check("tls: the key password is not in the output", password in p.stdout + p.stderr, False)
    check("tls: EXPLAIN and SHOW CREATE TABLE ran (the ssl options shown, the password masked)",
          ("TableSourceScan" in p.stdout, "'properties.ssl.key.password'" in p.stdout), (True, True))
    bad = "wrong-" + password[:6]
    p = sluice(ddl(**{"properties.ssl.key.password": bad}) + "SELECT * FROM t;\n", check=False)
    check("tls: a wrong key password fails without showing it", (p.returncode != 0, bad in p.stdout + p.stderr),
          (True, False))
    print("     (error: %s)" % (p.stderr.strip().splitlines() or [""])[-1][:300])
    noclient = ddl()
    for k in ("properties.ssl.certificate.location", "properties.ssl.key.location", "properties.ssl.key.password"):
        noclient = "\n".join(l for l in noclient.split("\n") if k not in l)
    p = sluice(noclient + "SELECT * FROM t;\n", check=False)
    err = (p.stderr.strip().splitlines() or [""])[-1]
    check("tls: without a client certificate the error names the servers and the protocol",
          (p.returncode != 0, servers in err, "security.protocol SSL" in err), (True, True, True))
    print("     (error: %s)" % err[:300])
    p = sluice(ddl(**{"properties.ssl.truststore.location": "/tmp/x.jks"}) + "SELECT * FROM t;\n", check=False)
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
        p = sluice(ddl + "SELECT * FROM t;", check=False)
        err = (p.stderr.strip().splitlines() or [""])[-1]
        print("     (error: %s)" % err[:300])
        check("errors: a wrong SASL password names the servers, the mechanism and the failed authentication",
              (p.returncode != 0, servers in err, "sasl.mechanism PLAIN" in err, "uthenticat" in err),
              (True, True, True, True))
        check("errors: ... before the request timeout (not 'after 30 s')", "after 30 s" in err, False)
    else:
        print("skip errors/sasl: run kafka_broker.sh with SLUICE_KAFKA_SASL=1")
    dead = "127.0.0.1:%d" % kt.free_port()
    src = kafka_table("nope", "no_such_topic", "id INT", **{"value.format": "json",
                                                            "scan.startup.mode": "earliest-offset",
                                                            "scan.bounded.mode": "latest-offset"})
    p = sluice(src + "SELECT * FROM nope;", check=False)
    err = (p.stderr.strip().splitlines() or [""])[-1]
    check("errors: a missing topic is named with the cluster", ("no_such_topic" in err, BOOTSTRAP in err), (True, True))
    p = sluice(src.replace(BOOTSTRAP, dead) + "SELECT * FROM nope;", check=False)
    err = (p.stderr.strip().splitlines() or [""])[-1]
    print("     (error: %s)" % err[:300])
    check("errors: an unreachable broker: the servers, the protocol and the refused connection",
          (dead in err, "security.protocol PLAINTEXT" in err, "refused" in err.lower()), (True, True, True))


def main():
    return run_cases({"discovery": test_discovery, "empty_pattern": test_empty_pattern,
                      "idle_watermark": test_idle_watermark, "tls": test_tls, "errors": test_errors}, "live Kafka")


if __name__ == "__main__":
    sys.exit(main())
