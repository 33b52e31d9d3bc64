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
import re
from datetime import timedelta

from random_data import BASE, Data, fmt_ts
from random_exprs_more import MoreExprs

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
}

T_COLS = {"id": "INT", "k": "STR", "g": "INT", "a": "INT", "b": "BIGINT", "x": "DOUBLE", "m": "DEC",
          "s": "STR", "f": "BOOL", "ts": "TS"}
U_COLS = {"uid": "INT", "k": "STR", "g": "INT", "y": "INT", "n": "DEC", "ts": "TS"}


def ddl(name, cols_sql, delay, file, fmt="json"):
    return (f"CREATE TABLE {name} (\n  {cols_sql},\n  WATERMARK FOR ts AS ts - INTERVAL '{delay}' SECOND\n"
            f") WITH ('connector' = 'filesystem', 'path' = '${{CASE_DIR}}/{file}', 'format' = '{fmt}')")


T_DDL = ("id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, "
         "ts TIMESTAMP(3)")
U_DDL = "uid INT, k STRING, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3)"
V_DDL = U_DDL.replace("k STRING", "k STRING NOT NULL") + ", PRIMARY KEY (k) NOT ENFORCED"


class Exprs(MoreExprs):
    """Random typed expressions over an environment {sql reference: type}. Types: INT, BIGINT, DOUBLE,
    DEC, STR, BOOL, TS, DATE."""

    def __init__(self, r, env, on):
        self.r, self.env, self.on = r, env, on

    def cols(self, ty):
        return [c for c, t in self.env.items() if t == ty]

    def literal(self, ty):
        r = self.r
        if r.random() < 0.05:
            return f"CAST(NULL AS {self.sql_type(ty)})"
        return {
            "INT": lambda: str(r.randint(-5, 20)),
            "BIGINT": lambda: f"CAST({r.randint(-100, 10**6)} AS BIGINT)",
            "DOUBLE": lambda: f"{r.randint(-40, 40) / 4}E0",
            "DEC": lambda: f"{r.randint(-999, 9999) / 100:.2f}",
            "STR": lambda: "'" + r.choice(["a", "b", "apple", "", "z z", "Pear"]
                                          + (["Äpfel", "ñandú", "日本", "straße", "é"] if self.on["non_ascii"]
                                             and r.random() < 0.3 else [])) + "'",
            "BOOL": lambda: r.choice(["TRUE", "FALSE"]),
            "TS": lambda: f"TIMESTAMP '{fmt_ts(BASE + timedelta(seconds=r.randint(0, 90)))}'",
            "DATE": lambda: r.choice(["DATE '2026-08-15'", "DATE '2026-08-14'"]),
        }[ty]()

    @staticmethod
    def sql_type(ty):
        return {"INT": "INT", "BIGINT": "BIGINT", "DOUBLE": "DOUBLE", "DEC": "DECIMAL(10, 2)",
                "STR": "STRING", "BOOL": "BOOLEAN", "TS": "TIMESTAMP(3)", "DATE": "DATE"}[ty]

    def leaf(self, ty):
        cols = self.cols(ty)
        # BOOLEAN: always a column where there is one. Flink's optimizer folds a condition it proves
        # always false (a FALSE conjunct) into an empty Values, Sluice scans and filters: a plan
        # difference, not worth a disagreement per query (docs/flink_differences.md).
        if cols and (self.r.random() < 0.8 or ty == "BOOL"):
            return self.r.choice(cols)
        if ty == "DATE" and self.cols("TS"):
            return f"CAST({self.r.choice(self.cols('TS'))} AS DATE)"
        return self.literal(ty)

    def same(self, ty, d):
        """Branches of CASE/COALESCE: DECIMALs cast to one type unless decimal_common_type is on."""
        e = self.expr(ty, d)
        if ty == "DEC" and not self.on["decimal_common_type"]:
            return f"CAST({e} AS DECIMAL(12, 2))"
        return e

    def if_branch(self, ty, d):
        """A branch of IF. Flink 2.2.1 types IF(c, TIMESTAMP(0), <a time attribute>) as its first
        branch, TIMESTAMP(0), and truncates the other's milliseconds (CASE and COALESCE take the common
        TIMESTAMP(3)); timestamps are cast to TIMESTAMP(3) here
        (docs/flink_differences.md#if-over-a-time-attribute)."""
        e = self.same(ty, d)
        return f"CAST({e} AS TIMESTAMP(3))" if ty == "TS" else e

    def expr(self, ty, d=2):
        if d <= 0 or self.r.random() < 0.3:
            return self.leaf(ty)
        e, n = self.expr, d - 1
        nz = lambda: str(self.r.choice([2, 3, 7, -4]))
        common = [
            lambda: f"CASE WHEN {e('BOOL', n)} THEN {self.same(ty, n)} ELSE {self.same(ty, n)} END",
            lambda: f"COALESCE({self.same(ty, n)}, {self.same(ty, n)})",
            lambda: f"IF({e('BOOL', n)}, {self.if_branch(ty, n)}, {self.if_branch(ty, n)})",
        ]
        prods = {
            "INT": [lambda: f"({e('INT', n)} + {e('INT', n)})", lambda: f"({e('INT', n)} - {e('INT', n)})",
                    lambda: f"({e('INT', n)} * {e('INT', n)})", lambda: f"({e('INT', n)} / {nz()})",
                    lambda: f"MOD({e('INT', n)}, {nz()})", lambda: f"ABS({e('INT', n)})",
                    lambda: f"CHAR_LENGTH({e('STR', n)})", lambda: f"CAST({e('DEC', n)} AS INT)",
                    lambda: f"POSITION({self.literal('STR')} IN {e('STR', n)})",
                    lambda: f"NULLIF({e('INT', n)}, {e('INT', n)})",
                    lambda: f"GREATEST({e('INT', n)}, {e('INT', n)})"],
            "BIGINT": [lambda: f"({e('BIGINT', n)} + {e('INT', n)})", lambda: f"CAST({e('INT', n)} AS BIGINT)",
                       lambda: f"EXTRACT(SECOND FROM {e('TS', n)})", lambda: f"MINUTE({e('TS', n)})",
                       lambda: f"({e('BIGINT', n)} % {nz()})"],
            "DOUBLE": [lambda: f"({e('DOUBLE', n)} + {e('DOUBLE', n)})",
                       lambda: f"({e('DOUBLE', n)} * {e('INT', n)})", lambda: f"CAST({e('INT', n)} AS DOUBLE)",
                       lambda: f"ROUND({e('DOUBLE', n)}, 1)", lambda: f"ABS({e('DOUBLE', n)})",
                       lambda: f"CAST({e('DEC', n)} AS DOUBLE)", lambda: f"({e('DOUBLE', n)} / 4)"],
            "DEC": [lambda: f"({e('DEC', n)} + {e('DEC', n)})", lambda: f"({e('DEC', n)} - {e('INT', n)})",
                    lambda: f"({e('DEC', n)} * {self.literal('DEC')})", lambda: f"ROUND({e('DEC', n)}, 1)",
                    lambda: f"CAST({e('INT', n)} AS DECIMAL(10, 2))", lambda: f"ABS({e('DEC', n)})",
                    lambda: f"FLOOR({e('DEC', n)})", lambda: f"({e('DEC', n)} / 3)"],
            "STR": [lambda: f"UPPER({e('STR', n)})", lambda: f"LOWER({e('STR', n)})",
                    lambda: f"TRIM({e('STR', n)})", lambda: f"CONCAT({e('STR', n)}, {e('STR', n)})",
                    lambda: f"({e('STR', n)} || {e('STR', n)})",
                    lambda: f"SUBSTRING({e('STR', n)}, {self.r.randint(1, 3)}, {self.r.randint(0, 4)})",
                    lambda: f"REPLACE({e('STR', n)}, 'a', 'A')", lambda: f"LPAD({e('STR', n)}, 6, '*')",
                    lambda: f"CAST({e('INT', n)} AS STRING)", lambda: f"CAST({e('DEC', n)} AS STRING)",
                    lambda: f"CAST({e('BOOL', n)} AS STRING)", lambda: f"CAST({e('TS', n)} AS STRING)",
                    lambda: f"DATE_FORMAT({e('TS', n)}, 'yyyy-MM-dd HH:mm')",
                    lambda: f"CONCAT_WS('-', {e('STR', n)}, {e('STR', n)})", lambda: f"INITCAP({e('STR', n)})",
                    lambda: f"REVERSE({e('STR', n)})"]
                   + ([lambda: f"LEFT({e('STR', n)}, {self.r.randint(-1, 4)})",
                       lambda: f"RIGHT({e('STR', n)}, {self.r.randint(-1, 4)})"] if self.on["left_right"] else []),
            "BOOL": [lambda: self.compare(n), lambda: self.compare(n),
                     lambda: f"({e('BOOL', n)} AND {e('BOOL', n)})", lambda: f"({e('BOOL', n)} OR {e('BOOL', n)})",
                     lambda: f"(NOT {e('BOOL', n)})", lambda: f"({self.null_tested(n)} IS NULL)",
                     lambda: f"({self.null_tested(n)} IS NOT NULL)",
                     lambda: f"({e('STR', n)} LIKE '{self.r.choice(['a%', '%e%', '_', '%'])}')",
                     lambda: self.between(n),
                     lambda: f"({e('INT', n)} IN ({self.literal('INT')}, {self.literal('INT')}, 3))",
                     lambda: f"({e('BOOL', n)} IS TRUE)"],
            "TS": [lambda: f"({e('TS', n)} + INTERVAL '{self.r.randint(1, 90)}' SECOND)",
                   lambda: f"({e('TS', n)} - INTERVAL '{self.r.randint(1, 5)}' MINUTE)",
                   lambda: f"FLOOR({e('TS', n)} TO MINUTE)", lambda: f"CEIL({e('TS', n)} TO MINUTE)",
                   lambda: f"TIMESTAMPADD(SECOND, {self.r.randint(-30, 30)}, {e('TS', n)})"],
            "DATE": [lambda: f"CAST({e('TS', n)} AS DATE)"],
        }
        if self.on["more_types"]:
            # Narrow integers (overflow wraps as Java's narrowing), FLOAT, TIME, ARRAY and MAP values,
            # more date parts.
            more = {
                "INT": [lambda: f"CAST(CAST({e('INT', n)} AS TINYINT) AS INT)",
                        lambda: f"CAST(CAST({e('INT', n)} AS SMALLINT) AS INT)",
                        lambda: f"CARDINALITY(ARRAY[{e('INT', n)}, {e('INT', n)}])",
                        lambda: f"ARRAY[{e('INT', n)}, {e('INT', n)}][{self.r.randint(1, 2)}]",
                        lambda: f"MAP['a', {e('INT', n)}, 'b', {e('INT', n)}][{self.r.choice(['a', 'b', 'c'])!r}]",
                        lambda: f"DAYOFMONTH({e('DATE', n)})", lambda: f"CAST(HOUR({e('TS', n)}) AS INT)"],
                "DOUBLE": [lambda: f"CAST(CAST({self.of_column('DOUBLE', n)} AS FLOAT) AS DOUBLE)"],
                "STR": [lambda: f"CAST(CAST({self.of_column('DOUBLE', n)} AS FLOAT) AS STRING)",
                        lambda: f"CAST(CAST({e('INT', n)} AS TINYINT) AS STRING)",
                        lambda: f"CAST(CAST({e('TS', n)} AS TIME) AS STRING)",
                        lambda: f"CAST(CAST({self.of_column('DEC', n)} AS FLOAT) AS STRING)"],
            }
            prods = {k: v + more.get(k, []) for k, v in prods.items()}
        if self.on["more_functions"]:
            prods = {k: v + self.more_functions(n).get(k, []) for k, v in prods.items()}
        for name in ("null_logic", "cast_edges", "time_more"):
            if self.on[name]:
                prods = {k: v + getattr(self, name)(n).get(k, []) for k, v in prods.items()}
        if ty == "DOUBLE" and not self.on["double"]:
            return self.leaf("INT")
        choices = prods[ty] + (common if ty not in ("BOOL",) else common[:2])
        return self.r.choice(choices)()

    def of_column(self, ty, d):
        """An expression of `ty` that reads a column where it can: Flink 2.2.1 folds a constant
        `CAST(CAST(31.05 AS DOUBLE) AS FLOAT)` at planning in exact arithmetic (31.05), while its runtime
        cast, as Sluice's, gives the FLOAT's value (31.049999237060547; random query 2015-279,
        flink_differences.md#constant-folded-float-casts)."""
        for _ in range(5):
            e = self.expr(ty, d)
            if mentions_column(e, self.env):
                return e
        cols = self.cols(ty)
        return self.r.choice(cols) if cols else e

    def more_functions(self, n):
        """Productions of more_functions: string functions (padding, trimming, search, regular
        expressions, codes), temporal ones (differences, parts, formats), math, TRY_CAST and casts
        between types, the simple CASE form."""
        e, r, lit = self.expr, self.r, self.literal
        return {
            "INT": [lambda: f"LOCATE({lit('STR')}, {e('STR', n)})", lambda: f"ASCII({e('STR', n)})",
                    lambda: f"TIMESTAMPDIFF({r.choice(['SECOND', 'MINUTE'])}, {e('TS', n)}, {e('TS', n)})",
                    lambda: f"CAST({e('BOOL', n)} AS INT)", lambda: f"SIGN({e('INT', n)})",
                    lambda: f"TRY_CAST({e('STR', n)} AS INT)",
                    lambda: f"CASE {e('INT', n)} WHEN {lit('INT')} THEN {e('INT', n)} WHEN {lit('INT')} THEN "
                            f"{e('INT', n)} ELSE {e('INT', n)} END",
                    lambda: f"CAST(YEAR({e('DATE', n)}) AS INT)"],
            "BIGINT": [lambda: f"CAST({e('DEC', n)} AS BIGINT)", lambda: f"SIGN({e('BIGINT', n)})",
                       lambda: f"EXTRACT({r.choice(['DAY', 'HOUR', 'MINUTE', 'MONTH', 'YEAR'])} FROM {e('TS', n)})"],
            "DEC": [lambda: f"TRUNCATE({e('DEC', n)}, {r.randint(0, 1)})",
                    lambda: f"CAST({e('BIGINT', n)} AS DECIMAL(10, 2))", lambda: f"CEIL({e('DEC', n)})",
                    # Not of any text: Flink 2.2.1's cast skips one trailing character, so 'a' is 0.00
                    # (random query 2011-49; flink_differences.md#text-with-a-trailing-character-cast-to-decimal).
                    lambda: f"TRY_CAST(CAST({e('INT', n)} AS STRING) AS DECIMAL(10, 2))",
                    lambda: f"TRY_CAST(CONCAT({e('STR', n)}, 'zz') AS DECIMAL(10, 2))"],
            "DOUBLE": [lambda: f"POWER({e('INT', n)}, 2)", lambda: f"SIGN({e('DOUBLE', n)})"],
            "STR": [lambda: f"LTRIM({e('STR', n)})", lambda: f"RTRIM({e('STR', n)})",
                    lambda: f"RPAD({e('STR', n)}, {r.randint(0, 6)}, '#')",
                    lambda: f"LPAD({e('STR', n)}, {r.randint(0, 6)}, 'xy')",
                    lambda: f"REPEAT({e('STR', n)}, {r.randint(0, 2)})",
                    lambda: f"SPLIT_INDEX({e('STR', n)}, {r.choice([repr(' '), repr('_'), repr('p')])}, {r.randint(0, 1)})",
                    lambda: f"REGEXP_REPLACE({e('STR', n)}, {r.choice([repr('[aeiou]'), repr('p+'), repr(' ')])}, '-')",
                    lambda: f"REGEXP_EXTRACT({e('STR', n)}, {r.choice([repr('([a-z]+)'), repr('(p)(l|e)'), repr('x(.)')])}, 1)",
                    lambda: f"CHR({r.randint(65, 122)})", lambda: f"CAST({e('BIGINT', n)} AS STRING)",
                    lambda: f"CAST({e('DATE', n)} AS STRING)",
                    lambda: f"DATE_FORMAT({e('TS', n)}, {r.choice([repr('HH:mm:ss'), repr('yyyyMMdd'), repr('EEE')])})",
                    lambda: f"CASE {e('STR', n)} WHEN {lit('STR')} THEN {e('STR', n)} ELSE {e('STR', n)} END"],
            "BOOL": [lambda: f"({e('STR', n)} SIMILAR TO {r.choice([repr('a%'), repr('%(e|i)%'), repr('[a-z]+')])})",
                     lambda: f"({e('INT', n)} NOT BETWEEN {r.randint(-5, 5)} AND {r.randint(5, 20)})",
                     lambda: f"({e('STR', n)} NOT LIKE {r.choice([repr('%a%'), repr('_e%')])})",
                     lambda: f"({e('INT', n)} NOT IN ({lit('INT')}, {lit('INT')}))"],
            "TS": [lambda: f"TIMESTAMPADD(MINUTE, {r.randint(-3, 3)}, {e('TS', n)})",
                   lambda: f"FLOOR({e('TS', n)} TO HOUR)"],
        }

    def null_tested(self, d):
        """The operand of IS [NOT] NULL, never the bare rowtime column: Calcite takes a time attribute
        for NOT NULL, so `ts IS NULL` is always false to Flink, whose empty Values then has no time
        attribute left and an OVER or window Top-N over it is refused (random queries 2004-244,
        2009-69, 2009-162: flink_differences.md#flinks-planning-failures)."""
        e = self.expr(self.any_type(), d)
        for _ in range(5):
            if not re.fullmatch(r"(\w+\.)?ts", e):
                break
            e = self.expr(self.any_type(), d)
        return "a" if re.fullmatch(r"(\w+\.)?ts", e) and "a" in self.env else e

    def between(self, d):
        """BETWEEN with ordered bounds: `a BETWEEN 16 AND 3` is always false (see conjuncts)."""
        lo, hi = sorted(self.r.randint(-5, 20) for _ in range(2))
        return f"({self.expr('INT', d)} BETWEEN {lo} AND {hi})"

    def any_type(self):
        return self.r.choice(["INT", "BIGINT", "DEC", "STR", "TS", "DATE"]
                             + (["DOUBLE"] if self.on["double"] else []))

    def compare(self, d):
        ty = self.r.choice(["INT", "INT", "DEC", "STR", "TS", "DATE", "BIGINT"]
                           + (["DOUBLE"] if self.on["double"] else []))
        other = ty
        if ty in ("INT", "DEC", "BIGINT") and self.r.random() < 0.3:
            other = self.r.choice(["INT", "DEC", "BIGINT"])  # mixed numeric comparison
        op = self.r.choice(["=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM"])
        left, right = self.expr(ty, d), self.expr(other, d)
        for _ in range(5):  # `x < x` is always false: Flink plans an empty Values (see conjuncts)
            if right != left:
                break
            right = self.expr(other, d)
        if right == left:
            right = self.literal(other)
        return f"({left} {op} {right})"


class Query:
    """A query as named lists of removable parts; render() joins them into SQL. `mins` gives how many
    parts of a list must stay; the minimiser drops the others one by one."""

    def __init__(self, kind, parts, mins, render, compare="changelog", known=None, tables=("t",), pre=(),
                 ordered=False):
        self.kind, self.parts, self.mins, self.render_fn = kind, parts, mins, render
        self.compare, self.known, self.tables, self.pre = compare, known or {}, tables, pre
        self.ordered = ordered  # a total ORDER BY: the rows' order is compared in batch mode too
        self.batch = False

    def sql(self):
        return self.render_fn(self.parts)

    def with_parts(self, parts):
        q = Query(self.kind, parts, self.mins, self.render_fn, self.compare, self.known, self.tables, self.pre,
                  self.ordered)
        q.batch = self.batch
        return q


def mentions_column(e, env):
    """Whether SQL text `e` names a column of `env` outside its string literals ('a' is no column a)."""
    code = re.sub(r"'(?:[^']|'')*'", "''", e)
    return any(re.search(r"(?<![\w.])" + re.escape(c) + r"\b", code) for c in env)


def where_sql(conj, word="WHERE"):
    return f"\n{word} " + " AND ".join(conj) if conj else ""


# The keep-last-row deduplication of t by id: a re-sent row replaces its first copy, so everything
# reading it is an updating query.
UPDATING_T = ("(SELECT id, k, g, a, b, x, m, s, f, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id "
              "ORDER BY ts DESC) AS rn FROM t) WHERE rn = 1)")

AGGS = ["COUNT(*)", "COUNT({any})", "COUNT(DISTINCT {any})", "SUM({num})", "SUM(DISTINCT {int})",
        "MIN({ord})", "MAX({ord})", "AVG({num})", "MIN({str})", "MAX({dec})"]


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


class Generator:
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
                if mentions_column(e, x.env) and "CAST(NULL AS BOOLEAN)" not in e:
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

    def q_calc(self):
        x = self.exprs(T_COLS)
        src = self.source()
        parts = {"items": self.items(x, 1, 4), "where": self.conjuncts(x)}
        if self.on["distinct"] and self.r.random() < 0.2:
            # SELECT DISTINCT: a GroupAggregate over every column (no id: rows repeat)
            return Query("calc", parts, {"items": 1},
                         lambda p: f"SELECT DISTINCT {', '.join(p['items'])}\nFROM {src}" + where_sql(p["where"]))
        return Query("calc", parts, {"items": 1},
                     lambda p: f"SELECT id, {', '.join(p['items'])}\nFROM {src}" + where_sql(p["where"]))

    def q_unnest(self):
        """t's rows joined with an array of their values: CROSS JOIN UNNEST (optionally WITH
        ORDINALITY), or LEFT JOIN UNNEST ... ON TRUE (a row with an empty array kept, NULL-padded)."""
        r = self.r
        x = self.exprs(T_COLS)
        src = self.source()
        ty = r.choice(["INT", "STR", "DEC"])
        n = r.randint(0, 3)
        elems = [x.expr(ty, 1) for _ in range(max(n, 1))]
        if ty == "DEC":
            # One DECIMAL type for every element: Flink 2.2.1 does not rescale elements of a smaller
            # scale than the array's (random queries 2012-39, 2016-7;
            # flink_differences.md#decimal-elements-of-an-array).
            elems = [f"CAST({el} AS DECIMAL(12, 2))" for el in elems]
        ordinality = r.random() < 0.3
        alias = "ux (e, o)" if ordinality else "ux (e)"
        join = r.choice(["CROSS JOIN", "LEFT JOIN"])
        if join == "LEFT JOIN" and not any(mentions_column(el, x.env) for el in elems):
            # A LEFT JOIN UNNEST of a constant array fails Flink 2.2.1's planner (random query 2011-189:
            # flink_differences.md#flinks-planning-failures).
            elems[0] = r.choice(x.cols(ty))
        if not any(mentions_column(el, x.env) for el in elems):
            # CROSS JOIN UNNEST of a constant array: Flink plans a Join of t with a Correlate over
            # Values, whose rows come out in another order (random query 2013-239;
            # flink_differences.md#unnest-of-a-constant-array).
            self.known.update(explain="flink_differences.md#unnest-of-a-constant-array",
                              changelog="flink_differences.md#unnest-of-a-constant-array")
        arr = f"ARRAY[{', '.join(elems)}]"
        on = " ON TRUE" if join == "LEFT JOIN" else ""
        call = f"UNNEST({arr}){' WITH ORDINALITY' if ordinality else ''}"
        parts = {"items": ["e"] + (["o"] if ordinality else []) + self.items(x, 0, 2), "where": self.conjuncts(x, 1)}
        return Query("unnest", parts, {"items": 1},
                     lambda p: f"SELECT id, {', '.join(p['items'])}\nFROM {src} {join} {call} AS {alias}{on}"
                     + where_sql(p["where"]))

    def group_keys(self, x):
        opts = ["k", "g", "f", "MOD(a, 3)", "SUBSTRING(s, 1, 1)", "CAST(ts AS DATE)", "a > 0"]
        return [f"{k}" for k in self.r.sample(opts, self.r.randint(0, 2))]

    def q_agg(self):
        x = self.exprs(T_COLS)
        src = self.source()
        keys = self.group_keys(x)
        aggs = [f"{self.agg(x)} AS a{i}" for i in range(self.r.randint(1, 4))]
        having = [f"COUNT(*) > {self.r.randint(0, 2)}"] if self.r.random() < 0.25 else []
        parts = {"keys": keys, "aggs": aggs, "where": self.conjuncts(x, 1), "having": having}
        grouping = None
        if self.on["grouping_sets"] and len(keys) == 2 and self.r.random() < 0.4:
            grouping = self.r.choice(["ROLLUP", "CUBE", "GROUPING SETS"])
            parts["aggs"].append(f"GROUPING({keys[0]}) AS gr")
            if grouping == "GROUPING SETS":
                sets = self.r.choice(["({0}, {1}), ({0}), ()", "({0}), ({1})", "({0}, {1}), ({1})"])
            # the keys list is fixed from here on (the grouping sets name both)
            parts = dict(parts, keys=[])

        pre, compare = (), "changelog"
        if self.on["agg_options"] and not self.batch and not grouping and self.r.random() < 0.3:
            # Flink's distinct-aggregate split (a partial and a final GroupAggregate per bucket) and
            # mini-batch (bundles; with agg-phase-strategy TWO_PHASE a local and a global aggregate):
            # other intermediate updates, the same final table.
            opt = self.r.choice(["split", "mini_batch", "both"])
            compare = "final"
            if opt in ("split", "both"):
                pre += ("SET 'table.optimizer.distinct-agg.split.enabled' = 'true';",)
                if not any("DISTINCT" in a for a in parts["aggs"]):
                    parts["aggs"].append(f"COUNT(DISTINCT {self.r.choice(['a', 's', 'm', 'g'])}) AS dn")
            if opt in ("mini_batch", "both"):
                pre += ("SET 'table.exec.mini-batch.enabled' = 'true';",
                        f"SET 'table.exec.mini-batch.allow-latency' = '{self.r.choice(['1 s', '5 s', '100 ms'])}';",
                        f"SET 'table.exec.mini-batch.size' = '{self.r.randint(1, 20)}';")
                strategy = self.r.choice(["TWO_PHASE", "ONE_PHASE", "AUTO", None])
                if strategy:
                    pre += (f"SET 'table.optimizer.agg-phase-strategy' = '{strategy}';",)
                if opt == "both" and strategy != "ONE_PHASE":
                    # Flink's IncrementalGroupAggregate, which Sluice does not plan
                    # (flink_differences.md#mini-batch-bundles; random query 2020-61).
                    self.known["explain"] = "flink_differences.md#mini-batch-bundles"

        def render(p):
            if grouping:
                keys_sel = "".join(f"{k} AS k{i}, " for i, k in enumerate(keys))
                spec = ", ".join(keys) if grouping != "GROUPING SETS" else sets.format(*keys)
                return (f"SELECT {keys_sel}{', '.join(p['aggs'])}\nFROM {src}" + where_sql(p["where"])
                        + f"\nGROUP BY {grouping} ({spec})" + where_sql(p["having"], "HAVING"))
            keys_sel = "".join(f"{k} AS k{i}, " for i, k in enumerate(p["keys"]))
            group = f"\nGROUP BY {', '.join(p['keys'])}" if p["keys"] else ""
            return (f"SELECT {keys_sel}{', '.join(p['aggs'])}\nFROM {src}" + where_sql(p["where"]) + group
                    + where_sql(p["having"], "HAVING"))
        return Query("agg", parts, {"aggs": 1}, render, compare=compare, pre=pre)

    def join_env(self):
        env = {f"t.{c}": ty for c, ty in T_COLS.items()}
        env.update({f"u.{c}": ty for c, ty in U_COLS.items()})
        return self.exprs(env)

    def q_join(self):
        x = self.join_env()
        jt = self.r.choice(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"])
        key = self.r.choice([["t.k = u.k"], ["t.g = u.g"], ["t.k = u.k", "t.g = u.g"]])
        on = key + ([x.expr("BOOL", 1)] if self.r.random() < 0.3 else [])
        src = self.source().replace(" AS t0", " AS t") if self.r.random() < 0.3 else "t"
        parts = {"items": self.items(x, 1, 4), "on": on, "where": self.conjuncts(x, 1)}
        if jt != "JOIN" and parts["where"]:
            # A WHERE condition that rejects the NULLs of a padded side turns Flink's outer join into
            # an inner (or one-sided) one; Sluice keeps the outer join (plans differ, rows agree).
            self.known["explain"] = "flink_differences.md#outer-joins-narrowed-by-a-where-condition"
        return Query("join", parts, {"items": 1, "on": 1},
                     lambda p: f"SELECT {', '.join(p['items'])}\nFROM {src} {jt} u ON {' AND '.join(p['on'])}"
                     + where_sql(p["where"]), compare="final", tables=("t", "u"))

    def q_interval_join(self):
        x = self.join_env()
        lo, hi = self.r.randint(0, 20), self.r.randint(0, 20)
        jt = self.r.choice(["JOIN", "JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"])
        key = self.r.choice(["t.k = u.k", "t.g = u.g"])
        bound = self.r.choice([f"u.ts BETWEEN t.ts - INTERVAL '{lo}' SECOND AND t.ts + INTERVAL '{hi}' SECOND",
                               f"u.ts >= t.ts AND u.ts < t.ts + INTERVAL '{hi + 1}' SECOND"])
        items = self.items(x, 1, 3)
        parts = {"items": items, "where": self.conjuncts(x, 1) if jt == "JOIN" else []}
        return Query("interval_join", parts, {"items": 1},
                     lambda p: f"SELECT {', '.join(p['items'])}\nFROM t {jt} u ON {key} AND {bound}"
                     + where_sql(p["where"]), compare="final", tables=("t", "u"))

    def q_window(self):
        r = self.r
        x = self.exprs(T_COLS)
        tvf = r.choice(["TUMBLE", "HOP", "CUMULATE", "SESSION"])
        if tvf == "TUMBLE":
            call = f"TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '{r.choice([5, 10, 30, 60])}' SECOND)"
        elif tvf == "HOP":
            slide = r.choice([5, 10, 15])
            call = f"HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '{slide}' SECOND, INTERVAL '{slide * r.randint(2, 4)}' SECOND)"
        elif tvf == "CUMULATE":
            step = r.choice([5, 10])
            call = f"CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '{step}' SECOND, INTERVAL '{step * r.randint(2, 4)}' SECOND)"
        else:
            part = r.choice(["", " PARTITION BY k"])
            call = f"SESSION(TABLE t{part}, DESCRIPTOR(ts), INTERVAL '{r.choice([3, 5, 10])}' SECOND)"
        keys = ["k"] if "PARTITION BY k" in call else r.sample(["k", "g", "f"], r.randint(0, 1))
        # SUM(DISTINCT) in a HOP or CUMULATE window: Flink 2.2.1 fails at planning with an internal
        # error ("This function does not support retraction"); Sluice answers (flink_differences.md).
        distinct_ok = tvf not in ("HOP", "CUMULATE")
        aggs = []
        while len(aggs) < r.randint(1, 3):
            a = self.agg(x)
            if not distinct_ok and "SUM(DISTINCT" in a:
                continue
            # A DOUBLE SUM/AVG in a sliced (HOP, CUMULATE) window: Flink adds per slice, then the
            # slices; the last digit can differ (flink_differences.md#double-sums-in-hop-and-cumulate-windows).
            if not distinct_ok and re.match(r"(SUM|AVG)\(", a) and re.search(r"\bx\b|E0|DOUBLE", a):
                continue
            aggs.append(a)
        aggs = [f"{a} AS a{i}" for i, a in enumerate(aggs)]
        parts = {"aggs": aggs, "where": self.conjuncts(x, 1)}
        group = ", ".join(["window_start", "window_end"] + keys)
        sel = ", ".join(["window_start", "window_end"] + keys)
        if self.on["window_grouping_sets"] and tvf != "SESSION" and not self.data.changelog and r.random() < 0.25:
            # GROUPING SETS / ROLLUP / CUBE of two keys in a window aggregation, with GROUPING().
            keys = r.sample(["k", "g", "f"], 2)
            spec = r.choice(["ROLLUP ({0}, {1})", "CUBE ({0}, {1})", "GROUPING SETS (({0}, {1}), ({0}), ())",
                             "GROUPING SETS (({0}), ({1}))"]).format(*keys)
            group = f"window_start, window_end, {spec}"
            # No aggregate over the rowtime: Flink 2.2.1's ExpandWindowTableFunctionTransposeRule fails
            # on an argument that keeps it a time attribute (`MAX(FLOOR(ts TO HOUR))`: "Type mismatch",
            # random query 2015-276; flink_differences.md#flinks-planning-failures).
            parts["aggs"] = [a if not re.search(r"\bts\b", a) else f"COUNT(*) AS a{i}"
                             for i, a in enumerate(parts["aggs"])]
            sel = ", ".join(["window_start", "window_end"] + keys + [f"GROUPING({keys[0]}) AS gr"])
        return Query("window", parts, {"aggs": 1},
                     lambda p: f"SELECT {sel}, {', '.join(p['aggs'])}\nFROM TABLE({call})"
                     + where_sql(p["where"]) + f"\nGROUP BY {group}", compare="final",
                     known={"explain": "flink_differences.md#two-phase-window-aggregation"})

    def q_dedup(self):
        x = self.exprs(T_COLS)
        key = self.r.choice(["k", "g", "k, g", "f"])
        order = self.r.choice(["ASC", "DESC"])
        parts = {"items": self.items(x, 1, 3)}
        # Keep-first-row on event time over an insert-only input: Flink's insert-only deduplication
        # emits each key's row when the watermark passes it, keys of one time in its timer order
        # (random query 2005-195): compared as folded tables. Over a changelog input (ts no time
        # attribute) and for keep-last-row, rows leave as they arrive.
        rowtime_first = order == "ASC" and not self.data.changelog
        known = {"explain": "flink_differences.md#deduplicate-in-the-physical-plan"}
        if self.data.cdc_duplicates:
            # Over the normalized changelog: a Rank over an updating input (random query 2032-22).
            known["changelog"] = "flink_differences.md#top-n-over-an-updating-input"
        return Query("dedup", parts, {"items": 1},
                     lambda p: f"SELECT id, {', '.join(p['items'])} FROM (\n  SELECT *, ROW_NUMBER() OVER "
                     f"(PARTITION BY {key} ORDER BY ts {order}) AS rn FROM t\n) WHERE rn = 1",
                     compare="final" if rowtime_first else "changelog",
                     known=known)

    def q_topn(self):
        r = self.r
        x = self.exprs(T_COLS)
        n = r.randint(1, 3)
        part = r.choice(["PARTITION BY k ", "PARTITION BY g ", ""])
        updating = r.random() < 0.3
        if updating:
            # Top-N over a group aggregate: an updating input.
            inner = ("SELECT k, g, SUM(a) AS total, COUNT(*) AS cnt FROM t GROUP BY k, g")
            order = f"{r.choice(['total', 'cnt'])} {r.choice(['ASC', 'DESC'])}, k, g"
            items = ["k", "g", "total", "cnt"]
        else:
            inner = f"SELECT * FROM {self.source()}"
            order = f"{r.choice(['a', 'm', 'ts', 's', 'b'])} {r.choice(['ASC', 'DESC'])}, id"
            items = ["id"] + self.items(x, 0, 2)
            updating = "explain" in self.known
        if updating:
            # Flink's retracting/updating Top-N emits another (shorter) changelog than Sluice's for an
            # updating input; the folded tables must still agree.
            self.known["changelog"] = "flink_differences.md#top-n-over-an-updating-input"
        else:
            # Top-1 over an insert-only input: Flink drops the constant row number and emits an
            # upsert stream without -U rows (flink_differences.md#top-1-without-the-row-number).
            n = max(n, 2)
        parts = {"items": items}
        cond = f"rn <= {n}"
        if self.on["topn_ranges"] and updating and r.random() < 0.5:
            # Over an updating input only ranges from 1: Flink 2.2.1's retracting Rank with a range from 2
            # ends with two rows of one rank and a row retracted it never emitted (random query 2025-90,
            # flink_differences.md#top-n-over-an-updating-input).
            cond = r.choice([f"rn < {n + 1}", f"{n} >= rn", f"rn <= {n} AND rn <= {n + 1}"])
        elif self.on["topn_ranges"] and r.random() < 0.5:
            # Rank ranges: an upper bound written otherwise, a lower bound above 1, a contradictory range
            # (Flink proves it empty: an empty Values, flink_differences.md#always-false-conditions).
            cond = r.choice([f"rn < {n + 1}", f"rn = {n}", f"rn BETWEEN 2 AND {n + 1}", f"rn > 1 AND rn <= {n + 1}",
                             f"rn >= {n} AND rn < {n + 2}", f"{n} >= rn", f"rn > {n + 1} AND rn < {n}",
                             f"rn <= {n} AND rn <= {n + 1}"])
        fn = "ROW_NUMBER"
        if self.batch and r.random() < 0.5:
            # RANK / DENSE_RANK only in batch mode (Flink's streaming Rank refuses them:
            # flink_differences.md#rank-and-dense-rank-in-streaming).
            fn = r.choice(["RANK", "DENSE_RANK"])
        if self.batch:
            self.known["explain"] = "flink_differences.md#batch-top-n-plans"
        return Query("topn", parts, {"items": 1},
                     lambda p: f"SELECT {', '.join(p['items'])}, rn FROM (\n  SELECT *, {fn}() OVER "
                     f"({part}ORDER BY {order}) AS rn FROM ({inner})\n) WHERE {cond}")

    def q_sort_limit(self):
        """ORDER BY with LIMIT [OFFSET] (streaming: a Rank; batch: a SortLimit), an ascending rowtime
        ORDER BY alone (streaming: a TemporalSort), any ORDER BY alone (streaming with Flink 2.2's
        internal '__table.exec.sort.non-temporal.enabled__'; batch: a Sort)."""
        r = self.r
        x = self.exprs(T_COLS)
        col = r.choice(["a", "m", "s", "b", "ts", "g", "x"])
        order = f"{col} {r.choice(['ASC', 'DESC'])}" + ("" if col == "ts" and r.random() < 0.3 else ", id")
        variant = r.choice(["limit", "limit", "offset", "alone"])
        n = r.randint(2, 5)
        pre = ()
        tail = {"limit": f"\nLIMIT {n}", "offset": f"\nLIMIT {n} OFFSET {r.randint(1, 3)}", "alone": ""}[variant]
        if variant == "alone" and not self.batch and not order.startswith("ts ASC"):
            pre = ("SET '__table.exec.sort.non-temporal.enabled__' = 'true';",)
        parts = {"items": self.items(x, 0, 2), "where": self.conjuncts(x, 1)}
        # Streaming: rows in the engines' emission order (a Rank's updates, a sort at the end); batch:
        # the sorted rows in order. An ORDER BY without id has ties: folded tables.
        total = order.endswith(", id")
        compare = "changelog" if total else "final"
        if not self.batch and variant != "alone" and col == "ts":
            compare = "final"
        return Query("sort_limit", parts, {}, lambda p: f"SELECT {', '.join(['id', col] + p['items'])}\nFROM t"
                     + where_sql(p["where"]) + f"\nORDER BY {order}{tail}", compare=compare, pre=pre,
                     ordered=total)

    def q_over(self):
        r = self.r
        x = self.exprs(T_COLS)
        part = r.choice(["PARTITION BY k ", "PARTITION BY g ", ""])
        frames = [f"ROWS BETWEEN {r.randint(1, 3)} PRECEDING AND CURRENT ROW",
                  f"RANGE BETWEEN INTERVAL '{r.choice([5, 10, 30])}' SECOND PRECEDING AND CURRENT ROW",
                  "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"]
        unbounded = ["RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", ""]  # "": the default frame
        frame = r.choice(frames + (unbounded if self.on["over_more"] else []))
        if self.batch and frame.startswith("RANGE BETWEEN INTERVAL"):
            # Flink 2.2.1's batch OverAggregate fails at run time on a RANGE frame of an INTERVAL over a
            # TIMESTAMP ("Cannot cast TimestampData to Long"; random query 2021-90;
            # flink_differences.md#flinks-planning-failures).
            frame = "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
        order = "ts"
        if self.on["over_more"] and r.random() < 0.3:
            # Flink 2.2's non-time OVER: ordered by a column that is no time attribute, unbounded, ascending;
            # an updating result (a row sorting before emitted ones updates theirs), compared line by line.
            order = r.choice(["a", "b", "m", "s", "id", "g, a"])
            frame = r.choice(["ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"] + unbounded)
        if self.batch and frame.startswith("ROWS"):
            # Rows of one order key (a ROWS frame's ties) come in the order of each engine's batch sort
            # (random query 2024-61), and Sluice's OVER takes one ORDER BY column, in batch mode too
            # (2025-16; flink_differences.md#batch-plans): RANGE frames, whose ties are peers.
            frame = "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
        w = f"OVER ({part}ORDER BY {order}{' ' + frame if frame else ''})"
        window_clause = ""
        if self.on["named_window"] and r.random() < 0.3:
            # The named WINDOW clause (the frame in the definition: flink_differences.md#a-frame-added-to-a-named-window).
            window_clause = f"\nWINDOW w AS {w[5:]}"
            w = "OVER w"
        # No FILTER: Flink 2.2.1 refuses `agg FILTER (WHERE ...) OVER (...)` (random query 2011-98;
        # flink_differences.md#filter-in-an-over-aggregate).
        more = ['MIN(a)', 'MAX(s)', 'SUM(b)', 'COUNT(DISTINCT k)', 'AVG(m)', 'MAX(ts)'] \
            if self.on["more_functions"] else []
        if order != "ts":
            # COUNT(DISTINCT) in a non-time OVER: Flink 2.2.1's job fails ("Row arity: 9, but serializer
            # arity: 8"; random query 2021-3, flink_differences.md#flinks-planning-failures).
            more = [m for m in more if "DISTINCT" not in m]
        if self.batch:
            # Flink's batch OverAggregate refuses DISTINCT (random query 2021-32, Sluice too); over an input
            # Flink proves empty it fails otherwise (2022-91): left out of batch queries.
            more = [m for m in more if "DISTINCT" not in m]
        aggs = [f"{r.choice(['SUM(a)', 'COUNT(*)', 'MAX(m)', 'MIN(s)', 'COUNT(k)', 'AVG(a)', 'SUM(m)'] + more)} {w} AS o{i}"
                for i in range(r.randint(1, 3))]
        parts = {"items": self.items(x, 0, 2), "aggs": aggs, "where": self.conjuncts(x, 1)}
        if order == "ts" and frame.startswith("RANGE BETWEEN INTERVAL") and not self.data.in_time:
            # Flink accepts a late row of a RANGE frame by its partition's last processed time, Sluice
            # by the watermark (flink_differences.md#late-rows-of-a-range-over-window).
            self.known["rows"] = "flink_differences.md#late-rows-of-a-range-over-window"
        return Query("over", parts, {"aggs": 1},
                     lambda p: f"SELECT {', '.join(['id', 'ts'] + p['items'] + p['aggs'])}\nFROM t"
                     + where_sql(p["where"]) + window_clause, compare="final" if order == "ts" else "changelog")


    def tvf(self, table="t", session=False):
        """A TUMBLE, HOP or CUMULATE call over `table` (or SESSION, with `session`)."""
        r = self.r
        tvf = r.choice(["TUMBLE", "HOP", "CUMULATE"] + (["SESSION"] if session else []))
        if tvf == "SESSION":
            part = r.choice(["", " PARTITION BY k"])
            return f"SESSION(TABLE {table}{part}, DESCRIPTOR(ts), INTERVAL '{r.choice([3, 5, 10])}' SECOND)"
        if tvf == "TUMBLE":
            return f"TUMBLE(TABLE {table}, DESCRIPTOR(ts), INTERVAL '{r.choice([5, 10, 30])}' SECOND)"
        step = r.choice([5, 10])
        return f"{tvf}(TABLE {table}, DESCRIPTOR(ts), INTERVAL '{step}' SECOND, INTERVAL '{step * r.randint(2, 3)}' SECOND)"

    def q_set_ops_updating(self, op):
        """A set operation of two group aggregates (updating inputs), or of an aggregate and a plain query."""
        r = self.r
        key = r.choice(["k", "g"])
        agg_l = r.choice(["COUNT(*)", "SUM(a)", "MAX(m)", "MIN(g)"])
        agg_r = r.choice(["COUNT(*)", "SUM(y)", "MAX(n)", "MIN(g)"])
        right_plain = r.random() < 0.3
        plain = r.choice(["y", "n", "g", "CAST(uid AS BIGINT)"])
        xt, xu = self.exprs(T_COLS), self.exprs(U_COLS)
        parts = {"lwhere": self.conjuncts(xt, 1), "rwhere": self.conjuncts(xu, 1)}
        self.known["explain"] = "flink_differences.md#intersect-and-except-plans"
        self.known["changelog"] = "flink_differences.md#intersect-and-except-plans"

        def render(p):
            left = f"SELECT {key}, {agg_l} AS v FROM t" + where_sql(p["lwhere"]) + f" GROUP BY {key}"
            right = (f"SELECT {key}, {plain} FROM u" + where_sql(p["rwhere"])) if right_plain else \
                (f"SELECT {key}, {agg_r} AS v FROM u" + where_sql(p["rwhere"]) + f" GROUP BY {key}")
            return f"{left}\n{op}\n{right}"
        return Query("set_ops", parts, {}, render, compare="final", tables=("t", "u"))

    def q_set_ops(self):
        r = self.r
        op = r.choice(["UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"])
        if self.on["set_ops_updating"] and r.random() < 0.3:
            return self.q_set_ops_updating(op)
        lcols, rcols = r.choice([("k", "k"), ("g", "g"), ("k, g", "k, g"), ("a", "y"), ("k, a", "k, y"),
                                 ("m", "CAST(n AS DECIMAL(10, 2))"), ("s", "k"), ("g, f", "g, y > 0")]
                                + ([("m", "n"), ("a", "n"), ("b", "n"), ("k, m", "k, y"), ("x", "n")]
                                   if self.on["set_ops_updating"] else []))
        xt = self.exprs(T_COLS)
        src = self.source()
        twice = r.random() < 0.3
        right, rcols, xr = ("t", lcols, xt) if twice else ("u", rcols, self.exprs(U_COLS))
        if op in ("INTERSECT", "EXCEPT"):
            self.known["explain"] = "flink_differences.md#intersect-and-except-plans"
        if twice:
            self.known["explain"] = "flink_differences.md#source-reuse-in-the-physical-plan"
        parts = {"lwhere": self.conjuncts(xt, 1), "rwhere": self.conjuncts(xr, 1), "third": []}
        tables = ("t",) if twice else ("t", "u")
        if self.on["set_ops_nested"] and r.random() < 0.3:
            # A third query: INTERSECT binds tighter than UNION and EXCEPT; or parenthesised.
            op2 = r.choice(["UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"])
            third = r.choice([("t", lcols, xt), ("u", rcols, xr)] if not twice else [("t", lcols, xt)])
            paren = r.random() < 0.3
            parts["third"] = [(op2, third[0], third[1], paren)]
            parts["twhere"] = self.conjuncts(third[2], 1)
            if op2.split()[0] in ("INTERSECT", "EXCEPT"):
                self.known["explain"] = "flink_differences.md#intersect-and-except-plans"
            if third[0] == "t" or twice or third[0] == right:
                # t (or u) read twice: Sluice's plan reuses its scan (random queries 2016-80, 2029-25).
                self.known["explain"] = "flink_differences.md#source-reuse-in-the-physical-plan"
            if op2 == op and op.startswith("UNION"):
                # One n-ary Union in Sluice's plan, nested binary ones in Flink's (random query 2014-78).
                self.known["explain"] = "flink_differences.md#a-chain-of-unions"

        def render(p):
            left = f"SELECT {lcols} FROM {src}" + where_sql(p["lwhere"])
            right_q = f"SELECT {rcols} FROM {right}" + where_sql(p["rwhere"])
            if not p["third"]:
                return f"{left}\n{op}\n{right_q}"
            op2, table, cols, paren = p["third"][0]
            third_q = f"SELECT {cols} FROM {table}" + where_sql(p.get("twhere", []))
            if paren:
                return f"{left}\n{op}\n({right_q}\n{op2}\n{third_q})"
            return f"{left}\n{op}\n{right_q}\n{op2}\n{third_q}"
        return Query("set_ops", parts, {}, render, compare="final", tables=tables)

    def q_subquery(self):
        r = self.r
        xt = self.exprs(T_COLS)
        xu = self.exprs({f"u.{c}": ty for c, ty in U_COLS.items()})
        src = self.source().replace(" AS t0", " AS t")
        form = r.choice(["k IN (SELECT u.k FROM u{w})", "g NOT IN (SELECT u.g FROM u{w})",
                         "a IN (SELECT u.y FROM u{w})", "k NOT IN (SELECT u.k FROM u{w})",
                         "EXISTS (SELECT 1 FROM u WHERE u.k = t.k{aw})",
                         "NOT EXISTS (SELECT 1 FROM u WHERE u.g = t.g{aw})",
                         "EXISTS (SELECT 1 FROM u WHERE u.k = t.k AND u.y < t.a{aw})",
                         "a > (SELECT MAX(u.y) FROM u{w})"]
                        + (["(f OR g IN (SELECT u.g FROM u{w}))"] if self.on["subquery_disjunct"] else [])
                        + (["(k, g) IN (SELECT u.k, u.g FROM u{w})", "(k, g) NOT IN (SELECT u.k, u.g FROM u{w})",
                            "a > (SELECT MIN(u.y) FROM u WHERE u.k = t.k{aw})",
                            "0 = (SELECT COUNT(*) FROM u WHERE u.g = t.g{aw})",
                            "k IN (SELECT u.k FROM u{w} GROUP BY u.k HAVING COUNT(*) > 1)",
                            "EXISTS (SELECT 1 FROM u WHERE u.y < t.a{aw})"] if self.on["subquery_more"] else [])
                        + (["(a - 2) NOT IN (SELECT u.y - 1 FROM u{w})", "s NOT IN (SELECT u.k FROM u{w})",
                            "NULLIF(g, 1) IN (SELECT NULLIF(u.g, 2) FROM u{w})",
                            "NOT EXISTS (SELECT 1 FROM u WHERE u.y = t.a{aw})",
                            "a NOT IN (SELECT u.y FROM u WHERE u.k = t.k{aw})",
                            "m > (SELECT AVG(u.n) FROM u WHERE u.g = t.g{aw})",
                            "a = (SELECT MAX(u.y) FROM u WHERE u.k = t.k{aw})",
                            "(a, g) NOT IN (SELECT u.y, u.g FROM u{w})"] if self.on["subquery_nulls"] else []))
        # A scalar subquery in the SELECT list too, correlated or not (IN, NOT IN and EXISTS there only with
        # subquery_disjunct: Flink plans them as under OR, random query 2014-13).
        sel = [r.choice(["(SELECT MAX(u.y) FROM u{w}) AS sq", "(SELECT COUNT(*) FROM u WHERE u.k = t.k{aw}) AS sq",
                         "(SELECT SUM(u.n) FROM u WHERE u.g = t.g{aw}) AS sq"]
                        + (["k IN (SELECT u.k FROM u{w}) AS sq", "EXISTS (SELECT 1 FROM u WHERE u.g = t.g{aw}) AS sq",
                            "g NOT IN (SELECT u.g FROM u{w}) AS sq"] if self.on["subquery_disjunct"] else []))] \
            if self.on["subquery_more"] and r.random() < 0.35 else []
        if sel:
            # u read twice: Sluice's plan reuses its scan (random query 2014-89).
            self.known["explain"] = "flink_differences.md#source-reuse-in-the-physical-plan"
        parts = {"items": self.items(xt, 0, 2), "inner": self.conjuncts(xu, 1), "where": self.conjuncts(xt, 1),
                 "sel": sel}

        def render(p):
            w = where_sql(p["inner"]).replace("\n", " ")
            aw = "".join(f" AND {c}" for c in p["inner"])
            sub = form.format(w=w, aw=aw)
            items = ['id'] + p['items'] + [x.format(w=w, aw=aw) for x in p["sel"]]
            return (f"SELECT {', '.join(items)}\nFROM {src}\nWHERE {sub}"
                    + "".join(f" AND {c}" for c in p["where"]))
        return Query("subquery", parts, {}, render, compare="final", tables=("t", "u"))

    def q_temporal_join(self):
        env = {f"t.{c}": ty for c, ty in T_COLS.items()}
        env.update({f"v.{c}": ty for c, ty in U_COLS.items()})
        x = self.exprs(env)
        jt = self.r.choice(["JOIN", "LEFT JOIN"])
        # An extra ON condition over a column: Flink 2.2.1 folds a constant one it proves false (`11 NOT
        # IN (11, 20)`) with the whole condition and refuses the join ("Currently the join key in
        # Temporal Table Join can not be empty."; random query 2022-89,
        # flink_differences.md#flinks-planning-failures).
        on = ["t.k = v.k"] + (self.conjuncts(x, 1)[:1] if self.r.random() < 0.3 else [])
        parts = {"items": ["v.uid", "v.y"] + self.items(x, 0, 2), "on": on, "where": self.conjuncts(x, 1)}
        tables, pre = ("t", "v"), ()
        if self.on["versioned_view"] and self.r.random() < 0.4:
            # v as a versioned view: the keep-last-row deduplication of the append-only u by k (its
            # rowtime kept), in place of the debezium-json table.
            tables = ("t", "u")
            # Rows of u with a NULL k left out: Flink 2.2.1's temporal join matches a NULL key of t to the
            # version of the NULL key (random queries 2014-31, 2014-76;
            # flink_differences.md#a-temporal-join-matching-null-keys).
            pre = ("CREATE TEMPORARY VIEW v AS SELECT uid, k, g, y, n, ts FROM (\n  SELECT *, ROW_NUMBER() OVER "
                   "(PARTITION BY k ORDER BY ts DESC) AS rn FROM u WHERE k IS NOT NULL\n) WHERE rn = 1;",)
        return Query("temporal_join", parts, {"items": 1, "on": 1},
                     lambda p: f"SELECT t.id, {', '.join(p['items'])}\nFROM t {jt} v FOR SYSTEM_TIME AS OF t.ts "
                     f"ON {' AND '.join(p['on'])}" + where_sql(p["where"]), compare="final",
                     tables=tables, pre=pre,
                     known={"explain": "flink_differences.md#watermark-assigner-over-a-changelog"})

    def mr_condition(self, v, pattern_vars):
        r = self.r
        others = [o for o in pattern_vars if o != v]
        opts = [f"{v}.a > {r.randint(-20, 20)}", f"{v}.a < {r.randint(-20, 20)}", f"{v}.f", f"NOT {v}.f",
                f"{v}.m > {r.randint(-99, 999)}.00", f"{v}.s LIKE 'a%'", f"{v}.g = {r.randint(0, 3)}",
                f"{v}.a IS NULL", f"{v}.id > {r.randint(1, 20)}", f"{v}.a > LAST({v}.a, 1)",
                f"{v}.b < {r.randint(-10**6, 10**10)}"]
        if others:
            o = r.choice(others)
            opts += [f"{v}.a > {o}.a", f"{v}.m < {o}.m"]
        c = r.choice(opts)
        if r.random() < 0.3:
            c = f"({c} OR {r.choice(opts)})"
        return c

    def q_match_recognize(self):
        r = self.r
        pattern = r.choice(["A B+ C", "A B* C", "A B? C", "A B{1,3} C", "A B C", "A+ B", "A B+? C",
                            "A B{2} C", "A B", "A B+"])
        names = sorted(set(re.findall(r"[A-C]", pattern)))
        defines = [f"{v} AS {self.mr_condition(v, names)}" for v in names if v != "A" or r.random() < 0.5]
        aggs = ["FIRST({v}.id)", "LAST({v}.id)", "SUM({v}.a)", "COUNT({v}.id)", "MAX({v}.m)", "MIN({v}.s)",
                "AVG({v}.a)", "{v}.a", "LAST({v}.ts)", "FIRST({v}.ts)", "COUNT(*)"]
        measures = [f"{r.choice(aggs).format(v=r.choice(names))} AS m{i}" for i in range(r.randint(1, 3))]
        skip = r.choice(["SKIP PAST LAST ROW", "SKIP TO NEXT ROW", f"SKIP TO LAST {names[-1]}",
                         f"SKIP TO FIRST {names[-1]}"])
        part = r.choice(["PARTITION BY k\n  ", "PARTITION BY g\n  ", ""])
        within = f"\n  WITHIN INTERVAL '{r.choice([5, 10, 30])}' SECOND" if r.random() < 0.3 else ""
        parts = {"measures": measures, "defines": defines}
        return Query("match_recognize", parts, {"measures": 1, "defines": 1},
                     lambda p: f"SELECT * FROM t MATCH_RECOGNIZE (\n  {part}ORDER BY ts\n  MEASURES "
                     f"{', '.join(p['measures'])}\n  ONE ROW PER MATCH\n  AFTER MATCH {skip}\n  PATTERN ({pattern})"
                     f"{within}\n  DEFINE {', '.join(p['defines'])}\n) AS mr", compare="final")

    def q_window_join(self):
        return self.q_window_more("join")

    def q_window_more(self, variant=None):
        r = self.r
        x = self.exprs(T_COLS)
        variant = variant or r.choice(["topn", "dedup", "agg_topn"])
        call = self.tvf(session=variant != "join" and self.on["window_session_rank"] and r.random() < 0.3)
        if call.startswith("SESSION"):
            self.known["explain"] = "flink_differences.md#exchange-below-a-session-window-tvf"
        if variant == "join":  # window_join
            ucall = call.replace("TABLE t,", "TABLE u,")
            jt = r.choice(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"])
            key = r.choice(["L.k = R.k", "L.g = R.g"])
            env = {f"L.{c}": ty for c, ty in T_COLS.items() if c != "ts"}
            env.update({f"R.{c}": ty for c, ty in U_COLS.items() if c != "ts"})
            xj = self.exprs(env)
            parts = {"items": ["L.window_start", "L.window_end", "R.window_start AS rws", "L.id", "R.uid"]
                     + self.items(xj, 0, 2)}
            return Query("window_join", parts, {"items": 1},
                         lambda p: f"SELECT {', '.join(p['items'])}\nFROM (SELECT * FROM TABLE({call})) L {jt} "
                         f"(SELECT * FROM TABLE({ucall})) R\nON L.window_start = R.window_start AND "
                         f"L.window_end = R.window_end AND {key}", compare="final", tables=("t", "u"))
        part = r.choice(["", ", k", ", g"])
        if variant == "agg_topn":
            self.known["explain"] = "flink_differences.md#two-phase-window-aggregation"
            inner = (f"SELECT window_start, window_end, k, COUNT(*) AS cnt, SUM(a) AS total FROM TABLE({call}) "
                     f"GROUP BY window_start, window_end, k")
            order, n, items = f"{r.choice(['cnt', 'total'])} {r.choice(['ASC', 'DESC'])}, k", r.randint(1, 3), \
                ["window_start", "window_end", "k", "cnt", "total"]
            part = part.replace(", g", "")
        else:
            inner = f"SELECT * FROM TABLE({call})"
            if variant == "dedup":
                order, n = f"ts {r.choice(['ASC', 'DESC'])}", 1
            else:
                order, n = f"{r.choice(['a', 'm', 's', 'b'])} {r.choice(['ASC', 'DESC'])}, id", r.randint(1, 3)
                if "PARTITION BY k" in call:
                    # Flink prunes an unused session partition key below the Top-N, which loses the
                    # window: a regular Rank, Top-1 an upsert stream (random query 2014-15;
                    # flink_differences.md#window-top-n-over-a-session-tvf-without-its-partition-key).
                    n = max(n, 2)
            items = ["window_start", "window_end", "id"] + self.items(x, 0, 2)
        parts = {"items": items, "where": self.conjuncts(x, 1) if variant != "agg_topn" else []}
        return Query("window_more", parts, {"items": 1},
                     lambda p: f"SELECT {', '.join(p['items'])} FROM (\n  SELECT *, ROW_NUMBER() OVER (PARTITION BY "
                     f"window_start, window_end{part} ORDER BY {order}) AS rn\n  FROM ({inner}"
                     + where_sql(p["where"]).replace("\n", " ") + f")\n) WHERE rn <= {n}", compare="final")

    def q_batch_rank(self):
        r = self.r
        x = self.exprs(T_COLS)
        fn = r.choice(["ROW_NUMBER", "RANK", "DENSE_RANK"])
        part = r.choice(["PARTITION BY k ", "PARTITION BY g ", ""])
        order = f"{r.choice(['a', 'm', 'g', 's', 'f'])} {r.choice(['ASC', 'DESC'])}" + (", id" if fn == "ROW_NUMBER" else "")
        n = r.randint(1, 4)
        cond = r.choice([f"rn <= {n}", f"rn = {n}", f"rn BETWEEN 2 AND {n + 1}", f"rn < {n + 1}"])
        parts = {"items": ["id"] + self.items(x, 0, 2), "where": self.conjuncts(x, 1)}
        # Flink's batch plan: a local and a global sort-based Rank (an OverAggregate for DENSE_RANK), no
        # WatermarkAssigner (flink_differences.md#batch-top-n-plans).
        self.known["explain"] = "flink_differences.md#batch-top-n-plans"
        return Query("batch_rank", parts, {"items": 1},
                     lambda p: f"SET 'execution.runtime-mode' = 'batch';\nSELECT {', '.join(p['items'])}, rn FROM (\n"
                     f"  SELECT *, {fn}() OVER ({part}ORDER BY {order}) AS rn FROM t"
                     + where_sql(p["where"]).replace("\n", " ") + f"\n) WHERE {cond}", compare="final")


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
            cols = T_DDL.replace("id INT", "id INT NOT NULL") + ", PRIMARY KEY (id) NOT ENFORCED"
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
