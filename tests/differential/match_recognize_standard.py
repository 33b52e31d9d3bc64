#!/usr/bin/env python3
"""MATCH_RECOGNIZE patterns beyond Flink (alternation, quantified groups, reluctant ?) against a reference.

No engine the tests run has MATCH_RECOGNIZE with alternation (Flink refuses it; DuckDB and SQLite have
none), so this is the reference: a backtracking matcher that tries the ways to match a pattern in the
SQL standard's preference order (an alternation's branches left to right, a greedy quantifier's next
iteration before stopping, a reluctant one's the other way round; an unbounded quantifier's iteration
that takes no row is not repeated), the first complete match of an attempt being its match, and the
attempts one after another as AFTER MATCH SKIP says. Each seed draws a pattern over the variables A-E
(each at most once, nested groups, any quantifier), a DEFINE per variable (the row's letter in a set;
for some seeds one also bounds COUNT of a variable's rows or reads one of its rows by FIRST/LAST with
an offset, so threads differ by their mapping),
a skip strategy and up to 25 rows of one partition; Sluice's matches (per variable COUNT/FIRST/LAST of
the rows mapped to it, the first and last row) must equal the reference's, in order, and a skip to a
variable without a row (or to the match's first row) must fail with Flink's words. Seeds whose pattern
Flink's CEP runs (matched with Flink's semantics, not the standard's) or that can match empty (refused)
are passed over.

  python3 tests/differential/match_recognize_standard.py --sluice build/sluice [--n 300] [--seed 0]
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.setrecursionlimit(100000)
LETTERS = "abcd"


def gen(r, pool, depth):
    """A random pattern tree: ('var', X), ('alt', [...]), ('cat', [...]), ('rep', node, min, max|None, greedy)."""
    k = r.random()
    if depth > 2 or k < 0.35 or len(pool) < 2:
        node = ("var", pool.pop())
    else:
        kind = "alt" if k < 0.6 else "cat"
        n = min(len(pool), r.randint(2, 3))
        node = (kind, [gen(r, pool, depth + 1) for _ in range(n) if pool])
        if len(node[1]) == 1:
            node = node[1][0]
    if r.random() < 0.5:
        mn, mx = r.choice([(0, None), (1, None), (0, 1), (2, 2), (1, 2), (2, None), (0, 2)])
        node = ("rep", node, mn, mx, r.random() < 0.6)
    return node


def to_sql(n):
    if n[0] == "var":
        return n[1]
    if n[0] in ("alt", "cat"):
        return "(" + (" | " if n[0] == "alt" else " ").join(to_sql(c) for c in n[1]) + ")"
    _, c, mn, mx, greedy = n
    inner = to_sql(c)
    if c[0] == "rep":
        inner = "(" + inner + ")"
    q = {(0, None): "*", (1, None): "+", (0, 1): "?"}.get((mn, mx))
    if q is None:
        q = "{%d}" % mn if mn == mx else ("{%d,}" % mn if mx is None else "{%d,%d}" % (mn, mx))
    return inner + q + ("" if greedy else "?")


def flink_runs(n):
    """Whether Flink's CEP runs the pattern (then Sluice keeps Flink's semantics): no alternation, no
    quantified group, no reluctant ?."""
    if n[0] == "alt":
        return False
    if n[0] == "rep":
        return n[1][0] == "var" and (n[2], n[3], n[4]) != (0, 1, False)
    if n[0] == "cat":
        return all(flink_runs(c) for c in n[1])
    return True


def holds(extra, pos, labels):
    """A DEFINE's bound on the rows mapped so far (`labels`, this row too): COUNT(Y.v) <= n, or
    FIRST/LAST(Y.v, k) IS NULL OR v - FIRST/LAST(Y.v, k) <= d."""
    if extra is None:
        return True
    at = [p for p, x in labels if x == extra[1]]
    if extra[0] == "count":
        return len(at) <= extra[2]
    _, _, first, k, d = extra
    if len(at) <= k:
        return True
    return pos - (at[k] if first else at[-1 - k]) <= d


def extra_sql(extra):
    if extra is None:
        return ""
    if extra[0] == "count":
        return f" AND COUNT({extra[1]}.v) <= {extra[2]}"
    _, y, first, k, d = extra
    nav = f"{'FIRST' if first else 'LAST'}({y}.v, {k})"
    return f" AND ({nav} IS NULL OR v - {nav} <= {d})"


def matches(node, pos, labels, k, rows, cond):
    """The ways `node` matches from row `pos` on, each passed to continuation k, in preference order."""
    t = node[0]
    if t == "var":
        letters, extra = cond[node[1]]
        if pos < len(rows) and rows[pos] in letters and holds(extra, pos, labels + [(pos, node[1])]):
            yield from k(pos + 1, labels + [(pos, node[1])])
    elif t == "cat":
        def seq(i, p, lab):
            if i == len(node[1]):
                return k(p, lab)
            return matches(node[1][i], p, lab, lambda p2, l2: seq(i + 1, p2, l2), rows, cond)
        yield from seq(0, pos, labels)
    elif t == "alt":
        for c in node[1]:
            yield from matches(c, pos, labels, k, rows, cond)
    else:
        _, c, mn, mx, greedy = node

        def loop(count, p, lab):
            if count < mn:
                yield from matches(c, p, lab, lambda p2, l2: loop(count + 1, p2, l2), rows, cond)
                return

            def more():
                if mx is not None and count >= mx:
                    return
                # The empty-match guard: an unbounded iteration that took no row is not repeated.
                yield from matches(c, p, lab, lambda p2, l2: loop(count + 1, p2, l2) if p2 > p or mx is not None
                                   else iter(()), rows, cond)
            if greedy:
                yield from more()
                yield from k(p, lab)
            else:
                yield from k(p, lab)
                yield from more()
        yield from loop(0, pos, labels)


def reference(pattern, rows, cond, skip, variables):
    """The matches (measure values) in order, and the error a skip raises (or None)."""
    out, i = [], 0
    while i < len(rows):
        first = next(matches(pattern, i, [], lambda p, lab: iter([(p, lab)]), rows, cond), None)
        if first is None or first[0] == i:  # (an empty match: such patterns are refused)
            i += 1
            continue
        end, labels = first
        values = []
        for v in variables:
            at = [p + 1 for p, x in labels if x == v]
            values += [len(at), at[0] if at else None, at[-1] if at else None]
        out.append(values + [i + 1, end])
        if skip == "PAST LAST ROW":
            i = end
        elif skip == "TO NEXT ROW":
            i += 1
        else:
            _, kind, v = skip.split()
            at = [p for p, x in labels if x == v]
            if not at:
                return out, "Could not skip to %s. No such element in the found match" % v
            j = at[0] if kind == "FIRST" else at[-1]
            if j == i:
                return out, "Could not skip to first element of a match."
            i = j
    return out, None


def run_seed(seed, sluice, data):
    """None when the seed is passed over, else a list of problems."""
    r = random.Random(seed)
    pool = list("ABCDE")
    r.shuffle(pool)
    pattern = gen(r, pool, 0)
    if flink_runs(pattern):
        return None
    text = to_sql(pattern)
    variables = sorted(set(re.findall(r"[A-E]", text)))
    cond = {v: (set(r.sample(LETTERS, r.randint(1, 3))), None) for v in variables}
    if r.random() < 0.4:
        # A DEFINE that reads the rows of a variable: threads are told apart by what they mapped there.
        v = r.choice(variables)
        cond[v] = (cond[v][0], ("count", r.choice(variables), r.randint(1, 3)))
    elif r.random() < 0.4:
        # One that reads a row of a variable by navigation (FIRST/LAST with an offset).
        v = r.choice(variables)
        cond[v] = (cond[v][0], ("nav", r.choice(variables), r.random() < 0.4, r.randint(0, 2), r.randint(0, 3)))
    rows = [r.choice(LETTERS) for _ in range(r.randint(5, 25))]
    skip = r.choice(["PAST LAST ROW", "TO NEXT ROW", "TO FIRST " + r.choice(variables),
                     "TO LAST " + r.choice(variables)])
    with open(data, "w") as f:
        for i, c in enumerate(rows):
            f.write(json.dumps({"k": "p", "ts": "2026-01-01 00:00:%02d" % (i + 1), "c": c, "v": i + 1}) + "\n")
    measures = []
    for v in variables:
        measures += [f"COUNT({v}.v) AS n{v}", f"FIRST({v}.v) AS f{v}", f"LAST({v}.v) AS l{v}"]
    measures += ["FIRST(v) AS s", "LAST(v) AS e"]
    defines = ", ".join(f"{v} AS c IN ({', '.join(repr(x) for x in sorted(cond[v][0]))})" + extra_sql(cond[v][1])
                        for v in variables)
    sql = (f"CREATE TABLE t (k STRING, ts TIMESTAMP(3), c STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
           f"WITH ('connector' = 'filesystem', 'path' = '{data}', 'format' = 'json');\n"
           f"SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES {', '.join(measures)} "
           f"AFTER MATCH SKIP {skip} PATTERN ({text}) DEFINE {defines});")
    p = subprocess.run([sluice, "run", "--format", "jsonl", "-e", sql], capture_output=True, text=True)
    if "Patterns that can produce empty matches" in p.stderr:
        return None
    want, error = reference(pattern, rows, cond, skip, variables)
    got = []
    for line in p.stdout.splitlines():
        obj = json.loads(line)
        got.append([v for k, v in obj.items() if k not in ("op", "k")])
    problems = []
    if error is None and p.returncode != 0:
        problems.append(f"Sluice failed: {p.stderr.strip()}")
    if error is not None and (p.returncode == 0 or error not in p.stderr):
        problems.append(f"expected the error '{error}', Sluice: rc={p.returncode} {p.stderr.strip()}")
    # Matches emitted before a failing skip are kept; the job then fails.
    if got != (want if error is None else want[:len(got)]):
        problems.append(f"matches differ\n  want {want}\n  got  {got}")
    return [f"seed {seed}: PATTERN ({text}) AFTER MATCH SKIP {skip} DEFINE {defines} rows {''.join(rows)}: {x}"
            for x in problems]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sluice", default="build/sluice")
    ap.add_argument("--n", type=int, default=300, help="seeds to draw")
    ap.add_argument("--seed", type=int, default=0, help="the first seed")
    args = ap.parse_args()
    ran = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "rows.json")
        for seed in range(args.seed, args.seed + args.n):
            problems = run_seed(seed, os.path.abspath(args.sluice), data)
            if problems is None:
                continue
            ran += 1
            if problems:
                failed += 1
                print("\n".join(problems))
    print(f"{ran} patterns checked, {failed} failed ({args.n - ran} seeds passed over)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
