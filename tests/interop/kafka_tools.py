"""Helpers shared by the real-broker Kafka tests (kafka_broker_test.py, kafka_live_test.py,
kafka_failover_test.py, kafka_avro_registry_test.py): Kafka's own tools run as `java -cp KAFKA_CP`,
`sluice run` one-shot and as a live job whose printed rows are collected, and the bounded waits.

Import it from a script run inside tests/interop/kafka_broker.sh (which sets KAFKA_BOOTSTRAP and
KAFKA_CP) with the sluice binary as the first argument. Only the standard library is used. A script
sets `kafka_tools.TMP` to its temporary directory before its cases run (run_cases does).
"""
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SLUICE = os.path.abspath(sys.argv[1])
BOOTSTRAP = os.environ["KAFKA_BOOTSTRAP"]
CP = os.environ["KAFKA_CP"]
JAVA = ["java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"]
TIMEOUT = 180  # a bound on every child process, never an assertion on speed
WAIT = 90  # the bound on each wait for a live job to show an effect (never an assertion on speed)
failures = []
TMP = None  # the run's temporary directory (set by run_cases)


def run(cmd, stdin=None, check=True, timeout=TIMEOUT):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s\n%s" % (" ".join(cmd[:8]), p.returncode, p.stdout, p.stderr))
    return p


def tool(main, *args, stdin=None, check=True):
    return run(JAVA + ["-cp", CP, main] + list(args), stdin=stdin, check=check)


def tool_lines(main, *args):
    return tool(main, *args, check=False).stdout.splitlines()


def create_topic(name, partitions=1, *configs):
    extra = []
    for c in configs:
        extra += ["--config", c]
    tool("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", BOOTSTRAP, "--create", "--topic", name,
         "--partitions", str(partitions), "--replication-factor", "1", *extra)


def alter_partitions(topic, n):
    tool("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", BOOTSTRAP, "--alter", "--topic", topic,
         "--partitions", str(n))


def produce(topic, lines, key_sep="|"):
    tool("org.apache.kafka.tools.ConsoleProducer", "--bootstrap-server", BOOTSTRAP, "--topic", topic,
         "--property", "parse.key=true", "--property", "key.separator=" + key_sep,
         "--property", "null.marker=NULL", stdin="".join(l + "\n" for l in lines))


def console_lines(topic, n, *props, isolation="read_committed", idle_ms=20000):
    """kafka-console-consumer's lines for the first n records of topic (fewer when none arrives for
    idle_ms), printed with the formatter properties `props` ("print.key=true", ...)."""
    args = []
    for prop in props:
        args += ["--property", prop]
    p = tool("org.apache.kafka.tools.consumer.ConsoleConsumer", "--bootstrap-server", BOOTSTRAP, "--topic", topic,
             "--from-beginning", "--isolation-level", isolation, "--max-messages", str(n), "--timeout-ms",
             str(idle_ms), *args, check=False)
    # (kafka-console-consumer 4.4 warns on standard output that --property is deprecated)
    return [l for l in p.stdout.splitlines() if not l.startswith("Option --property is deprecated")]


def consume(topic, n, isolation="read_committed", idle_ms=20000):
    """The first n records of topic as (key, value) pairs (a null as the text NULL)."""
    lines = console_lines(topic, n, "print.key=true", "key.separator=|", "null.literal=NULL", isolation=isolation,
                          idle_ms=idle_ms)
    return [tuple(l.split("|", 1)) for l in lines if "|" in l]


def sluice(sql, check=True, sets=()):
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, dir=TMP) as f:
        f.write(sql)
    cmd = [SLUICE, "run", "--format", "csv"]
    for s in sets:
        cmd += ["--set", s]
    try:
        return run(cmd + [f.name], check=check)
    finally:
        os.unlink(f.name)


def csv_rows(out):
    """Data rows of `sluice run --format csv` (header and op column dropped)."""
    lines = [l for l in out.splitlines() if l and not l.startswith("job finished") and not l.startswith("Received")]
    return lines[1:]


def checkpointed(interval="100 ms"):
    d = tempfile.mkdtemp(prefix="ckpt-", dir=TMP)
    return ("execution.checkpointing.interval=" + interval, "state.checkpoints.dir=" + d)


def check(name, got, want):
    if got == want:
        print("ok   %s" % name)
    else:
        print("FAIL %s\n  got:  %r\n  want: %r" % (name, got, want))
        failures.append(name)


def kafka_table(name, topic, columns, **opts):
    o = {"connector": "kafka", "topic": topic, "properties.bootstrap.servers": BOOTSTRAP}
    o.update(opts)
    with_ = ",\n  ".join("'%s' = '%s'" % kv for kv in o.items())
    return "CREATE TABLE %s (%s) WITH (\n  %s\n);\n" % (name, columns, with_)


def group_offsets(group, topic):
    """kafka-consumer-groups --describe: {partition: (current offset, log end offset)} of topic."""
    out = {}
    for line in tool_lines("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", "--bootstrap-server",
                           BOOTSTRAP, "--describe", "--group", group):
        f = line.split()
        if len(f) >= 5 and f[1] == topic and f[2].isdigit():
            out[int(f[2])] = (f[3], f[4])
    return out


def wait_committed(group, topics, what):
    """Waits (bounded: at most WAIT seconds of polls) until the group's committed offsets reach the log end
    of every partition of `topics` ({topic: partitions}): a checkpoint that holds every record there has
    completed."""
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


def wait_for(condition, what):
    """Polls condition() until it holds (True) or WAIT seconds pass (False)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)  # a poll interval, not a wait for an effect
    print("     (timed out waiting for %s)" % what)
    return False


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class LiveJob:
    """`sluice run --format csv` of an unbounded script; its printed rows are collected as they come."""

    def __init__(self, sql, sets=()):
        self.file = tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, dir=TMP)
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

    def _take(self, line):
        if line.startswith(("+I", "-U", "+U", "-D")):
            self.rows.append(line.split(","))

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
            self._take(line)
        return True

    def drain(self):
        """Collects the rows printed so far, without waiting."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is not None:
                self._take(line)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        os.unlink(self.file.name)
        if os.environ.get("SLUICE_LIVE_VERBOSE"):
            print("     (job stderr: %s)" % self.proc.stderr.read()[-4000:])

    def stderr(self):
        return self.proc.stderr.read() if self.proc.poll() is not None else ""


def run_cases(cases, title):
    """Runs the cases named on the command line after the sluice binary (all by default) in a fresh TMP;
    one broken case does not hide the others. Returns the exit status."""
    global TMP
    with tempfile.TemporaryDirectory() as tmp:
        TMP = tmp
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
    print("all %s checks passed" % title)
    return 0
