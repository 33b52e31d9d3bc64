#!/usr/bin/env python3
"""Throughput of Kafka -> Nexmark q1 -> Kafka on a real broker, 'exactly-once' against 'at-least-once'.

Not part of `make test` or the ctest suite (it measures, it asserts nothing). Run next to a fresh broker:

  bash tests/interop/kafka_broker.sh python3 bench/kafka/eos_vs_alo.py build-release/sluice [BIDS]

It loads BIDS Nexmark bids (default 1000000; bench/nexmark/ddl.sql's generator, JSON values) into a
3-partition topic with Sluice itself, then runs q1 (the currency conversion) from that topic into a
new 3-partition topic once per delivery guarantee and checkpoint interval, and prints events/s from the
job summary's elapsed time (the job's wall time from start to its final commit) with the checkpoints
taken and the summary's peak RSS. Every run reads the same records.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SLUICE = os.path.abspath(sys.argv[1])
BIDS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
BOOTSTRAP = os.environ["KAFKA_BOOTSTRAP"]
CP = os.environ["KAFKA_CP"]
JAVA = ["java", "-Xmx512m", "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"]
COLUMNS = "auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3), extra VARCHAR"


def tool(main, *args):
    return subprocess.run(JAVA + ["-cp", CP, main] + list(args), capture_output=True, text=True, check=True)


def create_topic(name):
    tool("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", BOOTSTRAP, "--create", "--topic", name,
         "--partitions", "3", "--replication-factor", "1")


def kafka(name, topic, columns, **extra):
    o = {"connector": "kafka", "topic": topic, "properties.bootstrap.servers": BOOTSTRAP, "value.format": "json"}
    o.update(extra)
    return "CREATE TABLE %s (%s) WITH (%s);\n" % (name, columns, ", ".join("'%s' = '%s'" % kv for kv in o.items()))


def run(sql, *sets, ddl=None):
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(sql)
    cmd = [SLUICE, "run"] + (["-i", ddl] if ddl else [])
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd + [f.name], capture_output=True, text=True)
    os.unlink(f.name)
    if p.returncode != 0:
        raise RuntimeError(p.stderr)
    summary = p.stdout + p.stderr
    elapsed = float(re.search(r"elapsed=([0-9.]+)s", summary).group(1))
    checkpoints = re.search(r"checkpoints=(\d+)", summary)
    rss = re.search(r"peak_rss=(\d+)", summary)
    return elapsed, int(checkpoints.group(1)) if checkpoints else 0, int(rss.group(1)) if rss else 0


def visible(topic):
    """Records a read_committed reader sees (end offsets of the read_committed GetOffsetShell)."""
    p = tool("org.apache.kafka.tools.GetOffsetShell", "--bootstrap-server", BOOTSTRAP, "--topic", topic,
             "--time", "-1")
    return sum(int(l.rsplit(":", 1)[1]) for l in p.stdout.split())


def main():
    create_topic("bids")
    loader = (kafka("bids_out", "bids", COLUMNS) + "ALTER TABLE datagen SET ('events.num' = '%d');\n" % (BIDS * 50 // 46 + 50) +
              "INSERT INTO bids_out SELECT auction, bidder, price, `dateTime`, extra FROM bid;")
    elapsed, _, _ = run(loader, ddl=os.path.join(ROOT, "bench", "nexmark", "ddl.sql"))
    total = visible("bids")
    print("loaded %d bids into 'bids' in %.2f s" % (total, elapsed))
    print("%-14s %-10s %12s %12s %12s %12s" % ("guarantee", "interval", "elapsed s", "events/s", "checkpoints",
                                                 "peak RSS MB"))
    for n, (guarantee, interval) in enumerate([("at-least-once", "1 s"), ("exactly-once", "1 s"),
                                               ("at-least-once", "100 ms"), ("exactly-once", "100 ms")]):
        topic = "q1_%d" % n
        create_topic(topic)
        sink = {"sink.delivery-guarantee": guarantee}
        if guarantee == "exactly-once":
            sink["sink.transactional-id-prefix"] = "bench-%d" % n
        sql = (kafka("bid", "bids", COLUMNS, **{"scan.startup.mode": "earliest-offset",
                                                "scan.bounded.mode": "latest-offset"}) +
               kafka("q1", topic, "auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), `dateTime` TIMESTAMP(3), "
                     "extra VARCHAR", **sink) +
               "INSERT INTO q1 SELECT auction, bidder, 0.908 * price AS price, `dateTime`, extra FROM bid;")
        with tempfile.TemporaryDirectory() as ckpt:
            elapsed, checkpoints, rss = run(sql, "execution.checkpointing.interval=" + interval,
                                            "state.checkpoints.dir=" + ckpt)
        print("%-14s %-10s %12.2f %12.0f %12d %12.0f" % (guarantee, interval, elapsed, total / elapsed, checkpoints,
                                                         rss / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
