"""Shared pieces of the random query generator (tests/flink/random_gen.py and its query modules
random_q_*.py): the tables' columns, the Query of removable parts, SQL helpers."""
import re

T_COLS = {"id": "INT", "k": "STR", "g": "INT", "a": "INT", "b": "BIGINT", "x": "DOUBLE", "m": "DEC",
          "s": "STR", "f": "BOOL", "ts": "TS"}
U_COLS = {"uid": "INT", "k": "STR", "g": "INT", "y": "INT", "n": "DEC", "ts": "TS"}


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
