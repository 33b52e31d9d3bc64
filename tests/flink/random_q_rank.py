"""The random query generator's deduplication, Top-N, OVER aggregations and batch ranks (a mixin of
random_gen.Generator)."""
from random_common import T_COLS, Query, where_sql


class RankQueries:
    """q_dedup, q_topn, q_over, q_batch_rank."""

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
        elif self.on["topn_ranges"] and not updating and r.random() < 0.5:
            # (Not over an updating input, whose first branch failing its draw fell here: random query
            # 2040-19, Flink's retracting Rank of `rn > 1 AND rn <= 2` again.)
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
        if self.on["over_values"] and order == "ts" and not self.batch:
            # Values of other rows of the window: the previous row's (LAG), the frame's first and last.
            more += ["FIRST_VALUE(a)", "LAST_VALUE(m)", "FIRST_VALUE(s)"] + (["LAG(a)", "LAG(s, 2)"] if self.on["over_lag"] else [])
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
