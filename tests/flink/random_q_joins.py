"""The random query generator's regular, interval and temporal joins, set operations and subqueries
(a mixin of random_gen.Generator)."""
from random_common import T_COLS, U_COLS, Query, where_sql


class JoinQueries:
    """q_join, q_interval_join, q_set_ops, q_subquery, q_temporal_join."""

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
        bounds = [f"u.ts BETWEEN t.ts - INTERVAL '{lo}' SECOND AND t.ts + INTERVAL '{hi}' SECOND",
                  f"u.ts >= t.ts AND u.ts < t.ts + INTERVAL '{hi + 1}' SECOND"]
        if self.on["interval_more"]:
            # Bounds written from u's side, strict and open ones, and a non-equi condition in ON.
            bounds += [f"t.ts BETWEEN u.ts - INTERVAL '{lo}' SECOND AND u.ts + INTERVAL '{hi}' SECOND",
                       f"t.ts > u.ts - INTERVAL '{lo}' SECOND AND t.ts <= u.ts + INTERVAL '{hi}' SECOND",
                       f"u.ts > t.ts - INTERVAL '{lo}' SECOND AND u.ts < t.ts"]
        bound = self.r.choice(bounds)
        if self.on["interval_more"] and self.r.random() < 0.3:
            bound += " AND " + self.r.choice(["t.a > u.y", "t.g <> u.g", "t.m < u.n", "u.y IS NOT NULL"])
        items = self.items(x, 1, 3)
        parts = {"items": items, "where": self.conjuncts(x, 1) if jt == "JOIN" else []}
        return Query("interval_join", parts, {"items": 1},
                     lambda p: f"SELECT {', '.join(p['items'])}\nFROM t {jt} u ON {key} AND {bound}"
                     + where_sql(p["where"]), compare="final", tables=("t", "u"))

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
