"""The random query generator's data and queries (driven by tests/flink/random_queries.py).

From a seed it makes the input files both engines read (t.json, u.json, v.json; random_data.py) and
one query over them, kept as named lists of parts (select items, conjuncts, aggregates, ...) so the
minimiser can drop them one by one. Everything is a pure function of the seed string:
random.Random(seed).

The inputs: table t (id, k, g, a, b, x, m, s, f, ts; json or a debezium-json changelog), table u
(uid, k, g, y, n, ts) and v (u's columns, a versioned table keyed by k): typed columns with NULLs,
DECIMALs, DOUBLEs, event time with a watermark delay, rows out of order within the delay, late rows
(behind the watermark) and re-sent rows (an earlier row again, same id and values). Timestamps are
whole seconds on purpose: Flink's SQL watermark assigner emits a watermark eagerly when it advanced by
more than 'pipeline.auto-watermark-interval' (200 ms) since the last one, so with whole-second steps
its watermark follows every row, as Sluice's does, and late-row drops are deterministic on both
(sub-second steps would make Flink's drops depend on its 200 ms timer:
docs/flink_differences.md#periodic-watermarks).
"""
import json
import random

from random_common import AGGS, UPDATING_T, mentions_column
from random_data import Data
from random_exprs import Exprs
from random_q_basic import BasicQueries
from random_q_joins import JoinQueries
from random_q_rank import RankQueries
from random_q_windows import WindowQueries

# Constructs the generator can emit. Off: what main does not support yet (other helpers close these
# gaps; turn them on with --enable NAME once merged). The driver's --enable/--disable flip them.
CONSTRUCTS = {
    "calc": True, "agg": True, "join": True, "interval_join": True, "window": True, "dedup": True,
    "topn": True, "over": True,
    "set_ops": True,               # UNION [ALL] / INTERSECT [ALL] / EXCEPT [ALL] of t and u (or t twice)
    "subquery": True,              # IN / NOT IN / EXISTS / NOT EXISTS (SELECT ... FROM u) in WHERE
    "subquery_disjunct": False,    # an IN subquery under OR (and IN / EXISTS in the SELECT list): planned,
                                   # but Flink's EXPLAIN differs and it loses every row over an empty
                                   # subquery (flink_differences.md#in-and-exists-subqueries-under-or)
    "temporal_join": True,         # t JOIN v FOR SYSTEM_TIME AS OF t.ts (v: a debezium-json versioned table)
    "match_recognize": True,       # MATCH_RECOGNIZE over t partitioned by k, ordered by ts
    "window_more": True,           # window Top-N and window deduplication over window TVFs
    "window_join": True,           # window joins of t and u over the same TVF
    "batch_rank": True,            # RANK() / DENSE_RANK() / ROW_NUMBER() Top-N in batch mode (Flink's
                                   # streaming planner refuses RANK: flink_differences.md#rank-and-dense-rank-in-streaming)
    "updating_source": True,       # a keep-last-row dedup of t by id as input: an updating query
    "changelog_source": True,      # t read as debezium-json: inserts, updates and deletes
    "late_rows": True, "resent_rows": True,
    "late_event_time": True,       # late rows also into event-time operators (half of their queries)
    "double": True,                # DOUBLE columns and functions (printing of approximate values)
    "left_right": True,            # LEFT(s, n) / RIGHT(s, n)
    "more_types": True,            # TINYINT/SMALLINT/FLOAT/TIME casts, ARRAY and MAP values, DAYOFMONTH, HOUR
    "decimal_common_type": True,   # CASE/COALESCE over DECIMALs of different precision/scale
    "unicode_case": True,          # non-ASCII letters in UPPER/LOWER
                                   # (docs/flink_differences.md#upper-and-lower-of-non-ascii-letters)
    "more_functions": True,        # more string, math and temporal functions, TRY_CAST and casts between
                                   # types, the simple CASE form
    "grouping_sets": True,         # GROUP BY GROUPING SETS / ROLLUP / CUBE with GROUPING()
    "unnest": True,                # CROSS JOIN UNNEST(ARRAY[...]) [WITH ORDINALITY], LEFT JOIN UNNEST ON TRUE
    "distinct": True,              # SELECT DISTINCT projections
    "over_more": True,             # OVER with RANGE UNBOUNDED and the default frame; non-time OVER (ORDER BY
                                   # a column that is no time attribute, unbounded, an updating result)
    "subquery_more": True,         # row-valued and aggregated IN, correlated scalar subqueries in WHERE,
                                   # scalar subqueries in the SELECT list (IN / EXISTS there with
                                   # subquery_disjunct)
    "window_session_rank": True,   # window Top-N and window deduplication over SESSION windows
    "window_grouping_sets": True,  # window aggregations with GROUPING SETS / ROLLUP / CUBE
    "cdc_duplicates": True,        # t as a debezium-json changelog with a PRIMARY KEY and change events
                                   # delivered twice, read with 'table.exec.source.cdc-events-duplicate'
    "versioned_view": True,        # temporal joins against a versioned view (a keep-last-row
                                   # deduplication of u by k) in place of the debezium-json table v
    "set_ops_nested": True,        # a set operation of three queries (INTERSECT binding tighter)
    # Since seed 2020 (issue 20's list):
    "batch_mode": True,            # a share of calc/agg/join/set_ops/topn/over/sort_limit queries run with
                                   # SET 'execution.runtime-mode' = 'batch'
    "sort_limit": True,            # ORDER BY ... LIMIT [OFFSET]; ORDER BY alone with Flink's internal
                                   # '__table.exec.sort.non-temporal.enabled__' (or in batch mode)
    "topn_ranges": True,           # Top-N rank ranges: rn = n, rn < n, BETWEEN, lower bounds, contradictory ones
    "named_window": True,          # OVER w ... WINDOW w AS (...)
    "null_logic": True,            # AND/OR/NOT/IS [NOT] TRUE/FALSE over NULL booleans, IN lists with NULL
    "cast_edges": True,            # TRY_CAST/CAST of edge texts and values (overflow, blanks, signs, dates)
    "non_ascii": True,             # non-ASCII text literals in string functions
    "time_more": True,             # INTERVAL DAY/HOUR/MONTH/compound arithmetic, TIMESTAMPADD/DIFF units,
                                   # TIMESTAMP_LTZ (TO_TIMESTAMP_LTZ, casts) in a fixed session time zone
    "agg_options": True,           # group aggregates with 'table.optimizer.distinct-agg.split.enabled' or
                                   # 'table.exec.mini-batch.*'
    "set_ops_updating": True,      # set operations (ALL too) over group aggregates (updating inputs) and
                                   # DECIMAL columns of different precision and scale (a common type)
    "subquery_nulls": True,        # NOT IN / IN / EXISTS over nullable expressions on both sides
    "window_updating": True,       # window TVF aggregations over t read as a debezium-json changelog (with
                                   # its watermark)
    # Since seed 2034 (issue 19's list):
    "nested_types": True,          # ARRAY/MAP/ROW values as select items, UNNEST of ROW arrays and MAPs,
                                   # ELEMENT, CARDINALITY, STR_TO_MAP, ITEM
    "array_agg": False,            # ARRAY_AGG in group aggregates: not in Sluice yet
    "nested_functions": False,     # ARRAY_CONTAINS/ARRAY_DISTINCT/ARRAY_POSITION/ARRAY_MAX/ARRAY_REVERSE/
                                   # ARRAY_JOIN/MAP_KEYS: not in Sluice yet
    "over_values": True,           # FIRST_VALUE / LAST_VALUE in time OVER windows
    "over_lag": False,             # LAG in time OVER windows: not in Sluice yet
    "mini_batch_more": True,       # 'table.exec.mini-batch.*' on deduplication, Top-N, regular joins and
                                   # reads of a normalized CDC table (ChangelogNormalize)
    "window_two_phase": True,      # window aggregations with 'table.optimizer.agg-phase-strategy' and
                                   # mini-batch
    "cdc_primary_key": True,       # t's debezium-json changelog with PRIMARY KEY (id) and no duplicates
                                   # option (an upsert key, no ChangelogNormalize)
    "interval_more": True,         # interval-join bounds written from u's side, with > / <, and a non-equi
                                   # condition in ON
}


def ddl(name, cols_sql, delay, file, fmt="json"):
    return (f"CREATE TABLE {name} (\n  {cols_sql},\n  WATERMARK FOR ts AS ts - INTERVAL '{delay}' SECOND\n"
            f") WITH ('connector' = 'filesystem', 'path' = '${{CASE_DIR}}/{file}', 'format' = '{fmt}')")


T_DDL = ("id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, "
         "ts TIMESTAMP(3)")
U_DDL = "uid INT, k STRING, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3)"
V_DDL = U_DDL.replace("k STRING", "k STRING NOT NULL") + ", PRIMARY KEY (k) NOT ENFORCED"


# The kinds of query and their weights.
KINDS = {"calc": 3, "unnest": 1, "agg": 4, "join": 2, "interval_join": 2, "window": 3, "dedup": 1, "topn": 2, "over": 2,
         "set_ops": 2, "subquery": 2, "temporal_join": 1, "match_recognize": 2, "window_more": 2,
         "window_join": 1, "batch_rank": 1, "sort_limit": 1}
# Kinds whose operators drop late rows: their inputs have late rows only with late_event_time, in half
# of the queries (Data.rows).
EVENT_TIME_KINDS = ("interval_join", "window", "over", "temporal_join", "match_recognize", "window_more",
                    "window_join")
# Event-time kinds over two sources: never late rows. Flink reads the sources in parallel, and when one
# ends its watermark jumps to the end of time, so which rows of the other are late depends on which
# source Flink happened to finish first (flink_differences.md#periodic-watermarks).
TWO_SOURCE_EVENT_KINDS = ("interval_join", "temporal_join", "window_join")
# Kinds that may read t as a debezium-json changelog (changelog_source).
CHANGELOG_KINDS = ("calc", "unnest", "agg", "join", "topn", "dedup", "set_ops", "subquery")
# Kinds that run in batch mode in a share of their queries (batch_mode; never over a changelog source).
BATCH_KINDS = ("calc", "agg", "join", "set_ops", "topn", "over", "sort_limit", "subquery")


class Generator(BasicQueries, JoinQueries, WindowQueries, RankQueries):
    """One query of a seed: the kind, the data, the query (the q_KIND methods in the random_q_*.py mixins)."""

    def __init__(self, seed, on):
        self.r = random.Random(seed)
        self.on = on
        kinds = [k for k in KINDS if on[k]]
        self.kind = self.r.choices(kinds, [KINDS[k] for k in kinds])[0]
        in_time = self.kind in EVENT_TIME_KINDS and (self.kind in TWO_SOURCE_EVENT_KINDS or not (
            on["late_event_time"] and self.r.random() < 0.5))
        changelog = on["changelog_source"] and (self.kind in CHANGELOG_KINDS or (
            self.kind == "window" and on["window_updating"])) and self.r.random() < 0.25
        self.data = Data(self.r, on, in_time, changelog)
        self.known = {}  # documented difference categories of the query made (case.json "known")

    def exprs(self, env):
        return Exprs(self.r, env, self.on)

    def agg(self, x, window=False):
        r = self.r
        num = r.choice(["INT", "DEC", "BIGINT"] + (["DOUBLE"] if self.on["double"] else []))
        a = r.choice(AGGS).format(any=x.expr(x.any_type(), 1), num=x.expr(num, 1), int=x.expr("INT", 1),
                                  ord=x.expr(r.choice(["INT", "DEC", "TS", "STR"]), 1), str=x.expr("STR", 1),
                                  dec=x.expr("DEC", 1))
        if r.random() < 0.25 and "DISTINCT" not in a:
            a += f" FILTER (WHERE {x.expr('BOOL', 1)})"
        return a

    def items(self, x, lo, hi, prefix="c"):
        return [f"{x.expr(x.any_type(), 2)} AS {prefix}{i}" for i in range(self.r.randint(lo, hi))]

    def nested_items(self, x):
        """With nested_types, in a share of queries one ARRAY, MAP or ROW value (nested too) as an item."""
        r = self.r
        if not self.on["nested_types"] or r.random() < 0.7:
            return []
        ty = r.choice(["INT", "STR", "DEC"])
        # One DECIMAL type for the elements (flink_differences.md#decimal-elements-of-an-array).
        el = lambda t=ty: f"CAST({x.expr(t, 1)} AS DECIMAL(12, 2))" if t == "DEC" else x.expr(t, 1)
        value = r.choice([
            lambda: f"ARRAY[{el()}, {el()}]",
            lambda: f"ROW({el()}, {x.expr(x.any_type(), 1)})",
            lambda: f"MAP['a', {el()}, 'b', {el()}]",
            lambda: f"ARRAY[ROW({el('INT')}, {el('STR')})]",
            lambda: f"MAP['k', ARRAY[{el()}]]",
        ])()
        return [f"{value} AS n0"]

    def conjuncts(self, x, hi=2):
        """WHERE conjuncts, each over a column: Flink's optimizer reduces a condition it proves always
        false (`69.79 IS NULL`) to an empty Values, Sluice scans and filters; a plan difference
        (docs/flink_differences.md#always-false-conditions) not worth one disagreement per query."""
        out = []
        for _ in range(self.r.randint(0, hi)):
            for _ in range(20):
                e = x.expr("BOOL", 2)
                # No NULL boolean literal in a condition: `f AND CAST(NULL AS BOOLEAN)` is never true, and
                # Flink's planner fails on some conditions it proves false (random queries 2033-88,
                # 2033-89; flink_differences.md#flinks-planning-failures). NULL logic stays in the items.
                # Nor a NULL TIMESTAMP literal: Flink 2.2.1's planner fails on `IF(f, CAST(NULL AS
                # TIMESTAMP(3)), ts) IS NULL` (random query 2034-96, case random_2034_96).
                if mentions_column(e, x.env) and "CAST(NULL AS BOOLEAN)" not in e and \
                        "CAST(NULL AS TIMESTAMP(3))" not in e:
                    out.append(e)
                    break
        return out

    def source(self):
        if self.on["updating_source"] and self.r.random() < 0.3:
            self.known["explain"] = "flink_differences.md#deduplicate-in-the-physical-plan"
            if self.data.cdc_duplicates:
                # Over the normalized changelog the keep-last-row deduplication is a Rank over an
                # updating input, whose changelog differs (random query 2031-46).
                self.known["changelog"] = "flink_differences.md#top-n-over-an-updating-input"
            return UPDATING_T + " AS t0"
        return "t"

    def make(self):
        self.batch = (self.on["batch_mode"] and self.kind in BATCH_KINDS and not self.data.changelog
                      and self.r.random() < 0.3)
        q = getattr(self, "q_" + self.kind)()
        q.known = dict(self.known, **q.known)
        if self.on["mini_batch_more"] and not self.batch and (q.kind in ("dedup", "topn", "join") or (
                self.data.cdc_duplicates and q.kind in ("calc", "unnest"))) and self.r.random() < 0.3:
            # Mini-batch over a deduplication, a Top-N, a regular join or a ChangelogNormalize: bundles
            # emit other intermediate updates, the same final table.
            q.pre = tuple(q.pre) + ("SET 'table.exec.mini-batch.enabled' = 'true';",
                                    f"SET 'table.exec.mini-batch.allow-latency' = '{self.r.choice(['1 s', '5 s'])}';",
                                    f"SET 'table.exec.mini-batch.size' = '{self.r.randint(1, 20)}';")
            q.compare = "final"
        if self.batch:
            q.pre = ("SET 'execution.runtime-mode' = 'batch';",) + tuple(q.pre)
            q.batch = True
            # Flink's batch plans: no changelog modes, no WatermarkAssigner, local and global hash
            # aggregates and sort-based ranks (flink_differences.md#batch-plans; random query 2020-12).
            q.known["explain"] = "flink_differences.md#batch-plans"
            if q.compare == "changelog" and not q.ordered:
                q.compare = "final"
        if UPDATING_T in q.sql() and q.kind in ("calc", "agg") and q.parts.get("where"):
            # Flink 2.2.1 sometimes fails to plan the keep-last-row deduplication read under a WHERE
            # condition ("The window can only be ordered in ASCENDING mode.", 2 of the 12 such queries
            # of seed 2003): flink_differences.md#flinks-planning-failures.
            q.known["refusal"] = "flink_differences.md#flinks-planning-failures"
        return q


def case_files(seed, on, query=None, data=None):
    """{file name: text} of the case for `seed` (query and data overridable by the minimiser). The data
    are (t, u, v) rows, [] for a table the query does not read."""
    g = Generator(seed, on)
    q = query or g.make()
    t_rows, u_rows, v_rows = data or (g.data.t, g.data.u if "u" in q.tables else [],
                                      g.data.v if "v" in q.tables else [])
    stmts = [f"-- Random query {seed} ({q.kind}; tests/flink/random_queries.py)"]
    if g.data.changelog:
        # t as a changelog, without a watermark (its ts is no time attribute: the changelog kinds need
        # none, and Flink's WatermarkAssigner over a changelog plans otherwise than Sluice's:
        # flink_differences.md#watermark-assigner-over-a-changelog).
        cols = T_DDL
        if q.kind == "window":
            # A window aggregation over the changelog: t's watermark declared (the window TVF needs its
            # time attribute; Flink 2.2 aggregates an updating input's windows too).
            cols += f",\n  WATERMARK FOR ts AS ts - INTERVAL '{g.data.delay_t}' SECOND"
            q.known.setdefault("explain", "flink_differences.md#watermark-assigner-over-a-changelog")
        if g.data.cdc_duplicates:
            stmts.append("SET 'table.exec.source.cdc-events-duplicate' = 'true';")
            if any("mini-batch.enabled" in p for p in q.pre):
                # Flink plans a MiniBatchAssigner below the DropUpdateBefore under an aggregation (random
                # queries 2033-33, 2034-69; flink_differences.md#mini-batch-bundles).
                q.known.setdefault("explain", "flink_differences.md#mini-batch-bundles")
            cols = T_DDL.replace("id INT", "id INT NOT NULL") + ", PRIMARY KEY (id) NOT ENFORCED"
        elif g.data.cdc_key:
            cols = cols.replace("id INT", "id INT NOT NULL", 1) + ", PRIMARY KEY (id) NOT ENFORCED"
        if (g.data.cdc_key or g.data.cdc_duplicates) and any("distinct-agg.split" in p for p in q.pre):
            # Flink doubles some SUM(DISTINCT) of a split aggregation over a keyed changelog (random
            # query 2036-61, flink_differences.md#split-distinct-aggregation-over-an-upsert-source).
            q.known.update(rows="flink_differences.md#split-distinct-aggregation-over-an-upsert-source",
                           explain="flink_differences.md#split-distinct-aggregation-over-an-upsert-source")
        stmts.append(f"CREATE TABLE t (\n  {cols}\n) WITH ('connector' = 'filesystem', 'path' = "
                     f"'${{CASE_DIR}}/t.json', 'format' = 'debezium-json');")
        t_text = Data.debezium(t_rows, "id")
    else:
        stmts.append(ddl("t", T_DDL, g.data.delay_t, "t.json") + ";")
        t_text = Data.jsonl(t_rows)
    if "u" in q.tables:
        stmts.append(ddl("u", U_DDL, g.data.delay_u, "u.json") + ";")
    if "v" in q.tables:
        stmts.append(ddl("v", V_DDL, g.data.delay_u, "v.json", "debezium-json") + ";")
    sql = q.sql()
    if "TIMESTAMP_LTZ" in sql:
        # TIMESTAMP_LTZ values print in the session time zone: a fixed one with a half-hour offset.
        stmts.append("SET 'table.local-time-zone' = 'Asia/Kolkata';")
    stmts.extend(q.pre)
    stmts.append(sql + ";")
    files = {"case.sql": "\n".join(stmts) + "\n", "t.json": t_text}
    if "u" in q.tables:
        files["u.json"] = Data.jsonl(u_rows)
    if "v" in q.tables:
        files["v.json"] = Data.debezium(v_rows, "k")
    opts = {"compare": q.compare, "random": seed}
    if q.compare == "final" and q.batch:
        opts["why"] = "batch mode: each engine's operators emit in their own order"
    elif q.compare == "final" and any("mini-batch.enabled" in p for p in q.pre):
        opts["why"] = "mini-batch bundles emit other intermediate updates"
    elif q.compare == "final":
        two = "two sources"
        timers = "rows released by one watermark come out in each engine's timer order"
        opts["why"] = {"join": two, "interval_join": two, "set_ops": two, "subquery": two,
                       "temporal_join": two, "window_join": two, "window_more": timers, "match_recognize": timers,
                       "window": "windows firing at one watermark come out in each engine's timer order",
                       "batch_rank": "a batch Rank emits partition by partition in each engine's order",
                       "dedup": timers, "sort_limit": "ties of the ORDER BY or a temporal sort's timers",
                       "agg": "mini-batch bundles and the split aggregation emit other intermediate updates",
                       "topn": "an updating input",
                       "over": timers}[q.kind]
    if q.known:
        opts["known"] = q.known
    files["case.json"] = json.dumps(opts, indent=1) + "\n"
    return g, q, (t_rows, u_rows, v_rows), files
