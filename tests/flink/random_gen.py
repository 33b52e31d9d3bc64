"""The random query generator's data and queries (driven by tests/flink/random_queries.py).

From a seed it makes the input files both engines read (t.json, u.json) and one query over them, kept
as named lists of parts (select items, conjuncts, aggregates, ...) so the minimiser can drop them one by
one. Everything is a pure function of the seed string: random.Random(seed).

The inputs: table t (id, k, g, a, b, x, m, s, f, ts) and table u (uid, k, g, y, n, ts), typed columns
with NULLs, DECIMALs, DOUBLEs, event time with a watermark delay, rows out of order within the delay,
late rows (behind the watermark) and re-sent rows (an earlier row again, same id and values).
Timestamps are whole seconds on purpose: Flink's SQL watermark assigner emits a watermark eagerly when
it advanced by more than 'pipeline.auto-watermark-interval' (200 ms) since the last one, so with
whole-second steps its watermark follows every row, as Sluice's does, and late-row drops are
deterministic on both (sub-second steps would make Flink's drops depend on its 200 ms timer:
docs/flink_differences.md#periodic-watermarks).
"""
import json
import random
import re
from datetime import datetime, timedelta

# Constructs the generator can emit. Off: what main does not support yet (other helpers close these
# gaps; turn them on with --enable NAME once merged). The driver's --enable/--disable flip them.
CONSTRUCTS = {
    "calc": True, "agg": True, "join": True, "interval_join": True, "window": True, "dedup": True,
    "topn": True, "over": True,
    "updating_source": True,       # a keep-last-row dedup of t by id as input: an updating query
    "late_rows": True, "resent_rows": True,
    "double": True,                # DOUBLE columns and functions (printing of approximate values)
    "decimal_common_type": False,  # CASE/COALESCE over DECIMALs of different precision/scale
    "subquery": False,             # IN (SELECT ...) / EXISTS: not supported by Sluice yet
    "set_ops": False,              # UNION / INTERSECT / EXCEPT (distinct): not supported yet
    "rank": False,                 # RANK() / DENSE_RANK() Top-N: not supported yet
    "left_right": False,           # LEFT()/RIGHT() as functions: Sluice's parser refuses them
    "unicode_case": False,         # non-ASCII letters in UPPER/LOWER: Sluice maps ASCII only
                                   # (docs/flink_differences.md#upper-and-lower-of-non-ascii-letters)
}

BASE = datetime(2026, 8, 15, 10, 0, 0)
KEYS = ["a", "b", "c", "d"]
WORDS = ["apple", "Pear", "fig tree", "kiwi", "", "  plum ", "x_y%z", "日本 ✓"]
# With unicode_case: a word whose letters have non-ASCII upper/lower case forms.
CASED_WORD = "Ünïcode"


def fmt_ts(t):
    return t.strftime("%Y-%m-%d %H:%M:%S")


class Data:
    """The two input tables as lists of dicts (json lines), plus their watermark delays."""

    def __init__(self, r, on, in_time):
        self.delay_t = r.choice([0, 2, 5, 30])
        self.delay_u = r.choice([0, 5, 30])
        self.in_time = in_time
        self.words = WORDS + ([CASED_WORD] if on["unicode_case"] else [])
        self.t = self.rows(r, on, r.randint(8, 30), self.t_row, self.delay_t)
        self.u = self.rows(r, on, r.randint(4, 16), self.u_row, self.delay_u)

    @staticmethod
    def maybe(r, v, p=0.15):
        return None if r.random() < p else v

    def t_row(self, r, i, ts):
        m = self.maybe(r, r.randint(-9999, 99999) / 100)
        x = self.maybe(r, r.choice([r.randint(-400, 400) / 8, r.randint(-1000, 1000) / 10, 0.0]))
        return {"id": i, "k": self.maybe(r, r.choice(KEYS)), "g": self.maybe(r, r.randint(0, 3)),
                "a": self.maybe(r, r.randint(-50, 50)), "b": self.maybe(r, r.randint(-10**6, 10**10)),
                "x": x, "m": None if m is None else f"{m:.2f}", "s": self.maybe(r, r.choice(self.words)),
                "f": self.maybe(r, r.choice([True, False])), "ts": ts}

    def u_row(self, r, i, ts):
        n = self.maybe(r, r.randint(-99999, 99999) / 1000)
        return {"uid": 100 + i, "k": self.maybe(r, r.choice(KEYS)), "g": self.maybe(r, r.randint(0, 3)),
                "y": self.maybe(r, r.randint(-20, 20)), "n": None if n is None else f"{n:.3f}", "ts": ts}

    def rows(self, r, on, count, make, delay):
        """Rows `count` with event times mostly rising. Unless in_time: some late (behind the
        watermark) and some re-sent. in_time (the inputs of event-time operators): every row is ahead
        of the watermark the rows before it made (ts > max ts so far - delay). Deliberate: Flink's
        SQL watermarks are periodic (200 ms of processing time), and a file is read long before the
        first one, so Flink drops no late row there while Sluice, whose watermark follows every row,
        drops each one (docs/flink_differences.md#periodic-watermarks); a row late in Sluice gives
        Flink's answer by timing."""
        rows, now, top = [], 0, None
        for i in range(1, count + 1):
            now += r.choice([0, 1, 1, 2, 3, 5, 8])
            sec = now
            roll = r.random()
            if roll < 0.2 and delay:
                sec = now - r.randint(0, delay)          # out of order within the delay
            elif roll < 0.3 and on["late_rows"] and not self.in_time and now > delay:
                sec = now - delay - r.randint(1, 20)     # behind the watermark: late
            if self.in_time and top is not None:
                sec = max(sec, top - delay + 1)
                now = max(now, sec)
            top = sec if top is None else max(top, sec)
            row = make(r, i, fmt_ts(BASE + timedelta(seconds=max(sec, -30))))
            rows.append(row)
            if on["resent_rows"] and not self.in_time and r.random() < 0.1:
                rows.append(dict(r.choice(rows)))        # an earlier row sent again
        return rows

    @staticmethod
    def jsonl(rows):
        out = []
        for row in rows:
            # DECIMALs as JSON numbers written with their scale (1.50, not "1.50").
            parts = []
            for k, v in row.items():
                parts.append(f'"{k}":{v}' if k in ("m", "n") and v is not None else f'"{k}":{json.dumps(v)}')
            out.append("{" + ",".join(parts) + "}")
        return "\n".join(out) + ("\n" if out else "")


T_COLS = {"id": "INT", "k": "STR", "g": "INT", "a": "INT", "b": "BIGINT", "x": "DOUBLE", "m": "DEC",
          "s": "STR", "f": "BOOL", "ts": "TS"}
U_COLS = {"uid": "INT", "k": "STR", "g": "INT", "y": "INT", "n": "DEC", "ts": "TS"}


def ddl(name, cols_sql, delay, file):
    return (f"CREATE TABLE {name} (\n  {cols_sql},\n  WATERMARK FOR ts AS ts - INTERVAL '{delay}' SECOND\n"
            f") WITH ('connector' = 'filesystem', 'path' = '${{CASE_DIR}}/{file}', 'format' = 'json')")


T_DDL = ("id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, "
         "ts TIMESTAMP(3)")
U_DDL = "uid INT, k STRING, g INT, y INT, n DECIMAL(8, 3), ts TIMESTAMP(3)"


class Exprs:
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
            "STR": lambda: "'" + r.choice(["a", "b", "apple", "", "z z", "Pear"]) + "'",
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
                    lambda: f"REVERSE({e('STR', n)})"],
            "BOOL": [lambda: self.compare(n), lambda: self.compare(n),
                     lambda: f"({e('BOOL', n)} AND {e('BOOL', n)})", lambda: f"({e('BOOL', n)} OR {e('BOOL', n)})",
                     lambda: f"(NOT {e('BOOL', n)})", lambda: f"({self.expr(self.any_type(), n)} IS NULL)",
                     lambda: f"({self.expr(self.any_type(), n)} IS NOT NULL)",
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
        if ty == "DOUBLE" and not self.on["double"]:
            return self.leaf("INT")
        choices = prods[ty] + (common if ty not in ("BOOL",) else common[:2])
        return self.r.choice(choices)()

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

    def __init__(self, kind, parts, mins, render, compare="changelog", known=None, tables=("t",)):
        self.kind, self.parts, self.mins, self.render_fn = kind, parts, mins, render
        self.compare, self.known, self.tables = compare, known or {}, tables

    def sql(self):
        return self.render_fn(self.parts)

    def with_parts(self, parts):
        return Query(self.kind, parts, self.mins, self.render_fn, self.compare, self.known, self.tables)


def where_sql(conj, word="WHERE"):
    return f"\n{word} " + " AND ".join(conj) if conj else ""


# The keep-last-row deduplication of t by id: a re-sent row replaces its first copy, so everything
# reading it is an updating query.
UPDATING_T = ("(SELECT id, k, g, a, b, x, m, s, f, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id "
              "ORDER BY ts DESC) AS rn FROM t) WHERE rn = 1)")

AGGS = ["COUNT(*)", "COUNT({any})", "COUNT(DISTINCT {any})", "SUM({num})", "SUM(DISTINCT {int})",
        "MIN({ord})", "MAX({ord})", "AVG({num})", "MIN({str})", "MAX({dec})"]


# The kinds of query and their weights.
KINDS = {"calc": 3, "agg": 4, "join": 2, "interval_join": 2, "window": 3, "dedup": 1, "topn": 2, "over": 2}
# Kinds whose operators drop late rows: their inputs have none (Data.rows).
EVENT_TIME_KINDS = ("interval_join", "window", "over")


class Generator:
    def __init__(self, seed, on):
        self.r = random.Random(seed)
        self.on = on
        kinds = [k for k in KINDS if on[k]]
        self.kind = self.r.choices(kinds, [KINDS[k] for k in kinds])[0]
        self.data = Data(self.r, on, self.kind in EVENT_TIME_KINDS)
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
                if any(c in e for c in x.env):
                    out.append(e)
                    break
        return out

    def source(self):
        if self.on["updating_source"] and self.r.random() < 0.3:
            self.known["explain"] = "flink_differences.md#deduplicate-in-the-physical-plan"
            return UPDATING_T + " AS t0"
        return "t"

    def make(self):
        q = getattr(self, "q_" + self.kind)()
        q.known = dict(self.known, **q.known)
        return q

    def q_calc(self):
        x = self.exprs(T_COLS)
        src = self.source()
        parts = {"items": self.items(x, 1, 4), "where": self.conjuncts(x)}
        return Query("calc", parts, {"items": 1},
                     lambda p: f"SELECT id, {', '.join(p['items'])}\nFROM {src}" + where_sql(p["where"]))

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

        def render(p):
            keys_sel = "".join(f"{k} AS k{i}, " for i, k in enumerate(p["keys"]))
            group = f"\nGROUP BY {', '.join(p['keys'])}" if p["keys"] else ""
            return (f"SELECT {keys_sel}{', '.join(p['aggs'])}\nFROM {src}" + where_sql(p["where"]) + group
                    + where_sql(p["having"], "HAVING"))
        return Query("agg", parts, {"aggs": 1}, render)

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
        return Query("window", parts, {"aggs": 1},
                     lambda p: f"SELECT {sel}, {', '.join(p['aggs'])}\nFROM TABLE({call})"
                     + where_sql(p["where"]) + f"\nGROUP BY {group}", compare="final",
                     known={"explain": "flink_differences.md#two-phase-window-aggregation"})

    def q_dedup(self):
        x = self.exprs(T_COLS)
        key = self.r.choice(["k", "g", "k, g", "f"])
        order = self.r.choice(["ASC", "DESC"])
        parts = {"items": self.items(x, 1, 3)}
        return Query("dedup", parts, {"items": 1},
                     lambda p: f"SELECT id, {', '.join(p['items'])} FROM (\n  SELECT *, ROW_NUMBER() OVER "
                     f"(PARTITION BY {key} ORDER BY ts {order}) AS rn FROM t\n) WHERE rn = 1",
                     known={"explain": "flink_differences.md#deduplicate-in-the-physical-plan"})

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
        return Query("topn", parts, {"items": 1},
                     lambda p: f"SELECT {', '.join(p['items'])}, rn FROM (\n  SELECT *, ROW_NUMBER() OVER "
                     f"({part}ORDER BY {order}) AS rn FROM ({inner})\n) WHERE rn <= {n}")

    def q_over(self):
        r = self.r
        x = self.exprs(T_COLS)
        part = r.choice(["PARTITION BY k ", "PARTITION BY g ", ""])
        frame = r.choice([f"ROWS BETWEEN {r.randint(1, 3)} PRECEDING AND CURRENT ROW",
                          f"RANGE BETWEEN INTERVAL '{r.choice([5, 10, 30])}' SECOND PRECEDING AND CURRENT ROW",
                          "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"])
        w = f"OVER ({part}ORDER BY ts {frame})"
        aggs = [f"{r.choice(['SUM(a)', 'COUNT(*)', 'MAX(m)', 'MIN(s)', 'COUNT(k)', 'AVG(a)', 'SUM(m)'])} {w} AS o{i}"
                for i in range(r.randint(1, 3))]
        parts = {"items": self.items(x, 0, 2), "aggs": aggs, "where": self.conjuncts(x, 1)}
        return Query("over", parts, {"aggs": 1},
                     lambda p: f"SELECT {', '.join(['id', 'ts'] + p['items'] + p['aggs'])}\nFROM t"
                     + where_sql(p["where"]), compare="final")


def case_files(seed, on, query=None, data=None):
    """{file name: text} of the case for `seed` (query and data overridable by the minimiser)."""
    g = Generator(seed, on)
    q = query or g.make()
    t_rows, u_rows = data or (g.data.t, g.data.u)
    stmts = [f"-- Random query {seed} ({q.kind}; tests/flink/random_queries.py)",
             ddl("t", T_DDL, g.data.delay_t, "t.json") + ";"]
    if "u" in q.tables:
        stmts.append(ddl("u", U_DDL, g.data.delay_u, "u.json") + ";")
    stmts.append(q.sql() + ";")
    files = {"case.sql": "\n".join(stmts) + "\n", "t.json": Data.jsonl(t_rows)}
    if "u" in q.tables:
        files["u.json"] = Data.jsonl(u_rows)
    opts = {"compare": q.compare, "random": seed}
    if q.compare == "final":
        opts["why"] = {"join": "two sources", "interval_join": "two sources",
                       "window": "windows firing at one watermark come out in each engine's timer order",
                       "over": "rows released by one watermark come out in each engine's timer order"}[q.kind]
    if q.known:
        opts["known"] = q.known
    files["case.json"] = json.dumps(opts, indent=1) + "\n"
    return g, q, (t_rows, u_rows), files
