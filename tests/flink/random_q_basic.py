"""The random query generator's projections, filters, UNNEST, group aggregates and ORDER BY ... LIMIT
(a mixin of random_gen.Generator)."""
from random_common import T_COLS, Query, mentions_column, where_sql


class BasicQueries:
    """q_calc, q_unnest, q_agg, q_sort_limit."""

    def q_calc(self):
        x = self.exprs(T_COLS)
        src = self.source()
        parts = {"items": self.items(x, 1, 4) + self.nested_items(x), "where": self.conjuncts(x)}
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
        second = []
        if self.on["nested_types"] and r.random() < 0.4:
            # An array of ROWs (each element's fields as columns) or a MAP (key and value columns).
            col = r.choice(x.cols("INT"))
            pairs = [(col, x.expr("STR", 1))] + [(x.expr("INT", 1), x.expr("STR", 1)) for _ in range(n)]
            if r.random() < 0.5:
                arr = "ARRAY[" + ", ".join(f"ROW({i}, {s})" for i, s in pairs) + "]"
            else:
                arr = "MAP[" + ", ".join(f"'k{j}', {i}" for j, (i, _) in enumerate(pairs)) + "]"
                ordinality = False
            second = ["e2"]
            alias = "ux (e, e2, o)" if ordinality else "ux (e, e2)"
        call = f"UNNEST({arr}){' WITH ORDINALITY' if ordinality else ''}"
        parts = {"items": ["e"] + second + (["o"] if ordinality else []) + self.items(x, 0, 2),
                 "where": self.conjuncts(x, 1)}
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

        if self.on["array_agg"] and compare == "changelog" and not self.batch and self.r.random() < 0.2:
            # ARRAY_AGG: elements in arrival order, a retraction removes its element.
            parts["aggs"].append(f"ARRAY_AGG({self.r.choice(['a', 's', 'g', 'k'])}) AS aa")

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
