#!/usr/bin/env python3
"""A leader failover while Sluice reads and writes exactly-once (issue 17), on three brokers:

  bash tests/interop/kafka_cluster.sh python3 tests/interop/kafka_failover_test.py build/sluice

Topics with replication factor 3 and min.insync.replicas 2. An unbounded job copies 'fo_in' to 'fo_out'
(read_committed source, exactly-once sink, checkpoints every 200 ms). In logical steps: records go in and
the job's checkpoints commit them (the group's offsets reach the log end); the leader of fo_in-0 is
killed (SIGKILL), more records go in and are committed through the remaining brokers; the node is
started again, more records go in and are committed. A read_committed kafka-console-consumer then
finds every record in fo_out exactly once. Waits are bounded; nothing sleeps for a fixed time.
"""
import json
import os
import signal
import sys
import tempfile
import time

import kafka_tools as kb
from kafka_tools import BOOTSTRAP, LiveJob, check, failures, kafka_table, tool, wait_committed

NODES = os.environ["KAFKA_NODES_DIR"]
PER_STEP = 300


def create(topic, partitions):
    tool("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", BOOTSTRAP, "--create", "--topic", topic,
         "--partitions", str(partitions), "--replication-factor", "3", "--config", "min.insync.replicas=2")


def leader(topic, partition):
    out = tool("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", BOOTSTRAP, "--describe", "--topic",
               topic).stdout
    for line in out.splitlines():
        f = line.split()
        if "Partition:" in f and f[f.index("Partition:") + 1] == str(partition):
            return int(f[f.index("Leader:") + 1])
    return None


def produce(ids):
    kb.produce("fo_in", ['k%d|{"id":%d}' % (i, i) for i in ids])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        kb.TMP = tmp
        create("fo_in", 3)
        create("fo_out", 3)
        group = "sluice-failover"
        src = kafka_table("src", "fo_in", "id INT", **{
            "value.format": "json", "scan.startup.mode": "earliest-offset", "properties.group.id": group,
            "properties.isolation.level": "read_committed"})
        out = kafka_table("sink_t", "fo_out", "id INT", **{
            "value.format": "json", "sink.delivery-guarantee": "exactly-once",
            "sink.transactional-id-prefix": "sluice-failover"})
        ckpt = tempfile.mkdtemp(prefix="ckpt-fo-", dir=tmp)
        job = LiveJob(src + out + "INSERT INTO sink_t SELECT id FROM src;",
                      ("execution.checkpointing.interval=200 ms", "state.checkpoints.dir=" + ckpt))
        killed = None
        try:
            produce(range(0, PER_STEP))
            check("failover: step 1 committed", wait_committed(group, {"fo_in": 3}, "step 1"), True)
            killed = leader("fo_in", 0)
            pid = int(open(os.path.join(NODES, "node-%d.pid" % killed)).read())
            os.kill(pid, signal.SIGKILL)
            print("     (killed node %d, the leader of fo_in-0)" % killed)
            produce(range(PER_STEP, 2 * PER_STEP))
            check("failover: step 2 committed with a broker down",
                  wait_committed(group, {"fo_in": 3}, "step 2"), True)
            os.system("bash %s %d" % (os.path.join(NODES, "start-node.sh"), killed))
            killed = None
            produce(range(2 * PER_STEP, 3 * PER_STEP))
            check("failover: step 3 committed after the node came back",
                  wait_committed(group, {"fo_in": 3}, "step 3"), True)
            check("failover: the job is still running", job.proc.poll(), None)
        finally:
            job.kill()
            if killed is not None:
                os.system("bash %s %d" % (os.path.join(NODES, "start-node.sh"), killed))
        ids = sorted(json.loads(v)["id"] for _, v in kb.consume("fo_out", 10 * PER_STEP, idle_ms=15000))
        dup = len(ids) - len(set(ids))
        check("failover: every record exactly once in the output (read_committed)",
              (dup, sorted(set(ids)) == list(range(3 * PER_STEP))), (0, True))
        print("     (%d records read back)" % len(ids))
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("all failover checks passed")
    return 0


if __name__ == "__main__":
    start = time.monotonic()
    rc = main()
    print("     (%.0f s)" % (time.monotonic() - start))
    sys.exit(rc)
