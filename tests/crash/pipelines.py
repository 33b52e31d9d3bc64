"""Random pipelines for the crash harness (crash_harness.py): a seeded generator of small bounded jobs.

generate(seed, scale) returns a Case: the SQL of one job (templated with ${DATA}, ${OUT} and ${CKPT}),
the data files it reads (Case.write_files puts them under ${DATA}), and for every sink how to compare
its committed output with an unkilled run:
  - 'append': json lines, compared as a multiset of rows;
  - 'changelog': debezium-json events, folded into a multiset of rows and compared; and when the
    pipeline's changelog is deterministic (`exact`), also compared event for event as a multiset, so
    every change must be there exactly once;
  - 'iceberg': an Iceberg table (an append, or an upsert by k for keyed aggregates) read back with its
    deletes applied (tests/interop/iceberg_read.py), compared as a multiset of rows; a checkpoint id
    committed twice is a difference too.

A pipeline is built from a main stream and, for joins and unions, a second stream. Every stream is
normalised to a view with the columns (k BIGINT, v BIGINT, tag STRING, ts TIMESTAMP(3) rowtime,
pt PROCTIME, arr ARRAY<BIGINT>), whatever its source: filesystem json or csv files, a datagen table
(paced by 'rows-per-second' or not, timestamps computed from a sequence so they do not depend on the
wall clock), a nexmark table (paced by 'max-emit-speed' = false or not) or a topic of the mock Kafka cluster
(written by a first job of the same script, before checkpoints are configured, so a restarted process
writes it again). A filesystem debezium-json source gives a changelog stream instead.

On the main stream: 0-3 row-level steps (filters, projections, an empty projection, UNNEST, lookup
join, event-time temporal join, interval join or UNION ALL with the second stream), then one terminal
step (none, group aggregate plain / DISTINCT / global / with HAVING, aggregate of an aggregate, Top-N,
dedup first or last row on processing or event time, window aggregate over TUMBLE/HOP/CUMULATE/
SESSION, window Top-N, window dedup, window join, OVER, regular join), into filesystem json or
debezium-json sinks, with the late-rows table when an operator can drop late rows. Only SQL that
Sluice plans is generated: a script it refuses is a generator bug (or an engine bug). Results that
depend on the order rows of different inputs are read in (which is up to timing) are not compared
change for change, and a job with several inputs has no late rows (Case.in_order).

A seed gives the same case only with the same version of this file.
"""
import json
import os
import random
import time

BASE_MS = 1_767_225_600_000  # 2026-01-01 00:00:00 UTC
STREAM_COLS = "k, v, tag, ts, pt, arr"
FILE_FACTOR = 8


def ts_text(ms):
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ms // 1000)) + ".%03d" % (ms % 1000)


class Case:
    def __init__(self, seed):
        self.seed = seed
        self.rng = random.Random(seed)
        self.head = []       # statements before checkpoints are configured (the Kafka producer jobs)
        self.ddl = []        # tables and views of the job
        self.inserts = []    # INSERT statements of the job (one statement set)
        self.sets = []       # (key, value) options of the job
        self.sinks = {}      # sink name -> 'append' | 'changelog'
        self.exact = {}      # sink name -> whether its changelog must equal the reference event for event
        self.files = {}      # relative path -> text
        self.desc = []       # a few words per step, for the report
        self.rows = 0
        self.kafka_partitions = 0
        # No row is late at any operator whatever the order of its inputs: set when the job has several
        # input streams, whose interleaving depends on read timing, so which rows an event-time
        # operator would drop as late (behind the minimum of its inputs' watermarks) would too.
        self.in_order = False
        self.files_views = set()  # extra tables already declared (a second sink's join reuses j2)
        self.iceberg_appends = set()  # Iceberg sinks that append (not upsert)
        # The real broker (generate(kafka=...)): its bootstrap servers; the input topics (name ->
        # partitions), created and loaded once per case by `kafka_load` (a script of its own); the sink
        # topics (sink -> (topic, partitions)), named with ${RUN} so each run writes topics of its own.
        self.kafka = None
        self.kafka_inputs = {}
        self.kafka_load = []
        self.kafka_sinks = {}

    def sql(self):
        out = list(self.head)
        out += ["SET '%s' = '%s';" % kv for kv in self.sets]
        out += self.ddl
        if len(self.inserts) == 1:
            out.append(self.inserts[0] + ";")
        else:
            out.append("EXECUTE STATEMENT SET BEGIN\n" + ";\n".join(self.inserts) + ";\nEND;")
        return "\n".join(out) + "\n"

    def write_files(self, data_dir):
        for rel, text in self.files.items():
            path = os.path.join(data_dir, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)


# ---------------------------------------------------------------------------------------------------
# Sources: each defines a view `name` with STREAM_COLS.

def stream_rows(rng, n, keys, late_share, start_ms=0):
    """Rows (k, v, tag, ts_ms, arr): out of order within 1.5 s, late_share of them 5-20 s behind."""
    rows = []
    for i in range(n):
        ts = BASE_MS + start_ms + i * 10 + rng.randint(0, 1500)
        if rng.random() < late_share:
            ts -= rng.randint(5000, 20000)
        arr = [rng.randint(0, 9) for _ in range(rng.randint(0, 3))]
        rows.append((rng.randint(0, keys - 1), rng.randint(0, 1000), "t%d" % rng.randint(0, 4), ts, arr))
    return rows


def split_files(case, rel_dir, lines, nfiles, ext):
    for i in range(nfiles):
        case.files["%s/part-%d.%s" % (rel_dir, i, ext)] = "".join(lines[i::nfiles])


def wm_clause(case):
    """The watermark: in an in-order case at least the 1.5 s the rows are out of order by."""
    return "WATERMARK FOR ts AS ts - INTERVAL '%d' SECOND" % case.rng.choice([2, 5] if case.in_order else [0, 1, 2, 5])


def late_share(case, choices):
    return 0 if case.in_order else case.rng.choice(choices)


def source_file(case, name, n, fmt):
    rng = case.rng
    rows = stream_rows(rng, n, rng.choice([5, 50, 500]), late_share(case, [0, 0.01, 0.05]))
    if fmt == "json":
        lines = [json.dumps({"k": k, "v": v, "tag": t, "ts": ts_text(ts), "arr": a}) + "\n" for k, v, t, ts, a in rows]
    else:
        lines = ["%d,%d,%s,%s,%s\n" % (k, v, t, ts_text(ts), ";".join(map(str, a))) for k, v, t, ts, a in rows]
    # Sometimes malformed records, skipped and counted with '<format>.ignore-parse-errors': a restore
    # must seek past the same ones. (Drawn from an RNG of their own, so the rest of the case is as it
    # was before this option existed.)
    bad_rng = random.Random("%d-%s-malformed" % (case.seed, name))
    skip = ""
    if bad_rng.random() < 0.25:
        for _ in range(max(1, len(lines) // 200)):
            lines.insert(bad_rng.randrange(len(lines) + 1), "{not json\n" if fmt == "json" else "oops,1,t0,x,1\n")
        skip = "'%s.ignore-parse-errors' = 'true', " % fmt
    split_files(case, name, lines, rng.randint(1, 3), fmt)
    case.ddl.append(
        "CREATE TABLE %s_src (k BIGINT, v BIGINT, tag STRING, ts TIMESTAMP(3), arr ARRAY<BIGINT>, pt AS PROCTIME(),\n"
        "  %s) WITH ('connector' = 'filesystem', 'path' = '${DATA}/%s', %s'format' = '%s');"
        % (name, wm_clause(case), name, skip, fmt))
    case.ddl.append("CREATE VIEW %s AS SELECT %s FROM %s_src;" % (name, STREAM_COLS, name))
    return "fs-%s%s" % (fmt, "(malformed)" if skip else "")


def source_datagen(case, name, n):
    rng = case.rng
    # Paced: 1 to 2 s, several checkpoints and time to kill. Unpaced, as fast as files (a source that
    # reads ahead of its pace behaves differently at a barrier: the double count of issue 15 needed it).
    paced = rng.random() < 0.6
    if paced:
        rate = max(1, int(n / rng.uniform(1.0, 2.0)))
    else:
        n *= FILE_FACTOR
        rate = 1000000000
    case.ddl.append(
        "CREATE TABLE %s_src (id BIGINT, k BIGINT, v BIGINT, j INT, tag STRING, arr ARRAY<BIGINT>,\n"
        "  ts AS TIMESTAMPADD(MILLISECOND, CAST(id * 10 + j AS INT), TIMESTAMP '2026-01-01 00:00:00'),\n"
        "  pt AS PROCTIME(), %s) WITH ('connector' = 'datagen', 'number-of-rows' = '%d',\n"
        "  'rows-per-second' = '%d', 'sluice.seed' = '%d', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',\n"
        "  'fields.id.end' = '%d', 'fields.k.min' = '0', 'fields.k.max' = '%d', 'fields.v.min' = '0',\n"
        "  'fields.v.max' = '1000', 'fields.j.min' = '0', 'fields.j.max' = '%d', 'fields.tag.length' = '1',\n"
        "  'fields.arr.length' = '2');"
        % (name, wm_clause(case), n, rate, rng.randint(0, 1000), n, rng.choice([4, 49, 499]), 1500 if case.in_order else rng.choice([1500, 8000])))
    case.ddl.append("CREATE VIEW %s AS SELECT k, v, tag, ts, pt, arr FROM %s_src;" % (name, name))
    return "datagen" + ("(paced)" if paced else "")


NEXMARK_DDL = """CREATE TABLE %s_src (
  event_type INT,
  person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR,
    `dateTime` TIMESTAMP(3), extra VARCHAR>,
  auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
    `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, `dateTime` TIMESTAMP(3),
    extra VARCHAR>,
  `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime` WHEN event_type = 1 THEN auction.`dateTime`
    ELSE bid.`dateTime` END,
  pt AS PROCTIME(),
  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'events.num' = '%d', 'first-event.rate' = '%d', 'next-event.rate' = '%d',
  'max-emit-speed' = '%s', 'sluice.seed' = '%d');"""


def source_nexmark(case, name, n):
    rng = case.rng
    paced = rng.random() < 0.7
    rate = max(1, int(n / rng.uniform(1.0, 2.0)))
    case.ddl.append(NEXMARK_DDL % (name, n, rate, rate, "false" if paced else "true", rng.randint(0, 1000)))
    case.ddl.append(
        "CREATE VIEW %s AS SELECT MOD(bid.auction, %d) AS k, bid.price AS v, bid.channel AS tag, `dateTime` AS ts,\n"
        "  pt, ARRAY[MOD(bid.bidder, 7), MOD(bid.price, 5)] AS arr FROM %s_src WHERE event_type = 2;"
        % (name, rng.choice([5, 50, 500]), name))
    return "nexmark" + ("(paced)" if paced else "")


def source_kafka(case, name, n):
    rng = case.rng
    rows = stream_rows(rng, n, rng.choice([5, 50, 500]), late_share(case, [0, 0.01]))
    lines = [json.dumps({"k": k, "v": v, "tag": t, "ts": ts_text(ts), "arr": a}) + "\n" for k, v, t, ts, a in rows]
    case.files["%s_in/part-0.json" % name] = "".join(lines)
    case.head.append(
        "CREATE TABLE %s_in (k BIGINT, v BIGINT, tag STRING, ts TIMESTAMP(3), arr ARRAY<BIGINT>)\n"
        "  WITH ('connector' = 'filesystem', 'path' = '${DATA}/%s_in', 'format' = 'json');" % (name, name))
    # Two partitions (in an in-order case): the producer partitions by key (murmur2 of the json key),
    # so a restarted process writes each partition as before. Which partition's rows come first is up
    # to the fetches, so the case counts as several inputs.
    partitions = rng.choice([1, 2]) if case.in_order else 1
    case.kafka_partitions = max(case.kafka_partitions, partitions)
    keyed = "'key.format' = 'json', 'key.fields' = 'k', " if partitions > 1 else ""
    case.head.append(
        "CREATE TABLE %s_src (k BIGINT, v BIGINT, tag STRING, ts TIMESTAMP(3), arr ARRAY<BIGINT>, pt AS PROCTIME(),\n"
        "  %s) WITH ('connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = 'mock://crash?partitions=%d',\n"
        "  %s'value.format' = 'json', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset');"
        % (name, wm_clause(case), name, partitions, keyed))
    case.head.append("INSERT INTO %s_src SELECT k, v, tag, ts, arr FROM %s_in;" % (name, name))
    case.ddl.append("CREATE VIEW %s AS SELECT %s FROM %s_src;" % (name, STREAM_COLS, name))
    return "kafka(%d)" % partitions


def source_kafka_broker(case, name, n, rows_lines=None, fmt="json", columns=None):
    """A topic of the real broker (the harness's --kafka), loaded once per case before the runs by a
    job of its own (one transaction, 'exactly-once' without checkpoints), read from earliest to the
    latest offset with read_committed; keyed by k over 1-2 partitions in an in-order case."""
    rng = case.rng
    if rows_lines is None:
        rows = stream_rows(rng, n, rng.choice([5, 50, 500]), late_share(case, [0, 0.01]))
        rows_lines = [json.dumps({"k": k, "v": v, "tag": t, "ts": ts_text(ts), "arr": a}) + "\n"
                      for k, v, t, ts, a in rows]
    case.files["%s_in/part-0.json" % name] = "".join(rows_lines)
    columns = columns or "k BIGINT, v BIGINT, tag STRING, ts TIMESTAMP(3), arr ARRAY<BIGINT>"
    topic = "k%d-%s" % (case.seed, name)
    partitions = rng.choice([1, 2]) if case.in_order and fmt == "json" else 1
    case.kafka_partitions = max(case.kafka_partitions, partitions)
    case.kafka_inputs[topic] = partitions
    keyed = "'key.format' = 'json', 'key.fields' = 'k', " if partitions > 1 else ""
    common = ("'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', %s'value.format' = '%s'"
              % (topic, case.kafka, keyed, fmt))
    case.kafka_load += [
        "CREATE TABLE %s_in (%s) WITH ('connector' = 'filesystem', 'path' = '${DATA}/%s_in', 'format' = '%s');"
        % (name, columns, name, fmt),
        "CREATE TABLE %s_topic (%s) WITH (%s, 'sink.delivery-guarantee' = 'exactly-once', "
        "'sink.transactional-id-prefix' = '%s-load');" % (name, columns, common, topic),
        "INSERT INTO %s_topic SELECT * FROM %s_in;" % (name, name)]
    if fmt != "json":
        return topic, common
    case.ddl.append(
        "CREATE TABLE %s_src (%s, pt AS PROCTIME(),\n  %s) WITH (%s,\n  'properties.isolation.level' = 'read_committed', "
        "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset');"
        % (name, columns, wm_clause(case), common))
    case.ddl.append("CREATE VIEW %s AS SELECT %s FROM %s_src;" % (name, STREAM_COLS, name))
    return "broker-kafka(%d)" % partitions


def source_debezium(case, name, n):
    """A changelog: inserts, updates and deletes of rows keyed by id (no time attributes)."""
    rng = case.rng
    live, lines = {}, []
    for i in range(n):
        if live and rng.random() < 0.3:
            rid = rng.choice(sorted(live))
            before = live[rid]
            if rng.random() < 0.5:
                after = dict(before, v=rng.randint(0, 1000))
                live[rid] = after
                lines.append({"before": before, "after": after, "op": "u"})
            else:
                del live[rid]
                lines.append({"before": before, "after": None, "op": "d"})
        else:
            row = {"id": i, "k": rng.randint(0, 49), "v": rng.randint(0, 1000), "tag": "t%d" % rng.randint(0, 4)}
            live[i] = row
            lines.append({"before": None, "after": row, "op": "c"})
    if case.kafka:
        columns = "id BIGINT, k BIGINT, v BIGINT, tag STRING"
        topic, common = source_kafka_broker(case, name, n, [json.dumps(l) + "\n" for l in lines], "debezium-json",
                                            columns)
        case.ddl.append("CREATE TABLE %s_src (%s) WITH (%s, 'properties.isolation.level' = 'read_committed', "
                        "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset');"
                        % (name, columns, common))
        case.ddl.append("CREATE VIEW %s AS SELECT k, v, tag FROM %s_src;" % (name, name))
        return "broker-kafka(debezium-json)"
    split_files(case, name, [json.dumps(l) + "\n" for l in lines], 1, "json")
    case.ddl.append(
        "CREATE TABLE %s_src (id BIGINT, k BIGINT, v BIGINT, tag STRING)\n"
        "  WITH ('connector' = 'filesystem', 'path' = '${DATA}/%s', 'format' = 'debezium-json');" % (name, name))
    case.ddl.append("CREATE VIEW %s AS SELECT k, v, tag FROM %s_src;" % (name, name))
    return "fs-debezium-json"


def add_source(case, name, n, kinds=None):
    """A stream of about n rows' worth of run time: files and Kafka topics are read far faster than
    the paced generators, so they get FILE_FACTOR times more rows."""
    kind = case.rng.choice(kinds or ["json", "csv", "datagen", "datagen", "nexmark", "nexmark", "kafka"])
    if kind in ("json", "csv"):
        return source_file(case, name, n * FILE_FACTOR, kind)
    if kind == "kafka" and case.kafka:
        return source_kafka_broker(case, name, min(n * FILE_FACTOR, 20000))
    if kind == "kafka":
        # librdkafka's mock cluster keeps about 5 MB per partition and drops older messages: stay well
        # below, or 'earliest-offset' starts at whatever it kept (the reference would differ).
        return source_kafka(case, name, min(n * FILE_FACTOR, 20000))
    return {"datagen": source_datagen, "nexmark": source_nexmark}[kind](case, name, n)


# ---------------------------------------------------------------------------------------------------
# Row-level steps on an append-only stream with STREAM_COLS (each returns the new view's name).

class Builder:
    def __init__(self, case):
        self.case = case
        self.n = 0
        self.dims = set()
        self.timed = True  # ts and pt are still time attributes (UNION ALL makes them plain TIMESTAMPs)

    def view(self, body):
        self.n += 1
        name = "v%d" % self.n
        self.case.ddl.append("CREATE VIEW %s AS %s;" % (name, body))
        return name

    def dim(self):
        if "dim" not in self.dims:
            self.dims.add("dim")
            rng = self.case.rng
            keys = [k for k in range(500) if rng.random() < 0.6]
            self.case.files["dim/part-0.json"] = "".join(
                json.dumps({"k": k, "name": "n%d" % rng.randint(0, 99)}) + "\n" for k in keys)
            self.case.ddl.append("CREATE TABLE dim (k BIGINT, name STRING) "
                                 "WITH ('connector' = 'filesystem', 'path' = '${DATA}/dim', 'format' = 'json');")
        return "dim"

    def versions(self):
        if "versions" not in self.dims:
            self.dims.add("versions")
            rng = self.case.rng
            lines = []
            for i in range(400):
                ts = BASE_MS + i * 500 - 3000 + rng.randint(0, 400)
                lines.append(json.dumps({"k": rng.randint(0, 49), "rate": rng.randint(1, 9), "rts": ts_text(ts)}) + "\n")
            self.case.files["rates/part-0.json"] = "".join(lines)
            self.case.ddl.append(
                "CREATE TABLE rates (k BIGINT, rate BIGINT, rts TIMESTAMP(3), WATERMARK FOR rts AS rts - INTERVAL '1' SECOND)\n"
                "  WITH ('connector' = 'filesystem', 'path' = '${DATA}/rates', 'format' = 'json');")
            self.case.ddl.append(
                "CREATE VIEW rate_versions AS SELECT k, rate, rts FROM (\n"
                "  SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY rts DESC) AS rn FROM rates) WHERE rn = 1;")
        return "rate_versions"

    def row_step(self, cur, second):
        """One row-level step; returns (view, description, uses_second)."""
        rng = self.case.rng
        choices = ["filter", "project", "empty", "unnest", "left-unnest"]
        if self.timed:
            choices += ["lookup"]
        if self.timed and self.case.in_order:
            # A temporal join has two inputs (the versions): which version a late probe row meets
            # depends on their read order, so only in an in-order case.
            choices += ["temporal"] + (["interval", "union"] if second is not None else [])
        choice = rng.choice(choices)
        if choice == "filter":
            m = rng.choice([2, 3, 7])
            return self.view("SELECT * FROM %s WHERE MOD(v, %d) <> %d" % (cur, m, rng.randint(0, m - 1))), choice, False
        if choice == "project":
            return self.view("SELECT k, v * 2 + 1 AS v, UPPER(tag) AS tag, ts, pt, arr FROM %s" % cur), choice, False
        if choice == "empty":
            return self.view("SELECT %s FROM %s" % (STREAM_COLS, cur)), "empty-projection", False
        if choice == "unnest":
            return self.view("SELECT k, v + x AS v, tag, ts, pt, arr FROM %s CROSS JOIN UNNEST(arr) AS u(x)" % cur), choice, False
        if choice == "left-unnest":
            return self.view("SELECT k, v + COALESCE(x, 0) AS v, tag, ts, pt, arr FROM %s LEFT JOIN UNNEST(arr) AS u(x) ON TRUE"
                             % cur), choice, False
        if choice == "lookup":
            d = self.dim()
            kind = rng.choice(["", "LEFT "])
            return self.view(
                "SELECT s.k, s.v, CONCAT(s.tag, COALESCE(d.name, '-')) AS tag, s.ts, s.pt, s.arr\n"
                "  FROM %s AS s %sJOIN %s FOR SYSTEM_TIME AS OF s.pt AS d ON s.k = d.k" % (cur, kind, d)), \
                "lookup-join" + ("(left)" if kind else ""), False
        if choice == "temporal":
            d = self.versions()
            kind = rng.choice(["", "LEFT "])
            return self.view(
                "SELECT s.k, s.v * COALESCE(r.rate, 1) AS v, s.tag, s.ts, s.pt, s.arr\n"
                "  FROM %s AS s %sJOIN %s FOR SYSTEM_TIME AS OF s.ts AS r ON s.k = r.k" % (cur, kind, d)), \
                "temporal-join" + ("(left)" if kind else ""), False
        if choice == "interval":
            kind = rng.choice(["", "LEFT "])
            lo, hi = rng.choice([(1, 1), (0, 2), (3, 0)])
            return self.view(
                "SELECT a.k, a.v + COALESCE(b.v, 0) AS v, a.tag, a.ts, a.pt, a.arr FROM %s AS a %sJOIN %s AS b\n"
                "  ON a.k = b.k AND MOD(a.v, 50) = MOD(b.v, 50)\n"
                "  AND b.ts BETWEEN a.ts - INTERVAL '%d' SECOND AND a.ts + INTERVAL '%d' SECOND"
                % (cur, kind, second, lo, hi)), "interval-join" + ("(left)" if kind else ""), True
        # Sluice's UNION ALL keeps no time attribute (Flink's keeps the rowtime and proctime both
        # inputs have): after it, no step that needs one.
        self.timed = False
        return self.view("SELECT %s FROM %s UNION ALL SELECT %s FROM %s" % (STREAM_COLS, cur, STREAM_COLS, second)), \
            "union-all", True


# ---------------------------------------------------------------------------------------------------
# Terminal steps: (select SQL, sink columns, sink kind, changelog deterministic, can drop late rows)

def window_tvf(rng, view):
    kind = rng.choice(["TUMBLE", "HOP", "CUMULATE"])
    if kind == "TUMBLE":
        return "TUMBLE(TABLE %s, DESCRIPTOR(ts), INTERVAL '%d' SECOND)" % (view, rng.choice([1, 2, 5])), kind
    if kind == "HOP":
        return "HOP(TABLE %s, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '%d' SECOND)" % (view, rng.choice([2, 3])), kind
    return "CUMULATE(TABLE %s, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '%d' SECOND)" % (view, rng.choice([2, 4])), kind


W_COLS = "window_start TIMESTAMP(3), window_end TIMESTAMP(3)"


def terminal(case, cur, second, multi_input, changelog_input, timed):
    """Returns (name, select, columns DDL, kind, exact, late)."""
    rng = case.rng
    agg_cols = "k BIGINT, c BIGINT, s BIGINT, m BIGINT"
    if changelog_input:
        choices = ["none", "agg", "agg-distinct", "global", "topn", "agg-topn", "agg-agg", "join"]
    elif not timed:
        choices = ["none", "agg", "agg-distinct", "global", "agg-having", "topn", "agg-topn", "agg-agg", "join"]
    else:
        choices = ["none", "agg", "agg-distinct", "global", "agg-having", "topn", "agg-topn", "agg-agg",
                   "dedup-first-pt", "dedup-first-rt", "dedup-last-pt", "dedup-last-rt", "window-agg",
                   "session", "window-topn", "window-dedup", "over-rows", "over-range", "over-pt", "join"]
        if second is not None:
            choices += ["window-join", "join"]
    if multi_input:
        # Which row a dedup, window Top-N/dedup or OVER frame picks among rows of equal order keys
        # depends on their arrival order, which with several sources depends on read timing.
        choices = [c for c in choices if not c.startswith(("dedup", "window-topn", "window-dedup", "over"))]
    t = rng.choice(choices)
    # An updating operator's changelog depends on the order of its input rows; with several sources
    # that order depends on read timing, so only the folded result is compared.
    ordered = not multi_input
    if t == "none":
        if changelog_input:
            return t, "SELECT k, v, tag FROM %s" % cur, "k BIGINT, v BIGINT, tag STRING", "changelog", True, False
        return t, "SELECT k, v, tag, ts FROM %s" % cur, "k BIGINT, v BIGINT, tag STRING, ts TIMESTAMP(3)", "append", True, False
    if t in ("agg", "agg-distinct", "agg-having"):
        extra = ", COUNT(DISTINCT tag) AS d" if t == "agg-distinct" else ""
        having = " HAVING COUNT(*) > 1" if t == "agg-having" else ""
        cols = agg_cols + (", d BIGINT" if extra else "")
        return t, "SELECT k, COUNT(*) AS c, SUM(v) AS s, MAX(v) AS m%s FROM %s GROUP BY k%s" % (extra, cur, having), \
            cols, "changelog", ordered, False
    if t == "global":
        return t, "SELECT COUNT(*) AS c, SUM(v) AS s FROM %s" % cur, "c BIGINT, s BIGINT", "changelog", ordered, False
    if t == "topn":
        n = rng.choice([1, 3])
        return t, ("SELECT k, v, tag FROM (SELECT k, v, tag, ROW_NUMBER() OVER (PARTITION BY tag ORDER BY v DESC, k) AS rn\n"
                   "  FROM %s) WHERE rn <= %d" % (cur, n)), "k BIGINT, v BIGINT, tag STRING", "changelog", ordered, False
    if t == "agg-topn":
        return t, ("SELECT k, s FROM (SELECT k, s, ROW_NUMBER() OVER (ORDER BY s DESC, k) AS rn FROM\n"
                   "  (SELECT k, SUM(v) AS s FROM %s GROUP BY k)) WHERE rn <= 3" % cur), "k BIGINT, s BIGINT", \
            "changelog", ordered, False
    if t == "agg-agg":
        return t, ("SELECT c, COUNT(*) AS n FROM (SELECT k, COUNT(*) AS c FROM %s GROUP BY k) GROUP BY c" % cur), \
            "c BIGINT, n BIGINT", "changelog", ordered, False
    if t == "join":
        # Against a small table of its own: a join's output grows with the product of both sides'
        # rows per key, so (k, v mod 50) is the key and the right side has at most 2,000 rows.
        other = "j2"
        if "j2" not in case.files_views:
            case.files_views.add("j2")
            source_file(case, "j2", rng.choice([200, 2000]), rng.choice(["json", "csv"]))
        kind = rng.choice(["", "LEFT "])
        if changelog_input:
            sel = "SELECT a.k, a.v, b.v AS w FROM %s AS a %sJOIN (SELECT k, v FROM %s) AS b ON a.k = b.k AND MOD(a.v, 50) = MOD(b.v, 50)"
            return t, sel % (cur, kind, other), "k BIGINT, v BIGINT, w BIGINT", "changelog", False, False
        sel = ("SELECT a.k, a.v, b.v AS w FROM (SELECT k, v FROM %s) AS a %sJOIN (SELECT k, v FROM %s) AS b\n"
               "  ON a.k = b.k AND MOD(a.v, 50) = MOD(b.v, 50)" % (cur, kind, other))
        if kind:
            return t + "(left)", sel, "k BIGINT, v BIGINT, w BIGINT", "changelog", False, False
        return t, sel, "k BIGINT, v BIGINT, w BIGINT", "append", True, False
    if t.startswith("dedup"):
        order = "pt" if t.endswith("pt") else "ts"
        first = "-first-" in t
        sel = ("SELECT k, v, tag, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k, tag ORDER BY %s %s) AS rn\n"
               "  FROM %s) WHERE rn = 1" % (order, "ASC" if first else "DESC", cur))
        cols = "k BIGINT, v BIGINT, tag STRING, ts TIMESTAMP(3)"
        if first:
            return t, sel, cols, "append", True, order == "ts"
        # Keep-last on event time keeps the row of the latest time: ties and order decide the changes.
        return t, sel, cols, "changelog", ordered, False
    if t == "window-agg":
        tvf, kind = window_tvf(rng, cur)
        return t + "(%s)" % kind, ("SELECT window_start, window_end, k, COUNT(*) AS c, SUM(v) AS s, MAX(v) AS m\n"
                                   "  FROM TABLE(%s) GROUP BY window_start, window_end, k" % tvf), \
            W_COLS + ", " + agg_cols, "append", True, True
    if t == "session":
        return t, ("SELECT window_start, window_end, k, COUNT(*) AS c, SUM(v) AS s, MAX(v) AS m FROM TABLE(\n"
                   "  SESSION(TABLE %s PARTITION BY k, DESCRIPTOR(ts), INTERVAL '%d' SECOND)) "
                   "GROUP BY window_start, window_end, k" % (cur, rng.choice([1, 3]))), \
            W_COLS + ", " + agg_cols, "append", True, True
    if t == "window-topn":
        tvf, kind = window_tvf(rng, cur)
        return t + "(%s)" % kind, ("SELECT window_start, window_end, k, v FROM (SELECT window_start, window_end, k, v,\n"
                                   "  ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v DESC, k) AS rn\n"
                                   "  FROM TABLE(%s)) WHERE rn <= 3" % tvf), \
            W_COLS + ", k BIGINT, v BIGINT", "append", ordered, True
    if t == "window-dedup":
        tvf, kind = window_tvf(rng, cur)
        return t + "(%s)" % kind, ("SELECT window_start, window_end, k, v FROM (SELECT window_start, window_end, k, v,\n"
                                   "  ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY ts %s) AS rn\n"
                                   "  FROM TABLE(%s)) WHERE rn = 1" % (rng.choice(["ASC", "DESC"]), tvf)), \
            W_COLS + ", k BIGINT, v BIGINT", "append", ordered, True
    if t == "window-join":
        # (k, v mod 500) is the key: after an interval join the left side already holds a product of two
        # streams, and v mod 50 let case 2028000960's output reach 628 MB.
        size = rng.choice([1, 2])
        kind = rng.choice(["", "LEFT "])
        return t, ("SELECT L.window_start, L.window_end, L.k, L.v, R.v AS w FROM\n"
                   "  (SELECT * FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts), INTERVAL '%d' SECOND))) L %sJOIN\n"
                   "  (SELECT * FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts), INTERVAL '%d' SECOND))) R\n"
                   "  ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k\n"
                   "  AND MOD(L.v, 500) = MOD(R.v, 500)"
                   % (cur, size, kind, second, size)), W_COLS + ", k BIGINT, v BIGINT, w BIGINT", "append", True, True
    if t in ("over-rows", "over-range", "over-pt"):
        if t == "over-rows":
            w = "PARTITION BY k ORDER BY ts ROWS BETWEEN %d PRECEDING AND CURRENT ROW" % rng.choice([2, 10])
        elif t == "over-range":
            w = "PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '%d' SECOND PRECEDING AND CURRENT ROW" % rng.choice([1, 5])
        else:
            w = "PARTITION BY k ORDER BY pt ROWS BETWEEN 3 PRECEDING AND CURRENT ROW"
        # OVER on event time orders rows of one time by arrival: deterministic with one input only.
        return t, ("SELECT k, v, ts, SUM(v) OVER (%s) AS s, COUNT(*) OVER (%s) AS c FROM %s" % (w, w, cur)), \
            "k BIGINT, v BIGINT, ts TIMESTAMP(3), s BIGINT, c BIGINT", "append", ordered, t != "over-pt"
    raise AssertionError(t)


# ---------------------------------------------------------------------------------------------------

def upsert_options(ice, ice_rng):
    """The WITH options of an Iceberg upsert sink: Flink's equality deletes, Sluice's position mode or
    its deletion vectors (format v3)."""
    if ice != "upsert":
        return ""
    mode = ice_rng.choice(["equality", "position", "dv"])
    version = ", 'format-version' = '3'" if mode == "dv" else ""
    return ", 'write.upsert.enabled' = 'true', 'sluice.write.delete-mode' = '%s'%s" % (mode, version)


def kafka_sink(case, sink, cols, kind, name, exact):
    """An 'exactly-once' kafka sink into a topic of the run (${RUN}): json values for an append-only
    result, debezium-json for a changelog (one partition: a change must follow the one it retracts);
    for a keyed aggregate, one time in three (drawn from an RNG of its own, so the other choices of a
    seed stay as they were), an 'upsert-kafka' sink keyed by k over 1 or 2 partitions, sometimes with
    its reducing buffer. Returns (description, sink kind, exact)."""
    partitions = case.rng.choice([1, 2]) if kind == "append" else 1
    topic = "${RUN}-%s" % sink
    up_rng = random.Random("%d-%s-upsert" % (case.seed, sink))
    if kind == "changelog" and name in ("agg", "agg-distinct", "agg-having") and up_rng.random() < 0.35:
        partitions = up_rng.choice([1, 2])
        buffered = up_rng.random() < 0.3
        buffer = ("'sink.buffer-flush.max-rows' = '%d', 'sink.buffer-flush.interval' = '%s', "
                  % (up_rng.choice([10, 1000]), up_rng.choice(["50 ms", "1 s"]))) if buffered else ""
        case.kafka_sinks[sink] = (topic, partitions)
        case.ddl.append("CREATE TABLE %s (%s, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', "
                        "'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'key.format' = 'json', "
                        "'value.format' = 'json', %s'sink.delivery-guarantee' = 'exactly-once', "
                        "'sink.transactional-id-prefix' = '%s');" % (sink, cols, topic, case.kafka, buffer, topic))
        # The buffer keeps the last change of a key per flush, and flushes on time too: fewer records,
        # depending on timing, so only the folded table is compared.
        return "upsert-kafka-eos%s(%d)" % ("-buffered" if buffered else "", partitions), "upsert", exact and not buffered
    case.kafka_sinks[sink] = (topic, partitions)
    fmt = "json" if kind == "append" else "debezium-json"
    case.ddl.append("CREATE TABLE %s (%s) WITH ('connector' = 'kafka', 'topic' = '%s', "
                    "'properties.bootstrap.servers' = '%s', 'value.format' = '%s', "
                    "'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '%s');"
                    % (sink, cols, topic, case.kafka, fmt, topic))
    return "kafka-eos-%s(%d)" % (fmt, partitions), kind, exact


def generate(seed, scale=1.0, kafka=None):
    """The Case of `seed`. scale multiplies the number of rows (the harness's --scale). kafka: the
    bootstrap servers of a real broker; then the main stream is a topic of it and every sink an
    'exactly-once' kafka sink (the harness's --kafka)."""
    case = Case(seed)
    case.kafka = kafka
    rng = case.rng
    ice_rng = random.Random(seed * 31 + 5)
    n = int(rng.choice([2000, 4000, 8000]) * scale)
    case.rows = n
    changelog = rng.random() < 0.12
    second = "s2" if not changelog and rng.random() < 0.5 else None
    case.in_order = second is not None or (not changelog and rng.random() < 0.35)
    if changelog:
        case.desc.append(source_debezium(case, "s1", n * FILE_FACTOR))
    else:
        case.desc.append(add_source(case, "s1", n, ["kafka"] if kafka else None))
    if second is not None:
        case.desc.append("+" + add_source(case, "s2", max(200, n // rng.choice([1, 4]))))
    if case.in_order:
        case.desc.append("in-order")
    b = Builder(case)
    cur, multi = "s1", case.kafka_partitions > 1
    if not changelog:
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            cur, what, used = b.row_step(cur, second)
            multi = multi or used
            case.desc.append(what)
    sinks = rng.choice([1, 1, 2])
    late = False
    for i in range(sinks):
        name, select, cols, kind, exact, drops = terminal(case, cur, second, multi, changelog, b.timed)
        fmt = "json" if kind == "append" else "debezium-json"
        sink = "out%d" % i
        # Iceberg sinks (issue 16), drawn from their own generator so the other choices of a seed stay
        # as they were: append sinks as Iceberg appends, keyed aggregates as Iceberg upserts. The
        # table read back (deletes applied) must equal the unkilled run's.
        ice = None
        if kafka:
            case.inserts.append("INSERT INTO %s\n%s" % (sink, select))
            what, case.sinks[sink], case.exact[sink] = kafka_sink(case, sink, cols, kind, name, exact)
            case.desc.append("->%s:%s" % (name, what))
            late = late or drops
            continue
        if kind == "append" and ice_rng.random() < 0.3:
            ice = "append"
        elif kind == "changelog" and name in ("agg", "agg-distinct", "agg-having") and ice_rng.random() < 0.4:
            ice = "upsert"
        if ice is None:
            case.ddl.append("CREATE TABLE %s (%s) WITH ('connector' = 'filesystem', 'path' = '${OUT}/%s', 'format' = '%s');"
                            % (sink, cols, sink, fmt))
        else:
            if ice == "upsert":
                cols = cols.replace("k BIGINT", "k BIGINT NOT NULL", 1) + ", PRIMARY KEY (k) NOT ENFORCED"
                select = select.replace("SELECT k, ", "SELECT COALESCE(k, -1) AS k, ", 1)
            case.ddl.append("CREATE TABLE %s (%s) WITH ('connector' = 'iceberg', 'catalog-name' = 'crash', "
                            "'catalog-type' = 'hadoop', 'warehouse' = '${OUT}/%s', 'catalog-database' = 'db', "
                            "'catalog-table' = '%s'%s);"
                            % (sink, cols, sink, sink, upsert_options(ice, ice_rng)))
            kind, exact, fmt = "iceberg", True, "iceberg-" + ice
            if ice == "append":
                case.iceberg_appends.add(sink)
        case.inserts.append("INSERT INTO %s\n%s" % (sink, select))
        case.sinks[sink] = kind
        case.exact[sink] = exact
        case.desc.append("->%s:%s" % (name, fmt))
        late = late or drops
    # Operators that drop late rows may exist without the terminal step (rowtime dedup inside a
    # temporal join's versioned view, for instance): a late-rows table is declared whenever asked.
    if not changelog and (late or rng.random() < 0.3):
        case.ddl.append("CREATE TABLE late_rows (operator STRING, `watermark` TIMESTAMP(3), `row` STRING, "
                        "event_time TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '${OUT}/late_rows', "
                        "'format' = 'json');")
        case.sets.append(("sluice.exec.late-rows.table", "late_rows"))
        case.sinks["late_rows"] = "append"
        case.exact["late_rows"] = True
        case.desc.append("+late-rows")
    if rng.random() < 0.25:
        case.sets += [("table.exec.mini-batch.enabled", "true"),
                      ("table.exec.mini-batch.allow-latency", rng.choice(["10 ms", "100 ms"])),
                      ("table.exec.mini-batch.size", str(rng.choice([10, 1000])))]
        for s, kind in case.sinks.items():
            if kind in ("changelog", "upsert"):
                case.exact[s] = False  # batches end on processing time: fewer, timing-dependent changes
        case.desc.append("mini-batch")
    interval_ms = int(round(10 ** rng.uniform(1, 3)))  # 10 ms to 1 s, log-uniform
    case.sets += [("pipeline.name", "crash"), ("state.checkpoints.dir", "${CKPT}"),
                  ("execution.checkpointing.interval", "%d ms" % interval_ms),
                  ("execution.checkpointing.incremental", rng.choice(["true", "false"])),
                  ("state.checkpoints.num-retained", rng.choice(["1", "2"])),
                  ("sluice.exec.chunk-size", str(rng.choice([7, 64, 256, 1024, 4096])))]
    if rng.random() < 0.5:
        case.sets.append(("state.storage.fs.memory-threshold", "0"))
    case.desc.append(" ".join("%s=%s" % (k.split(".")[-1], v) for k, v in case.sets
                              if k in ("execution.checkpointing.interval", "execution.checkpointing.incremental",
                                       "state.checkpoints.num-retained", "sluice.exec.chunk-size")))
    return case
