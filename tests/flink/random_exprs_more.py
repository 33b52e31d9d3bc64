"""More expression productions of the random query generator (random_gen.Exprs), since seed 2020:
three-valued logic over NULL booleans, casts of edge texts and values, INTERVAL and TIMESTAMP_LTZ
arithmetic (docs/flink.md#random-queries). Each returns {type: [production]} for Exprs.expr; `self` is
an Exprs (self.expr, self.r, self.cols)."""


class MoreExprs:
    def null_logic(self, n):
        """Three-valued logic: NULL booleans under AND/OR/NOT and the IS tests, IN lists holding NULL."""
        e, r = self.expr, self.r
        nb = lambda: r.choice(["CAST(NULL AS BOOLEAN)", f"({e('INT', n)} > {r.randint(-5, 10)})"])
        return {"BOOL": [lambda: f"({e('BOOL', n)} AND {nb()})", lambda: f"({nb()} OR {e('BOOL', n)})",
                         lambda: f"(NOT ({e('BOOL', n)} OR {nb()}))",
                         lambda: f"({e('BOOL', n)} IS {r.choice(['NOT TRUE', 'FALSE', 'NOT FALSE'])})",
                         lambda: f"({e('INT', n)} {r.choice(['IN', 'NOT IN'])} ({r.randint(-5, 20)}, CAST(NULL AS INT)))",
                         lambda: f"({e('STR', n)} {r.choice(['IN', 'NOT IN'])} ('apple', CAST(NULL AS STRING)))"],
                "INT": [lambda: f"CAST({e('BOOL', n)} AND {nb()} AS INT)"],
                "STR": [lambda: f"CAST(({e('BOOL', n)} OR {nb()}) AS STRING)"]}

    def cast_edges(self, n):
        """Casts of edge values: texts that overflow, with blanks, signs, exponents, bad dates (read at run
        time: suffixed with an empty SUBSTRING of a column, NULL where it is NULL), narrowing of wide
        values."""
        e, r = self.expr, self.r
        texts = ["2147483647", "2147483648", "-2147483648", "-2147483649", " 42 ", "1e3", "+7", "-0", "12.5",
                 "0x1F", "", "abc", "9223372036854775807", "9223372036854775808", "-1.005"]
        # ("99999999.999" overflows DECIMAL(10, 2): NULL on both, but 1.0E8 on Flink under a cast to DOUBLE;
        # random query 2030-84, flink_differences.md#a-try_cast-to-decimal-under-a-cast-to-double)
        col = lambda: f"SUBSTRING({r.choice(self.cols('STR') or ['CAST(NULL AS STRING)'])}, 1, 0)"
        txt = lambda pool=texts: f"CONCAT({repr(r.choice(pool))}, {col()})"
        dates = ["2026-08-15", "2026-02-30", "2026-8-5", " 2026-08-15 ", "2026-08-15 10:11:12"]
        tss = ["2026-08-15 10:11:12", "2026-08-15 10:11:12.345", "2026-08-15T10:11:12", "2026-08-15",
               "2026-13-01 00:00:00", "2026-08-15 25:00:00"]
        bools = ["true", "FALSE", " true ", "yes", "1", "0", "t"]
        return {"INT": [lambda: f"TRY_CAST({txt()} AS INT)", lambda: f"CAST(TRY_CAST({txt()} AS BIGINT) AS INT)",
                        lambda: f"TRY_CAST({txt()} AS SMALLINT)",
                        lambda: f"CAST(CAST({e('BIGINT', n)} * 4096 AS SMALLINT) AS INT)"],
                "BIGINT": [lambda: f"TRY_CAST({txt()} AS BIGINT)", lambda: f"CAST({e('DEC', n)} * 1000 AS BIGINT)"],
                "DEC": [lambda: f"TRY_CAST({txt()} AS DECIMAL(10, 2))",
                        lambda: f"TRY_CAST({txt()} AS DECIMAL(4, 1))"],
                "DOUBLE": [lambda: f"TRY_CAST({txt()} AS DOUBLE)"],
                "BOOL": [lambda: f"(TRY_CAST({txt(bools)} AS BOOLEAN) IS NOT FALSE)"],
                "DATE": [lambda: f"TRY_CAST({txt(dates)} AS DATE)"],
                "TS": [lambda: f"TRY_CAST({txt(tss)} AS TIMESTAMP(3))"],
                "STR": [lambda: f"CAST(TRY_CAST({txt()} AS INT) AS STRING)",
                        lambda: f"CAST(TRY_CAST({txt(dates)} AS DATE) AS STRING)"]}

    def time_more(self, n):
        """INTERVAL arithmetic of more units, TIMESTAMPADD/TIMESTAMPDIFF units, TIMESTAMP_LTZ values (the
        query sets 'table.local-time-zone' when it reads one: Generator.make)."""
        e, r = self.expr, self.r
        iv = lambda: r.choice(["INTERVAL '1' DAY", "INTERVAL '2' HOUR", "INTERVAL '1:30' MINUTE TO SECOND",
                               "INTERVAL '1 02:03:04' DAY TO SECOND", "INTERVAL '1' MONTH",
                               "INTERVAL '1-2' YEAR TO MONTH", "INTERVAL '90' MINUTE"])
        unit = lambda: r.choice(["HOUR", "DAY", "MONTH", "WEEK", "QUARTER", "YEAR", "SECOND"])
        ltz = lambda: r.choice([f"CAST({e('TS', n)} AS TIMESTAMP_LTZ(3))",
                                f"TO_TIMESTAMP_LTZ({e('BIGINT', n)}, {r.choice([0, 3])})"])
        return {"TS": [lambda: f"({e('TS', n)} {r.choice(['+', '-'])} {iv()})",
                       lambda: f"TIMESTAMPADD({unit()}, {r.randint(-3, 3)}, {e('TS', n)})",
                       lambda: f"CAST({ltz()} AS TIMESTAMP(3))"],
                "DATE": [lambda: f"(CAST({e('TS', n)} AS DATE) + INTERVAL '{r.randint(1, 40)}' DAY)"],
                "BIGINT": [lambda: f"CAST(TIMESTAMPDIFF({unit()}, {e('TS', n)}, {e('TS', n)}) AS BIGINT)"],
                "STR": [lambda: f"CAST({ltz()} AS STRING)",
                        lambda: f"DATE_FORMAT({ltz()}, 'yyyy-MM-dd HH:mm:ss')",
                        lambda: f"CAST({iv()} AS STRING)"],
                "BOOL": [lambda: f"({ltz()} < TO_TIMESTAMP_LTZ({1786788000000 + r.randint(-10, 100) * 1000}, 3))"]}

    def nested_types(self, n):
        """ARRAY, MAP and ROW values read back as scalars: ELEMENT, CARDINALITY, ITEM of a MAP built from
        a text (STR_TO_MAP), a ROW's field through a named ROW cast."""
        e, r = self.expr, self.r
        return {"INT": [lambda: f"ELEMENT(ARRAY[{e('INT', n)}])",
                        lambda: f"CARDINALITY(MAP[{e('STR', n)}, {e('INT', n)}, 'z', 1])",
                        lambda: f"CARDINALITY(ARRAY[ARRAY[{e('INT', n)}], ARRAY[1, 2]][{r.randint(1, 2)}])"],
                "STR": [lambda: f"STR_TO_MAP(CONCAT('a=', {self.of_column('STR', n)}, ',b=2'))[{r.choice(['a', 'b', 'c'])!r}]",
                        lambda: f"MAP[{e('STR', n)}, 'v', 'z', {e('STR', n)}]['z']"]}

    def nested_functions(self, n):
        """Flink's ARRAY_* and MAP_* functions (off: Sluice does not have them yet)."""
        e, r = self.expr, self.r
        arr = lambda: f"ARRAY[{e('INT', n)}, {e('INT', n)}, {r.randint(-5, 20)}]"
        return {"BOOL": [lambda: f"ARRAY_CONTAINS({arr()}, {e('INT', n)})"],
                "INT": [lambda: f"CARDINALITY(ARRAY_DISTINCT({arr()}))", lambda: f"ARRAY_POSITION({arr()}, 3)",
                        lambda: f"ARRAY_MAX({arr()})", lambda: f"ARRAY_REVERSE({arr()})[1]",
                        lambda: f"CARDINALITY(MAP_KEYS(MAP['a', {e('INT', n)}, 'b', 2]))"],
                "STR": [lambda: f"ARRAY_JOIN(ARRAY[{e('STR', n)}, {e('STR', n)}], '-')"]}
