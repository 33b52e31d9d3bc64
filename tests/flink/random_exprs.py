"""Random typed expressions of the random query generator (tests/flink/random_gen.py): Exprs, with
more productions in random_exprs_more.py."""
import re
from datetime import timedelta

from random_common import mentions_column
from random_data import BASE, fmt_ts
from random_exprs_more import MoreExprs


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
                        # A map that reads a column: Flink folds a constant map's missing key to -1
                        # (random query 2035-96, flink_differences.md#a-constant-maps-missing-key).
                        lambda: f"MAP['a', {self.of_column('INT', n)}, 'b', {e('INT', n)}][{self.r.choice(['a', 'b', 'c'])!r}]",
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
        for name in ("null_logic", "cast_edges", "time_more", "nested_types", "nested_functions"):
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
