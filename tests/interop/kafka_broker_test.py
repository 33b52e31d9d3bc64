#!/usr/bin/env python3
"""The kafka and upsert-kafka connectors against a real Apache Kafka broker (issue 17).

Run inside tests/interop/kafka_broker.sh, which sets KAFKA_BOOTSTRAP and KAFKA_CP:

  bash tests/interop/kafka_broker.sh python3 tests/interop/kafka_broker_test.py build/sluice

Kafka's own tools are the independent side: kafka-topics creates topics, kafka-console-producer writes
keyed records, kafka-console-consumer (--isolation-level read_committed) reads what Sluice wrote,
kafka-consumer-groups shows committed offsets, and a small Java producer (kafka/TxnProducer.java,
compiled here against kafka-clients) writes an aborted transaction. Only the standard library is used.
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

import kafka_tools as kt
from kafka_tools import (BOOTSTRAP, CP, HERE, JAVA, SLUICE, TIMEOUT, check, checkpointed, console_lines, consume,
                         create_topic, csv_rows, free_port, group_offsets, kafka_table, produce, run, run_cases,
                         sluice, tool, tool_lines)


def test_source():
    create_topic("src", 3)
    lines = ['{"k":"k%d"}|{"id":%d,"name":"n%d"}' % (i % 5, i, i) for i in range(30)]
    produce("src", lines)
    ddl = kafka_table("src", "src", "k STRING, id INT, name STRING, part INT METADATA FROM 'partition' VIRTUAL",
                      **{"key.format": "json", "key.fields": "k", "value.format": "json",
                         "value.fields-include": "EXCEPT_KEY", "scan.startup.mode": "earliest-offset",
                         "scan.bounded.mode": "latest-offset"})
    out = sluice(ddl + "SELECT k, id, name FROM src;").stdout
    got = sorted(csv_rows(out))
    want = sorted("+I,k%d,%d,n%d" % (i % 5, i, i) for i in range(30))
    check("source: keyed records from 3 partitions, earliest-offset to latest-offset", got, want)
    # Every key lives in one partition (Kafka's murmur2 partitioning by the Java producer).
    out = sluice(ddl + "SELECT k, COUNT(DISTINCT part) AS parts FROM src GROUP BY k;", sets=()).stdout
    final = {}
    for r in csv_rows(out):
        f = r.split(",")
        final[f[1]] = f[2] if f[0] in ("+I", "+U") else None
    check("source: one partition per key", sorted(final.items()), [("k%d" % i, "1") for i in range(5)])


def test_sink(guarantee):
    topic = "sink_" + guarantee.replace("-", "_")
    create_topic(topic, 2)
    values = ", ".join("(%d, 'v%d')" % (i, i) for i in range(50))
    ddl = kafka_table("sink_t", topic, "id INT, v STRING", **{"key.format": "json", "key.fields": "id",
                                                            "value.format": "json",
                                                            "sink.delivery-guarantee": guarantee,
                                                            "sink.transactional-id-prefix": "sluice-test"})
    p = sluice(ddl + "INSERT INTO sink_t SELECT * FROM (VALUES %s) AS t(id, v);" % values, check=False,
               sets=checkpointed())
    if p.returncode != 0:
        check("sink %s: runs" % guarantee, p.stderr, "")
        return p
    got = sorted(json.loads(v)["id"] for _, v in consume(topic, 50))
    check("sink %s: read_committed sees every row once" % guarantee, got, list(range(50)))
    return p


def transaction_state(txn_id):
    """kafka-transactions describe: the TransactionState of txn_id ('' when unknown)."""
    lines = tool_lines("org.apache.kafka.tools.TransactionsCommand", "--bootstrap-server", BOOTSTRAP, "describe",
                       "--transactional-id", txn_id)
    for line in lines:
        f = line.split()
        if len(f) >= 5 and f[1] == txn_id:
            return f[4]
    return ""


def eos_opts(prefix, **extra):
    o = {"sink.delivery-guarantee": "exactly-once", "sink.transactional-id-prefix": prefix}
    o.update(extra)
    return o


def test_exactly_once():
    """'exactly-once' on the real broker: transactions per checkpoint, a whole-run transaction without
    checkpoints, and the refusal of a transaction timeout above the broker's limit."""
    p = test_sink("exactly-once")
    check("sink exactly-once: runs", p.returncode, 0)
    check("sink exactly-once: kafka-transactions shows the last transaction committed",
          transaction_state("sluice-test-0"), "CompleteCommit")
    marker = group_offsets("sluice-test-0-progress", "sink_exactly_once")
    check("sink exactly-once: the progress marker is a committed offset of its group on partition 0",
          sorted(marker) == [0] and int(marker[0][0]) >= 1, True)
    # upsert-kafka with the reducing buffer, exactly-once: the buffer is written into each checkpoint's
    # transaction at the barrier.
    create_topic("eos_upsert", 2)
    ddl = kafka_table("counts", "eos_upsert", "k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED",
                      **eos_opts("eos-upsert", **{"connector": "upsert-kafka", "key.format": "json",
                                                  "value.format": "json", "sink.buffer-flush.max-rows": "3",
                                                  "sink.buffer-flush.interval": "1 s"}))
    values = ", ".join("('k%d')" % (i % 4) for i in range(40))
    p = sluice(ddl + "INSERT INTO counts SELECT k, COUNT(*) FROM (VALUES %s) AS t(k) GROUP BY k;" % values,
               check=False, sets=checkpointed())
    check("upsert-kafka exactly-once: runs", p.stderr if p.returncode else "", "")
    check("upsert-kafka exactly-once: read_committed folds to the table",
          {json.loads(k)["k"]: json.loads(v)["n"] for k, v in fold(consume("eos_upsert", 1000, idle_ms=5000)).items()},
          {"k0": 10, "k1": 10, "k2": 10, "k3": 10})
    # Two INSERTs into one exactly-once table (a statement set): each writer gets its own transactional
    # id ('<prefix>-0', '<prefix>-1') instead of fencing the other.
    create_topic("eos_two", 1)
    ddl = kafka_table("sink_t", "eos_two", "id INT", **eos_opts("eos-two", **{"value.format": "json"}))
    p = sluice(ddl + "EXECUTE STATEMENT SET BEGIN\nINSERT INTO sink_t VALUES (1), (2);\nINSERT INTO sink_t VALUES (3);\nEND;",
               check=False, sets=checkpointed())
    check("exactly-once: two writers of one prefix run", p.stderr if p.returncode else "", "")
    check("exactly-once: two writers of one prefix: every row once",
          sorted(json.loads(v)["id"] for _, v in consume("eos_two", 3)), [1, 2, 3])
    check("exactly-once: two writers of one prefix: two transactional ids, committed",
          (transaction_state("eos-two-0"), transaction_state("eos-two-1")), ("CompleteCommit", "CompleteCommit"))
    # Without checkpointing the whole run is one transaction, committed at the end.
    create_topic("eos_nockpt", 1)
    ddl = kafka_table("sink_t", "eos_nockpt", "id INT", **eos_opts("eos-nockpt", **{"value.format": "json"}))
    p = sluice(ddl + "INSERT INTO sink_t SELECT * FROM (VALUES (1), (2), (3)) AS t(id);", check=False)
    check("sink exactly-once without checkpoints: one transaction", (p.returncode, p.stderr.count("error")), (0, 0))
    check("sink exactly-once without checkpoints: read_committed sees every row",
          sorted(json.loads(v)["id"] for _, v in consume("eos_nockpt", 3)), [1, 2, 3])
    # A transaction timeout the broker refuses (its transaction.max.timeout.ms is 900000 by default).
    ddl = kafka_table("sink_t", "eos_nockpt", "id INT",
                      **eos_opts("eos-timeout", **{"value.format": "json",
                                                   "properties.transaction.timeout.ms": "3600000"}))
    p = sluice(ddl + "INSERT INTO sink_t VALUES (9);", check=False)
    msg = (p.stderr.strip().splitlines() or [""])[-1]
    print("     (%s)" % msg)
    check("sink exactly-once: a transaction timeout above the broker's limit is refused with the limit",
          p.returncode != 0 and "'properties.transaction.timeout.ms': 3600000 is larger than the broker's "
          "'transaction.max.timeout.ms' (900000)" in msg, True)


def fold_debezium(records):
    """Folds debezium-json records strictly: a deletion ('d', also the -U half of an update) must
    remove exactly the current row of its key, an insertion ('c') must find none. A record written
    twice breaks the chain. Returns (table, first violation or None)."""
    table = {}
    for key, value in records:
        v = json.loads(value)
        if v["op"] == "d":
            if table.get(key) != v["before"]:
                return table, "%s: -%r but the row is %r" % (key, v["before"], table.get(key))
            del table[key]
        else:
            if key in table:
                return table, "%s: +%r but the row %r exists" % (key, v["after"], table[key])
            table[key] = v["after"]
    return table, None


EOS_ROWS = 600


def eos_pipeline(topic, prefix):
    """datagen 1..600 (600 rows/s, so a run spans about ten checkpoints) -> GROUP BY id % 7 -> an
    exactly-once 'kafka' sink with debezium-json values keyed by the group key."""
    return ("CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', "
            "'fields.id.start' = '1', 'fields.id.end' = '%d', 'rows-per-second' = '600');\n" % EOS_ROWS +
            kafka_table("sink_t", topic, "k INT, c BIGINT, s BIGINT",
                        **eos_opts(prefix, **{"key.format": "json", "key.fields": "k",
                                              "value.format": "debezium-json"})) +
            "INSERT INTO sink_t SELECT id % 7 AS k, COUNT(*) AS c, SUM(id) AS s FROM gen GROUP BY id % 7;")


def run_until_done(cmd, kills):
    """Runs cmd; the i-th run is killed (SIGKILL) by kills[i]: a failpoint name@n (the process kills
    itself there) or a delay in seconds. Then runs it to completion (at most 5 more attempts).
    Returns the number of runs that were killed and the records the completing run's sink wrote again
    (the job summary's 'replayed records': lost commits recovered from the restored checkpoint)."""
    killed = 0
    for k in kills:
        env = dict(os.environ)
        if isinstance(k, str):
            env["SLUICE_FAILPOINT"] = k
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=env)
            rc = p.returncode
        else:
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                rc = proc.wait(timeout=k)
            except subprocess.TimeoutExpired:
                proc.kill()
                rc = proc.wait()
        killed += rc == -9
        if rc == 0:
            return killed, None
    for _ in range(5):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
        if p.returncode == 0:
            return killed, replayed_records(p.stdout + p.stderr)
        print("     (restart failed: %s)" % p.stderr.strip()[-300:])
    return killed, None


def replayed_records(summary):
    """The 'replayed records' column of the job summary's Kafka sink table."""
    lines = summary.splitlines()
    for i, line in enumerate(lines[:-1]):
        if "replayed records" in line:
            return int(lines[i + 1].split()[-1])
    return None


def test_exactly_once_crash():
    """The stateful exactly-once pipeline killed with SIGKILL at failpoints and at fixed moments, and
    restarted from its checkpoints until it ends: a read_committed reader folds the changelog without a
    duplicated or missing change (strict fold), to the table of an unkilled run; no transaction is left
    open."""
    want = {}
    for i in range(1, EOS_ROWS + 1):
        c, s_ = want.get(i % 7, (0, 0))
        want[i % 7] = (c + 1, s_ + i)
    want = {json.dumps({"k": k}, separators=(",", ":")): {"k": k, "c": c, "s": s_} for k, (c, s_) in want.items()}
    # The replays the completing run must make: a commit lost with the checkpoint durable is written
    # again; a checkpoint committed before the crash, or never durable, is not.
    scenarios = [
        ("unkilled", [], None),
        ("after pre-commit (flushed, checkpoint not durable)", ["sink.after-precommit@3"], False),
        ("checkpoint durable, before the commit", ["checkpoint.before-commit@3"], True),
        ("after the commit", ["checkpoint.after-commit@3"], False),
        ("twice: before the commit, then during the restored run's commit",
         ["checkpoint.before-commit@2", "checkpoint.before-commit@2"], True),
        ("at fixed moments (0.35 s, 0.6 s, 0.45 s into each run)", [0.35, 0.6, 0.45], None),
    ]
    txn_ids = []
    for n, (name, kills, replays) in enumerate(scenarios):
        topic, prefix = "eos_crash_%d" % n, "eos-crash-%d" % n
        create_topic(topic, 2)
        txn_ids.append(prefix + "-0")
        with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, dir=kt.TMP) as f:
            f.write(eos_pipeline(topic, prefix))
        sets = checkpointed()
        cmd = [SLUICE, "run", "--set", sets[0], "--set", sets[1], "--set", "sluice.exec.chunk-size=16", f.name]
        killed, replayed = run_until_done(cmd, kills)
        if replays is not None:
            check("exactly-once crash %s: the restart %s" % (name, "writes the lost commit again" if replays
                                                              else "writes nothing again"),
                  replayed is not None and (replayed > 0) == replays, True)
        records = consume(topic, 100000, idle_ms=5000)
        table, violation = fold_debezium(records)
        check("exactly-once crash %s: killed %d time(s), then completed" % (name, len(kills)), killed, len(kills))
        check("exactly-once crash %s: no change twice or missing (strict fold)" % name, violation, None)
        check("exactly-once crash %s: the folded topic equals the unkilled table" % name, table, want)
        check("exactly-once crash %s: no open transaction" % name, transaction_state(prefix + "-0"), "CompleteCommit")
        print("     (%d changes read; %s records replayed by the completing run)" % (len(records), replayed))
    hanging = tool("org.apache.kafka.tools.TransactionsCommand", "--bootstrap-server", BOOTSTRAP, "find-hanging",
                   "--broker-id", "1", check=False).stdout
    check("kafka-transactions find-hanging: none of the sink's transactions hangs",
          [t for t in txn_ids if t in hanging], [])


def test_sink_crash():
    """A Kafka sink killed (SIGKILL at a failpoint after its pre-commit) and restarted from its checkpoint:
    with 'at-least-once' every row is in the topic under read_committed (re-sent rows are allowed)."""
    create_topic("crash_out", 2)
    ddl = ("CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', "
           "'fields.id.start' = '1', 'fields.id.end' = '400', 'rows-per-second' = '400');\n" +
           kafka_table("sink_t", "crash_out", "id INT", **{"key.format": "json", "key.fields": "id",
                                                        "value.format": "json"}))
    sets = checkpointed()
    env = dict(os.environ, SLUICE_FAILPOINT="sink.after-precommit@3")
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, dir=kt.TMP) as f:
        f.write(ddl + "INSERT INTO sink_t SELECT id FROM gen;")
    # Small chunks, so the rate limit spreads the rows over about ten checkpoints.
    cmd = [SLUICE, "run", "--set", sets[0], "--set", sets[1], "--set", "sluice.exec.chunk-size=16", f.name]
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    check("sink crash: the first run is killed at the failpoint", first.returncode, -9)
    restarts = 0
    while restarts < 5:
        restarts += 1
        if subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT).returncode == 0:
            break
    ids = [json.loads(v)["id"] for _, v in consume("crash_out", 800, idle_ms=10000)]
    check("sink crash: every row at least once after the restart", sorted(set(ids)), list(range(1, 401)))
    print("     (%d records for 400 rows: %d re-sent after the restart, as 'at-least-once' allows)" %
          (len(ids), len(ids) - len(set(ids))))


def compile_txn_producer(tmp):
    run(["javac", "-cp", CP, "-d", tmp, os.path.join(HERE, "kafka", "TxnProducer.java")])
    return CP + os.pathsep + tmp


def test_read_committed(tmp):
    create_topic("txn", 1)
    cp = compile_txn_producer(tmp)
    run(JAVA + ["-cp", cp, "TxnProducer", BOOTSTRAP, "txn"])
    p = tool("org.apache.kafka.tools.TransactionsCommand", "--bootstrap-server", BOOTSTRAP, "describe",
             "--transactional-id", "sluice-test-txn-producer", check=False)
    check("kafka-transactions: the producer's last transaction is committed", "CompleteCommit" in p.stdout, True)
    check("kafka-console-consumer read_committed (the checker itself)",
          [json.loads(k)["k"] for k, _ in consume("txn", 4)], ["C1", "C2", "C3", "C4"])
    for isolation, want in (("read_committed", ["C1", "C2", "C3", "C4"]),
                            ("read_uncommitted", ["A1", "A2", "C1", "C2", "C3", "C4"])):
        ddl = kafka_table("t", "txn", "k STRING, v STRING",
                          **{"key.format": "json", "key.fields": "k", "value.format": "json",
                             "value.fields-include": "EXCEPT_KEY", "properties.isolation.level": isolation,
                             "scan.startup.mode": "earliest-offset", "scan.bounded.mode": "latest-offset"})
        p = sluice(ddl + "SELECT k FROM t;", check=False)
        got = sorted(r.split(",")[1] for r in csv_rows(p.stdout)) if p.returncode == 0 else p.stderr.strip()
        check("source %s over an aborted transaction" % isolation, got, want)
    # A transaction left open: read_committed cannot go past its first record (the last stable offset),
    # so a bounded read must end there instead of waiting for the transaction to end.
    opener = subprocess.Popen(JAVA + ["-cp", cp, "TxnProducer", BOOTSTRAP, "txn", "open"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        check("open transaction: started", opener.stdout.readline().strip(), "open")
        ddl = kafka_table("t", "txn", "k STRING, v STRING",
                          **{"key.format": "json", "key.fields": "k", "value.format": "json",
                             "value.fields-include": "EXCEPT_KEY", "properties.isolation.level": "read_committed",
                             "scan.startup.mode": "earliest-offset", "scan.bounded.mode": "latest-offset"})
        try:
            p = run([SLUICE, "run", "--format", "csv", "-e", ddl + "SELECT k FROM t;"], check=False, timeout=60)
            got = sorted(r.split(",")[1] for r in csv_rows(p.stdout)) if p.returncode == 0 else p.stderr.strip()
        except subprocess.TimeoutExpired:
            got = "the bounded read did not end within 60 s (waits for the open transaction)"
        check("source read_committed, bounded, next to an open transaction", got, ["C1", "C2", "C3", "C4"])
    finally:
        opener.stdin.close()
        opener.wait(timeout=TIMEOUT)


def test_consumer_group():
    """'properties.commit.offsets.on.checkpoint' (default true with a group): offsets are committed when
    checkpoints complete (the final checkpoint of a bounded job: the end offsets), never by librdkafka's
    auto-commit; a running job's checkpoints commit while it runs; nothing is committed without
    checkpoints or with the option 'false'."""
    create_topic("grp", 2)
    produce("grp", ['g%d|{"id":%d}' % (i, i) for i in range(20)])

    def table(group, **extra):
        o = {"value.format": "json", "properties.group.id": group, "scan.startup.mode": "earliest-offset",
             "scan.bounded.mode": "latest-offset"}
        o.update(extra)
        return kafka_table("g", "grp", "id INT", **o)

    out = sluice(table("sluice-grp") + "SELECT id FROM g;", sets=checkpointed()).stdout
    check("consumer group: rows read", sorted(int(r.split(",")[1]) for r in csv_rows(out)), list(range(20)))
    lag = group_offsets("sluice-grp", "grp")
    check("consumer group: kafka-consumer-groups shows the committed offsets at the log end",
          all(cur == end for cur, end in lag.values()) and len(lag) == 2, True)
    sluice(table("sluice-grp-nockpt") + "SELECT id FROM g;")
    check("consumer group: without checkpoints nothing is committed",
          [cur for cur, _ in group_offsets("sluice-grp-nockpt", "grp").values() if cur != "-"], [])
    sluice(table("sluice-grp-off", **{"properties.commit.offsets.on.checkpoint": "false"}) + "SELECT id FROM g;",
           sets=checkpointed())
    check("consumer group: 'properties.commit.offsets.on.checkpoint' = 'false' commits nothing",
          [cur for cur, _ in group_offsets("sluice-grp-off", "grp").values() if cur != "-"], [])
    # A running (unbounded) job commits at its checkpoints: the offsets reach the log end while it runs,
    # and stay after it is killed (no close committed them). A restart from the group's offsets reads
    # only what came after.
    ddl = table("sluice-grp-live", **{"scan.bounded.mode": "unbounded"})
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, dir=kt.TMP) as f:
        f.write(ddl + "SELECT id FROM g;")
    sets = checkpointed()
    job = subprocess.Popen([SLUICE, "run", "--set", sets[0], "--set", sets[1], f.name], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        live = {}
        for _ in range(30):  # a bound on the polls (each starts a JVM), not a speed assertion
            live = group_offsets("sluice-grp-live", "grp")
            if len(live) == 2 and all(cur == end for cur, end in live.values()):
                break
        check("consumer group: a running job's checkpoints commit its offsets (log end reached)",
              len(live) == 2 and all(cur == end for cur, end in live.values()), True)
    finally:
        job.kill()
        job.wait()
    produce("grp", ['h%d|{"id":%d}' % (i, i) for i in range(20, 25)])
    out = sluice(table("sluice-grp-live", **{"scan.startup.mode": "group-offsets"}) + "SELECT id FROM g;").stdout
    check("consumer group: a restart from 'group-offsets' reads only the new records",
          sorted(int(r.split(",")[1]) for r in csv_rows(out)), list(range(20, 25)))


def fold(records):
    table = {}
    for k, v in records:
        if v == "NULL":
            table.pop(k, None)
        else:
            table[k] = v
    return table


def test_upsert_compacted():
    create_topic("changes", 1)
    produce("changes", ['{"sku":"a"}|{"sku":"a","qty":1}', '{"sku":"b"}|{"sku":"b","qty":2}',
                        '{"sku":"a"}|{"sku":"a","qty":3}', '{"sku":"c"}|{"sku":"c","qty":4}',
                        '{"sku":"b"}|NULL', '{"sku":"d"}|{"sku":"d","qty":5}', '{"sku":"c"}|{"sku":"c","qty":6}'])
    create_topic("stock", 1, "cleanup.policy=compact", "segment.ms=100", "min.cleanable.dirty.ratio=0.01",
                 "delete.retention.ms=100")
    opts = {"connector": "upsert-kafka", "key.format": "json", "value.format": "json",
            "scan.bounded.mode": "latest-offset"}
    src = kafka_table("changes", "changes", "sku STRING, qty INT, PRIMARY KEY (sku) NOT ENFORCED", **opts)
    dst = kafka_table("stock", "stock", "sku STRING, qty INT, PRIMARY KEY (sku) NOT ENFORCED", **opts)
    sluice(src + dst + "INSERT INTO stock SELECT sku, qty FROM changes;")
    records = consume("stock", 7)
    check("upsert-kafka: 6 upserts and 1 tombstone in the compacted topic",
          (len(records), sum(1 for _, v in records if v == "NULL")), (7, 1))
    want = {'{"sku":"a"}': '{"sku":"a","qty":3}', '{"sku":"c"}': '{"sku":"c","qty":6}',
            '{"sku":"d"}': '{"sku":"d","qty":5}'}
    check("upsert-kafka: the folded topic equals the folded table", fold(records), want)
    check("upsert-kafka: Sluice reads the folded table back", read_upsert(dst), {"a": "3", "c": "6", "d": "5"})
    # Force a compaction: a record for a key that never had a value rolls the segment Sluice wrote
    # (segment.ms is 100 ms), and the cleaner then keeps one record per key of it.
    produce("stock", ['{"sku":"zz"}|NULL'])
    compacted = None
    for _ in range(20):  # a bound, in checks of a few seconds each; the cleaner runs every 0.5 s
        records = consume("stock", 8, idle_ms=3000)
        if len(records) < 8:
            compacted = records
            break
    if compacted is None:
        print("     (compaction was not observed in time; the folded check above stands)")
        return
    keys = [k for k, _ in compacted]
    check("upsert-kafka: after compaction one record per key, folding to the table",
          (len(keys) == len(set(keys)), fold(compacted)), (True, want))
    print("     (%d records after compaction: %r)" % (len(compacted), keys))
    check("upsert-kafka: Sluice reads the same table from the compacted topic", read_upsert(dst),
          {"a": "3", "c": "6", "d": "5"})


def read_upsert(ddl):
    """The table Sluice's upsert-kafka source 'stock' folds to: sku -> qty."""
    final = {}
    for r in csv_rows(sluice(ddl + "SELECT sku, qty FROM stock;").stdout):
        f = r.split(",")
        if f[0] in ("+I", "+U"):
            final[f[1]] = f[2]
        elif f[0] == "-D":
            final.pop(f[1], None)
    return final


def test_metadata_sink():
    """The writable metadata columns: kafka-console-consumer prints the timestamps and headers Sluice
    wrote (at-least-once and exactly-once); an exactly-once sink killed before a commit writes the lost
    records again with their headers."""
    for guarantee in ("at-least-once", "exactly-once"):
        topic = "meta_" + guarantee.replace("-", "_")
        create_topic(topic, 1)
        cols = "id INT, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', h MAP<STRING, BYTES> METADATA FROM 'headers'"
        ddl = kafka_table("sink_t", topic, cols, **{"value.format": "json", "sink.delivery-guarantee": guarantee,
                                                  "sink.transactional-id-prefix": "sluice-meta"})
        sluice(ddl + "INSERT INTO sink_t SELECT id, TO_TIMESTAMP_LTZ(1700000000000 + id, 3), MAP['src', "
               "CAST('n' || CAST(id AS STRING) AS BYTES)] FROM (VALUES (1), (2), (3)) AS t(id);", sets=checkpointed())
        lines = console_lines(topic, 3, "print.timestamp=true", "print.headers=true")
        got = sorted(tuple(l.split("\t")) for l in lines if l.startswith("CreateTime:"))
        want = sorted(("CreateTime:%d" % (1700000000000 + i), "src:n%d" % i, '{"id":%d}' % i) for i in (1, 2, 3))
        check("metadata sink %s: record timestamps and headers as written" % guarantee, got, want)
    # Exactly-once, killed with its checkpoint durable and the transaction not committed: the restart
    # writes that checkpoint's records again from its record log, headers included.
    topic, prefix = "meta_eos_crash", "meta-eos-crash"
    create_topic(topic, 1)
    ddl = ("CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', "
           "'fields.id.start' = '1', 'fields.id.end' = '300', 'rows-per-second' = '600');\n" +
           kafka_table("sink_t", topic, "id INT, h MAP<STRING, BYTES> METADATA FROM 'headers'",
                       **eos_opts(prefix, **{"value.format": "json"})))
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, dir=kt.TMP) as f:
        f.write(ddl + "INSERT INTO sink_t SELECT id, MAP['src', CAST('n' || CAST(id AS STRING) AS BYTES), "
                "'two', CAST('x' AS BYTES)] FROM gen;")
    sets = checkpointed()
    cmd = [SLUICE, "run", "--set", sets[0], "--set", sets[1], "--set", "sluice.exec.chunk-size=16", f.name]
    killed, replayed = run_until_done(cmd, ["checkpoint.before-commit@2"])
    check("metadata sink exactly-once crash: killed before the commit, then completed", killed, 1)
    check("metadata sink exactly-once crash: the restart writes the lost commit again",
          replayed is not None and replayed > 0, True)
    lines = console_lines(topic, 1000, "print.headers=true")
    got = sorted(lines, key=lambda l: l.split("\t")[-1])
    want = sorted(["src:n%d,two:x\t{\"id\":%d}" % (i, i) for i in range(1, 301)], key=lambda l: l.split("\t")[-1])
    check("metadata sink exactly-once crash: every record once, with its headers", got, want)
    print("     (%s records replayed with their headers)" % replayed)


def test_raw_null():
    """The 'raw' format writes a NULL as a null message, as Flink's: a tombstone as the value, no key as
    the key (kafka-console-consumer prints null.literal for both)."""
    create_topic("raw_null", 1)
    ddl = kafka_table("sink_t", "raw_null", "k STRING, v STRING",
                      **{"key.format": "raw", "key.fields": "k", "value.format": "raw",
                         "value.fields-include": "EXCEPT_KEY"})
    sluice(ddl + "INSERT INTO sink_t VALUES ('a', 'x'), ('b', CAST(NULL AS STRING)), (CAST(NULL AS STRING), 'y'), "
           "('c', '');")
    lines = console_lines("raw_null", 4, "print.key=true", "key.separator=|", "null.literal=NULL")
    check("raw: NULL is written as a null value (a tombstone) and as a null key", lines,
          ["a|x", "b|NULL", "NULL|y", "c|"])


def test_sasl():
    """SASL/PLAIN through 'properties.*' with Flink's Java JAAS string (kafka_broker.sh with
    SLUICE_KAFKA_SASL=1); the password never shows in EXPLAIN, SHOW CREATE TABLE or errors."""
    servers = os.environ.get("KAFKA_SASL_BOOTSTRAP")
    if not servers:
        print("skip sasl: run kafka_broker.sh with SLUICE_KAFKA_SASL=1")
        return
    user, password = os.environ["KAFKA_SASL_USER"], os.environ["KAFKA_SASL_PASSWORD"]
    create_topic("sasl_t", 1)

    def ddl(pw):
        jaas = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="%s" '
                'password="%s";' % (user, pw))
        return kafka_table("t", "sasl_t", "id INT, v STRING", **{
            "properties.bootstrap.servers": servers, "properties.security.protocol": "SASL_PLAINTEXT",
            "properties.sasl.mechanism": "PLAIN", "properties.sasl.jaas.config": jaas,
            "value.format": "json", "scan.startup.mode": "earliest-offset", "scan.bounded.mode": "latest-offset"})
    p = sluice(ddl(password) + "INSERT INTO t VALUES (1, 'a'), (2, 'b');\nSELECT * FROM t;\n"
               "EXPLAIN SELECT * FROM t;\nSHOW CREATE TABLE t;\n", check=False)
    check("sasl: write and read back through SASL_PLAINTEXT/PLAIN", [r for r in csv_rows(p.stdout) if r.startswith("+I")],
          ["+I,1,a", "+I,2,b"])
    check("sasl: the password is not in the output", password in p.stdout + p.stderr, False)
    check("sasl: EXPLAIN and SHOW CREATE TABLE ran (the jaas option shown masked)",
          ("TableSourceScan" in p.stdout, "'properties.sasl.jaas.config'" in p.stdout), (True, True))
    bad = "wrong-" + password[:6]
    p = sluice(ddl(bad) + "SELECT * FROM t;\n", check=False)
    check("sasl: a wrong password fails", p.returncode != 0, True)
    check("sasl: the wrong password is not in the error", bad in p.stdout + p.stderr, False)
    print("     (error: %s)" % p.stderr.strip().splitlines()[-1][:200] if p.stderr.strip() else "")


def test_errors():
    """Missing topics and an unreachable broker, for a source and a sink. Each waits out a bounded
    request timeout, so the four runs go in parallel."""
    dead = "127.0.0.1:%d" % free_port()
    src = kafka_table("nope", "no_such_topic", "id INT", **{"value.format": "json",
                                                            "scan.startup.mode": "earliest-offset",
                                                            "scan.bounded.mode": "latest-offset"})
    # Sinks: librdkafka queues records for an unreachable cluster until 'message.timeout.ms' (5 minutes);
    # the sink checks the cluster when it opens, so this fails within the child's time bound.
    sink = kafka_table("sink_t", "missing_out", "id INT", **{"value.format": "json"})
    cases = [("missing topic (source) fails naming it", src + "SELECT * FROM nope;", "no_such_topic"),
             ("unreachable broker (source) fails naming the servers",
              src.replace(BOOTSTRAP, dead) + "SELECT * FROM nope;", dead),
             ("missing topic (sink) fails naming it", sink + "INSERT INTO sink_t VALUES (1);", "missing_out"),
             ("unreachable broker (sink) fails naming the servers",
              sink.replace(BOOTSTRAP, dead) + "INSERT INTO sink_t VALUES (1);", dead)]
    with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:
        results = list(pool.map(lambda c: sluice(c[1], check=False), cases))
    for (name, _, needle), p in zip(cases, results):
        print("     (%s)" % (p.stderr.strip().splitlines() or [""])[-1])
        check(name, p.returncode != 0 and needle in p.stderr, True)


def main():
    cases = {"source": test_source, "sink": lambda: test_sink("at-least-once"),
             "exactly_once": test_exactly_once, "exactly_once_crash": test_exactly_once_crash,
             "sink_crash": test_sink_crash,
             "read_committed": lambda: test_read_committed(kt.TMP), "consumer_group": test_consumer_group,
             "upsert_compacted": test_upsert_compacted, "metadata_sink": test_metadata_sink, "raw_null": test_raw_null,
             "sasl": test_sasl,
             "errors": test_errors}
    return run_cases(cases, "Kafka broker")


if __name__ == "__main__":
    sys.exit(main())
