#!/usr/bin/env python3
"""Kafka benchmarks on a real broker (issue 17), each against a baseline measured in the same run:

  bash tests/interop/kafka_broker.sh python3 bench/kafka/kafka_bench.py <build>/sluice [--events N]
       [--rate R] [--seconds S]

1. Throughput. N Nexmark bids (bench/nexmark/ddl.sql's generator, JSON values, written to a payload
   file by Sluice) are produced into a 3-partition topic by kafka-producer-perf-test (the raw produce,
   acks=all, linger.ms=10, batch.size=256 KiB) and read back by kafka-consumer-perf-test (the raw consume); then Sluice runs Nexmark q1
   (the currency conversion) from that topic into another 3-partition topic, at-least-once without
   checkpoints and exactly-once with a 1 s checkpoint interval. Printed: each rate, and Sluice's
   events/s as a ratio of the raw produce+consume of the same records, N / (produce time + consume
   time) (the target is at least 0.5), and of the slower of the two alone. kafka-producer-perf-test
   picks each record at random among the payload file's lines, so the topic holds N records drawn from
   the same bids (the ones every Sluice run reads).
2. Latency. For 'at-least-once' and 'exactly-once' with checkpoints every 1 s and every 100 ms:
   kafka-producer-perf-test produces R records/s for S seconds into a 1-partition topic whose record
   timestamps are the broker's append times (message.timestamp.type=LogAppendTime); Sluice runs q1 into
   another topic, copying the input record's timestamp to the output record (the 'timestamp' metadata
   column); a read_committed
   consumer (bench/kafka/LatencyConsumer.java) takes, for every output record, the wall clock when it
   became visible minus that timestamp. Printed: p50, p99 and max in ms, and each exactly-once
   percentile as a ratio of the at-least-once one at the same interval. produced/s is the rate the
   producer reached (below R when the machine cannot produce that fast).

Measures, asserts nothing (not in ctest); `make bench` runs it with small sizes when Java and Maven
are there (bench/run.sh). The machine's load shows in every number: compare the ratios.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
BOOTSTRAP = os.environ.get("KAFKA_BOOTSTRAP", "")
CP = os.environ.get("KAFKA_CP", "")
JAVA = ["java", "-Xmx512m", "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"]
COLUMNS = "auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3), extra VARCHAR"
OUT_COLUMNS = "auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), `dateTime` TIMESTAMP(3), extra VARCHAR"
Q1 = "SELECT auction, bidder, 0.908 * price AS price, `dateTime`, extra%s FROM bid"


def tool(main, *args, cp=None):
    p = subprocess.run(JAVA + ["-cp", cp or CP, main] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed:\n%s\n%s" % (main, p.stdout[-2000:], p.stderr[-2000:]))
    return p.stdout


def create_topic(name, partitions, *configs):
    extra = []
    for c in configs:
        extra += ["--config", c]
    tool("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", BOOTSTRAP, "--create", "--topic", name,
         "--partitions", str(partitions), "--replication-factor", "1", *extra)


def kafka(name, topic, columns, **extra):
    o = {"connector": "kafka", "topic": topic, "properties.bootstrap.servers": BOOTSTRAP, "value.format": "json"}
    o.update(extra)
    return "CREATE TABLE %s (%s) WITH (%s);\n" % (name, columns, ", ".join("'%s' = '%s'" % kv for kv in o.items()))


def sluice_cmd(sluice, sql, sets=(), ddl=None):
    f = tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False)
    f.write(sql)
    f.close()
    cmd = [sluice, "run"] + (["-i", ddl] if ddl else [])
    for s in sets:
        cmd += ["--set", s]
    return cmd + [f.name]


def summary_elapsed(text):
    m = re.search(r"elapsed=([0-9.]+)s", text)
    if not m:
        raise RuntimeError("no job summary:\n" + text[-2000:])
    return float(m.group(1))


def run_sluice(sluice, sql, sets=(), ddl=None):
    p = subprocess.run(sluice_cmd(sluice, sql, sets, ddl), capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-3000:])
    return summary_elapsed(p.stdout + p.stderr)


def payload_file(sluice, events, work):
    """A file of bids as JSON lines (at most 100,000 distinct ones)."""
    out = os.path.join(work, "bids")
    n = min(events, 100000)
    sql = ("ALTER TABLE datagen SET ('events.num' = '%d');\n" % (n * 50 // 46 + 50) +
           "CREATE TABLE bids_file (%s) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');\n"
           % (COLUMNS, out) + "INSERT INTO bids_file SELECT auction, bidder, price, `dateTime`, extra FROM bid;")
    run_sluice(sluice, sql, ddl=os.path.join(ROOT, "bench", "nexmark", "ddl.sql"))
    path = os.path.join(work, "payload.json")
    with open(path, "w") as f:
        for name in sorted(os.listdir(out)):
            if not name.startswith((".", "_")):
                with open(os.path.join(out, name)) as g:
                    f.write(g.read())
    return path


def produce(topic, n, payload, rate=-1):
    """kafka-producer-perf-test: records/s it reports."""
    out = tool("org.apache.kafka.tools.ProducerPerformance", "--topic", topic, "--num-records", str(n),
               "--throughput", str(rate), "--payload-file", payload, "--producer-props",
               "bootstrap.servers=" + BOOTSTRAP, "acks=all", "linger.ms=10", "batch.size=262144")
    m = re.findall(r"(\d+) records sent, ([0-9.]+) records/sec", out)
    return float(m[-1][1])


def consume(topic, n):
    """kafka-consumer-perf-test: (records/s over the whole run, records/s while fetching)."""
    out = tool("org.apache.kafka.tools.ConsumerPerformance", "--bootstrap-server", BOOTSTRAP, "--topic", topic,
               "--messages", str(n), "--timeout", "120000")
    lines = [l for l in out.splitlines() if l.strip()]
    head = [h.strip() for h in lines[-2].split(",")]
    vals = [v.strip() for v in lines[-1].split(",")]
    row = dict(zip(head, vals))
    return float(row["nMsg.sec"]), float(row["fetch.nMsg.sec"])


def throughput(sluice, events, payload):
    print("== Kafka -> Nexmark q1 -> Kafka: throughput against kafka-producer-perf-test + kafka-consumer-perf-test "
          "(%d records, 3 partitions)" % events)
    create_topic("bids", 3)
    prod = produce("bids", events, payload)
    cons, cons_fetch = consume("bids", events)
    raw = 1.0 / (1.0 / prod + 1.0 / cons_fetch)
    print("raw produce (kafka-producer-perf-test, acks=all): %12.0f records/s" % prod)
    print("raw consume (kafka-consumer-perf-test):           %12.0f records/s (%.0f with the group join)"
          % (cons_fetch, cons))
    print("raw produce+consume of the same records:          %12.0f records/s" % raw)
    print("%-36s %10s %12s %16s %16s" % ("sluice q1", "seconds", "events/s", "ratio_vs_raw", "ratio_vs_slower"))
    for n, (guarantee, interval) in enumerate([("at-least-once", None), ("exactly-once", "1 s")]):
        topic = "q1_%d" % n
        create_topic(topic, 3)
        sink = {"sink.delivery-guarantee": guarantee}
        if guarantee == "exactly-once":
            sink["sink.transactional-id-prefix"] = "bench-q1-%d" % n
        sql = (kafka("bid", "bids", COLUMNS, **{"scan.startup.mode": "earliest-offset",
                                                "scan.bounded.mode": "latest-offset"}) +
               kafka("q1", topic, OUT_COLUMNS, **sink) + "INSERT INTO q1 " + Q1 % "" + ";")
        with tempfile.TemporaryDirectory() as ckpt:
            sets = ["execution.checkpointing.interval=" + interval, "state.checkpoints.dir=" + ckpt] if interval else []
            elapsed = run_sluice(sluice, sql, sets)
        rate = events / elapsed
        name = "%s%s" % (guarantee, ", checkpoints %s" % interval if interval else ", no checkpoints")
        print("%-36s %10.2f %12.0f %16.2f %16.2f" % (name, elapsed, rate, rate / raw, rate / min(prod, cons_fetch)))


def compile_latency_consumer(work):
    subprocess.run(["javac", "-cp", CP, "-d", work, os.path.join(HERE, "LatencyConsumer.java")], check=True)
    return CP + os.pathsep + work


def latency_run(sluice, n, guarantee, interval, rate, seconds, payload, cp):
    tin, tout = "lat_in_%d" % n, "lat_out_%d" % n
    # The input's record timestamps are the broker's append times: the latency leaves out the time a
    # record waits in the producer (its batches, or its buffer when it falls behind the rate).
    create_topic(tin, 1, "message.timestamp.type=LogAppendTime")
    create_topic(tout, 1)
    records = rate * seconds
    sink = {"sink.delivery-guarantee": guarantee}
    if guarantee == "exactly-once":
        sink["sink.transactional-id-prefix"] = "bench-lat-%d" % n
    sql = (kafka("bid", tin, COLUMNS + ", ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'",
                 **{"scan.startup.mode": "earliest-offset", "scan.bounded.mode": "specific-offsets",
                    "scan.bounded.specific-offsets": "partition:0,offset:%d" % records}) +
           kafka("q1", tout, OUT_COLUMNS + ", ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'", **sink) +
           "INSERT INTO q1 " + Q1 % ", ts" + ";")
    ckpt = tempfile.mkdtemp()
    consumer = subprocess.Popen(JAVA + ["-cp", cp, "LatencyConsumer", BOOTSTRAP, tout, str(records),
                                        str(seconds * 10 + 120)], stdout=subprocess.PIPE, text=True)
    consumer.stdout.readline()  # "ready"
    job = subprocess.Popen(sluice_cmd(sluice, sql, ["execution.checkpointing.interval=" + interval,
                                                    "state.checkpoints.dir=" + ckpt]),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(2)  # the job is up and polling before the first record (a benchmark, not a test)
    achieved = produce(tin, records, payload, rate)
    _, err = job.communicate()
    out = consumer.communicate()[0]
    subprocess.run(["rm", "-rf", ckpt])
    if job.returncode != 0:
        raise RuntimeError(err[-3000:])
    m = re.search(r"n=(\d+) p50=(\d+) p99=(\d+) max=(\d+)", out)
    if not m or int(m.group(1)) != records:
        raise RuntimeError("latency consumer: " + out)
    # The job summary's checkpoints: how many completed and their average duration.
    ck = re.search(r"checkpoints=(\d+)\(.*?avg=([0-9.]+)ms", err)
    ckpts = "%s/%.0fms" % (ck.group(1), float(ck.group(2))) if ck else "-"
    return achieved, int(m.group(2)), int(m.group(3)), int(m.group(4)), ckpts


def latency(sluice, rate, seconds, payload, work):
    print()
    print("== End-to-end latency at %d events/s for %d s (produce timestamp -> visible to a read_committed consumer)"
          % (rate, seconds))
    cp = compile_latency_consumer(work)
    print("%-14s %-10s %12s %8s %8s %8s %12s %12s %14s" % ("guarantee", "interval", "produced/s", "p50_ms", "p99_ms",
                                                           "max_ms", "p50_vs_alo", "p99_vs_alo", "ckpts/avg"))
    n = 0
    for interval in ("1 s", "100 ms"):
        alo = None
        for guarantee in ("at-least-once", "exactly-once"):
            achieved, p50, p99, mx, ckpts = latency_run(sluice, n, guarantee, interval, rate, seconds, payload, cp)
            n += 1
            if alo is None:
                alo = (p50, p99)
                ratios = ("-", "-")
            else:
                ratios = ("%.2f" % (p50 / max(1, alo[0])), "%.2f" % (p99 / max(1, alo[1])))
            print("%-14s %-10s %12.0f %8d %8d %8d %12s %12s %14s" % (guarantee, interval, achieved, p50, p99, mx, *ratios,
                                                                     ckpts))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sluice")
    ap.add_argument("--events", type=int, default=1000000, help="records of the throughput runs")
    ap.add_argument("--rate", type=int, default=100000, help="events/s of the latency runs")
    ap.add_argument("--seconds", type=int, default=10, help="length of each latency run")
    args = ap.parse_args()
    if not BOOTSTRAP:
        sys.exit("run inside tests/interop/kafka_broker.sh (KAFKA_BOOTSTRAP, KAFKA_CP)")
    sluice = os.path.abspath(args.sluice)
    with tempfile.TemporaryDirectory() as work:
        payload = payload_file(sluice, args.events, work)
        throughput(sluice, args.events, payload)
        latency(sluice, args.rate, args.seconds, payload, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
