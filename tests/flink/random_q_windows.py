"""The random query generator's window TVF aggregations, window Top-N, deduplication and joins, and
MATCH_RECOGNIZE (a mixin of random_gen.Generator)."""
import re

from random_common import T_COLS, U_COLS, Query, where_sql


class WindowQueries:
    """q_window, q_window_more, q_window_join, q_match_recognize."""

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
        pre = ()
        if self.on["window_two_phase"] and r.random() < 0.3:
            # The aggregation phase strategy (a local and a global window aggregate with TWO_PHASE), with
            # mini-batch or without.
            pre = (f"SET 'table.optimizer.agg-phase-strategy' = '{r.choice(['ONE_PHASE', 'TWO_PHASE'])}';",)
            if r.random() < 0.5:
                pre += ("SET 'table.exec.mini-batch.enabled' = 'true';",
                        "SET 'table.exec.mini-batch.allow-latency' = '1 s';",
                        f"SET 'table.exec.mini-batch.size' = '{r.randint(1, 20)}';")
        return Query("window", parts, {"aggs": 1},
                     lambda p: f"SELECT {sel}, {', '.join(p['aggs'])}\nFROM TABLE({call})"
                     + where_sql(p["where"]) + f"\nGROUP BY {group}", compare="final", pre=pre,
                     known={"explain": "flink_differences.md#two-phase-window-aggregation"})

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
