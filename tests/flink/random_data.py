"""The random query generator's input data (tests/flink/random_gen.py, docs/flink.md#random-queries).

Tables t (id, k, g, a, b, x, m, s, f, ts) and u (uid, k, g, y, n, ts) as json lines, and v, a versioned
table as debezium-json changes keyed by k; t optionally as a debezium-json changelog. Everything is a
pure function of the random.Random it is given.
"""
import json
from datetime import datetime, timedelta

BASE = datetime(2026, 8, 15, 10, 0, 0)
KEYS = ["a", "b", "c", "d"]
WORDS = ["apple", "Pear", "fig tree", "kiwi", "", "  plum ", "x_y%z", "日本 ✓"]
# With unicode_case: a word whose letters have non-ASCII upper/lower case forms.
CASED_WORD = "Ünïcode"


def fmt_ts(t):
    return t.strftime("%Y-%m-%d %H:%M:%S")


class Data:
    """The input tables as lists of dicts (json lines), plus their watermark delays: t and u, and v (a
    versioned table: debezium-json events keyed by k). With `changelog`, t's rows carry an "_op" (c, u,
    d) and t is read as debezium-json (Data.debezium replays them into consistent events)."""

    def __init__(self, r, on, in_time, changelog=False):
        self.delay_t = r.choice([0, 2, 5, 30])
        self.delay_u = r.choice([0, 5, 30])
        self.in_time = in_time
        self.changelog = changelog
        # cdc_duplicates: t's changelog declares PRIMARY KEY (id), some change events come twice, and
        # the query sets 'table.exec.source.cdc-events-duplicate' (a ChangelogNormalize removes them).
        self.cdc_duplicates = changelog and on["cdc_duplicates"] and r.random() < 0.5
        # cdc_primary_key: otherwise t's changelog declares PRIMARY KEY (id) without the duplicates
        # option: no ChangelogNormalize, an upsert key for the operators above.
        self.cdc_key = changelog and not self.cdc_duplicates and on.get("cdc_primary_key", False) and \
            r.random() < 0.4
        self.words = WORDS + ([CASED_WORD] if on["unicode_case"] else [])
        self.t = self.rows(r, on, r.randint(8, 30), self.t_row, self.delay_t)
        self.u = self.rows(r, on, r.randint(4, 16), self.u_row, self.delay_u)
        self.v = self.versions(r)
        if changelog:
            self.t = self.changes(r, self.t, self.cdc_duplicates)

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

    def versions(self, r):
        """v's changes: versions of keys a..d (the primary key) at rising times, some deleted; each
        {"_op": "c"|"d", row}: Data.debezium turns a second "c" of a key into an update. A delete's
        event time is its deleted version's (the before image's): only a version still ahead of v's
        watermark is deleted, and times rise by whole seconds, so no change of v is late (a late
        change makes the answer depend on how Flink interleaves the two sources)."""
        out, now, live = [], -20, {}
        for i in range(r.randint(3, 12)):
            step = r.choice([1, 1, 3, 5, 10])
            row = self.u_row(r, i, fmt_ts(BASE + timedelta(seconds=now + step)))
            row["k"] = r.choice(KEYS)
            # v's watermark is now - delay_u (now: the largest time so far).
            if r.random() < 0.25 and row["k"] in live and live[row["k"]] > now - self.delay_u:
                out.append(dict(row, _op="d"))
                del live[row["k"]]
                continue
            now += step
            live[row["k"]] = now
            out.append(dict(row, _op="c"))
        return out

    def changes(self, r, rows, duplicates=False):
        """t as a changelog: every row inserted (op c, a re-sent row updates its first copy), some
        rows later updated (a, m, s, f changed; op c of a live id replays as an update) or deleted.
        With `duplicates`, some change events are delivered again (op "again": the event before it
        once more, whatever the minimiser left)."""
        out = []
        for row in rows:
            if duplicates and out and r.random() < 0.2:
                out.append(dict(row, _op="again"))
            out.append(dict(row, _op="c"))
            if r.random() < 0.25:
                old = r.choice(rows[:rows.index(row) + 1])
                if r.random() < 0.3:
                    out.append(dict(old, _op="d"))
                else:
                    new = self.t_row(r, old["id"], old["ts"])
                    out.append(dict(old, a=new["a"], m=new["m"], s=new["s"], f=new["f"], _op="c"))
        return out

    def rows(self, r, on, count, make, delay):
        """Rows `count` with event times mostly rising. Unless in_time: some late (behind the
        watermark) and some re-sent. in_time (the inputs of event-time operators without
        late_event_time): every row is ahead of the watermark the rows before it made (ts > max ts
        so far - delay). Flink's SQL watermark assigner emits a watermark as soon as it advanced by
        more than 200 ms, so with whole-second steps its watermark follows every row, as Sluice's
        does."""
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
    def row_json(row):
        # DECIMALs as JSON numbers written with their scale (1.50, not "1.50").
        parts = []
        for k, v in row.items():
            if k == "_op":
                continue
            parts.append(f'"{k}":{v}' if k in ("m", "n") and v is not None else f'"{k}":{json.dumps(v)}')
        return "{" + ",".join(parts) + "}"

    @staticmethod
    def jsonl(rows):
        out = [Data.row_json(row) for row in rows]
        return "\n".join(out) + ("\n" if out else "")

    @staticmethod
    def debezium(rows, key):
        """Rows with "_op" as consistent debezium-json events, replayed per `key` column: c of a new
        key an insert, c of a live key an update (before: the live row), d of a live key a delete, d
        of a key not live nothing, "again" the last event once more (a change delivered twice). Any
        subset of the rows (the minimiser's) stays consistent."""
        live, out = {}, []
        for row in rows:
            k = row[key]
            if row["_op"] == "again":
                out.extend(out[-1:])
                continue
            if row["_op"] == "d":
                if k in live:
                    out.append('{"before":' + Data.row_json(live.pop(k)) + ',"after":null,"op":"d"}')
                continue
            before = Data.row_json(live[k]) if k in live else "null"
            out.append('{"before":' + before + ',"after":' + Data.row_json(row) + ',"op":"'
                       + ("u" if k in live else "c") + '"}')
            live[k] = row
        return "\n".join(out) + ("\n" if out else "")
