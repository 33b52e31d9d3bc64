#!/usr/bin/env python3
"""The differential suite: the same Flink SQL scripts on Apache Flink 2.2.1 and on Sluice, compared.

Each case is a folder tests/flink/cases/NAME/ with case.sql (${CASE_DIR} stands for the folder; the
shared inputs are in tests/flink/data/) and optionally case.json:
  {"compare": "changelog" | "final" | "per-key", "why": "...",  how rows are compared (default
                                                          changelog; per-key: each key's changes in
                                                          order, "key": [columns], for Flink's
                                                          mini-batch bundles, which emit their keys in
                                                          HashMap order)
   "known": {"explain": "flink_differences.md#anchor"},  documented differences by category: reported
                                                          with the anchor, not failed
   "timing": {"rows": "..."},                            Flink's answer there depends on timing (its
                                                          periodic watermarks): excused, never stale
   "refusal": "..."}                                      the part of Flink's refusal Sluice must say,
                                                          when its first line holds more (a plan dump)
A case holds DDL/SET statements and one job (a SELECT, an INSERT or a statement set).

The Flink side runs all cases in one JVM (tests/flink/runner, built by scripts/install-flink.sh); its
per-case results are cached under OUT/flink/ until the case, the data or the runner changes. The
Sluice side runs `sluice run --format jsonl --set sluice.print.format=jsonl` per case (print sinks
then write jsonl lines after '<table>> ') and the same script with the job as EXPLAIN CHANGELOG_MODE.

Compared (docs/flink.md):
  rows      SELECT results and print sinks: the changelog line by line (values compared as JSON with
            numbers as written), or with "compare": "final" the folded tables (multisets), or with
            "compare": "per-key" the changes of each key (the case's "key" columns) in order.
  explain   the operators of the Optimized Physical Plan with their changelogMode, in order (a batch
            job's operators only: Flink's batch plans have no changelogMode) (and a
            MiniBatchAssigner's interval and mode, a Join's input specs and miniBatch=[true]).
  files     a filesystem sink: the lines Flink's format (json, csv, ...) encodes for its rows against
            the lines of the files Sluice writes (${OUT_DIR} in a case is the place for them).
  refusal   a job Flink refuses at planning (or fails while running) must fail on Sluice too, and
            Sluice's message must contain Flink's (the innermost cause's first line).
Prints every disagreement with the case name and a diff (the documented ones as 'known' lines), then
'N passed, N failed'. Exit 1 on failures.

  python3 tests/flink/run_differential.py [--sluice build/sluice] [--out build/flink-diff] [--fresh]
                                          [--parallelism N] [CASE...]
"""
import argparse
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Disagreements documented as deliberate in docs/flink_differences.md: reported, never failed.
KNOWN_CATEGORIES = {
    "explain-select-ub": "flink_differences.md#explain-of-a-select: Flink's EXPLAIN of a SELECT plans "
                         "without update-before rows, Sluice's shows the -U rows the SELECT prints",
}
CASES = ROOT / "tests" / "flink" / "cases"
DATA = ROOT / "tests" / "flink" / "data"
FLINK_OUT = ROOT / "build" / "flink-diff" / "flink"  # set by main from --out
FORCE_FINAL = False  # set by main: Flink at parallelism > 1 gives no deterministic changelog


def sha(paths):
    h = hashlib.sha256()
    for p in paths:
        h.update(str(p.name).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def list_cases(names):
    cases = sorted(p.parent for p in CASES.glob("*/case.sql"))
    if names:
        cases = [c for c in cases if any(n == c.name or n in c.name for n in names)]
    return cases


def case_options(case):
    f = case / "case.json"
    return json.loads(f.read_text()) if f.exists() else {}


def run_flink(cases, out, deps, fresh, timeout, parallelism):
    """Runs the cases whose cached result is missing or stale in one JVM; returns {name: result}."""
    out.mkdir(parents=True, exist_ok=True)
    runner_key = (deps / ".pom.sha256").read_text().strip()
    data_files = sorted(p for p in DATA.rglob("*") if p.is_file())
    keys, todo = {}, []
    for case in cases:
        inputs = sorted(p for p in case.rglob("*") if p.is_file() and p.name != "case.json")
        key = sha(inputs + data_files) + runner_key
        keys[case.name] = key
        key_file = out / (case.name + ".key")
        if fresh or not key_file.exists() or key_file.read_text() != key or not (out / (case.name + ".json")).exists():
            todo.append(case)
    if todo:
        print(f"flink: running {len(todo)} case(s) in one JVM (cached: {len(cases) - len(todo)})", flush=True)
        cmd = ["nice", "-n", "10", "java", "-Xmx2g", "-XX:+UseSerialGC",
               "-cp", f"{deps}/lib/*:{deps}/classes", "sluice.flink.FlinkRunner",
               "--out", str(out), "--timeout-s", str(timeout), "--parallelism", str(parallelism)]
        cmd += [str(c / "case.sql") for c in todo]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log = out / "_runner.log"
        log.write_text(proc.stdout)
        if proc.returncode != 0:
            print(proc.stdout[-4000:])
            sys.exit(f"flink runner failed (exit {proc.returncode}); log: {log}")
        for case in todo:
            (out / (case.name + ".key")).write_text(keys[case.name])
    return {c.name: json.loads((out / (c.name + ".json")).read_text()) for c in cases}


def is_job(stmt):
    return stmt["kind"] in ("query", "insert")


def explain_form(sql):
    return re.sub(r"(?is)^\s*EXECUTE\s+STATEMENT\s+SET", "STATEMENT SET", sql)


def run_sluice(sluice, script_text, path, timeout):
    path.write_text(script_text)
    cmd = [str(sluice), "run", "--format", "jsonl", "--set", "sluice.print.format=jsonl", str(path)]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s"
    return proc.returncode, proc.stdout, proc.stderr


def canonical(line):
    """A jsonl change as a comparable value: key order kept, numbers as written."""
    try:
        return json.dumps(json.loads(line, parse_float=str, parse_int=str, object_pairs_hook=list))
    except ValueError:
        return "unparsable: " + line


def fold(lines):
    """The folded table of a changelog: +I/+U add a row, -U/-D take one back (a multiset)."""
    table = Counter()
    for line in lines:
        obj = json.loads(line, parse_float=str, parse_int=str, object_pairs_hook=list)
        op = obj[0][1]
        row = json.dumps(obj[1:])
        table[row] += 1 if op in ("+I", "+U") else -1
    return sorted(f"{row} x{n}" if n != 1 else row for row, n in table.items() if n != 0)


def plan_modes(text):
    """(operator, changelogMode) per line of the Optimized Physical Plan section. Calc nodes are left
    out: where a projection or filter sits (or whether it was pushed into the scan) is the optimizer's
    choice and never changes a changelog mode."""
    if not text:
        return []
    m = re.search(r"== Optimized Physical Plan ==\n(.*?)(?:\n== |\Z)", text, re.S)
    if not m:
        return []
    out = []
    for line in m.group(1).splitlines():
        op = re.match(r"^[\s+\-|:]*([A-Za-z]+)\(", line)
        mode = re.search(r"changelogMode=\[([^\]]*)\]", line)
        if op and op.group(1) != "Calc":
            # A MiniBatchAssigner's interval and mode are compared too (MiniBatchIntervalInferRule).
            extra = ""
            if op.group(1) == "MiniBatchAssigner":
                batch = re.search(r"interval=\[[^\]]*\], mode=\[[^\]]*\]", line)
                extra = batch.group(0) if batch else ""
            # A Join's input specs (Flink's JoinInputSideSpec: how each side's state and mini-batch
            # bundle are keyed) and miniBatch=[true] (Flink's MiniBatchStreamingJoinOperator) too.
            if op.group(1) == "Join":
                specs = re.search(r"leftInputSpec=\[\w+\], rightInputSpec=\[\w+\]", line)
                extra = ", ".join(([specs.group(0)] if specs else []) +
                                  (["miniBatch=[true]"] if "miniBatch=[true]" in line else []))
            out.append(f"{op.group(1)}{'(' + extra + ')' if extra else ''} {mode.group(1) if mode else '?'}")
    return out


def flink_message(error):
    """Flink's wording of a refusal: the innermost cause's first line without the exception class."""
    inner = error[-1]
    inner = re.sub(r"^[\w.$]+(Exception|Error): ", "", inner, count=1)
    return inner.splitlines()[0].strip() if inner.strip() else inner


def without_positions(text):
    """Flink numbers lines within the statement, Sluice within the script: positions are not compared."""
    return re.sub(r"line \d+, column \d+", "line _, column _", text)


def says(err, want):
    return without_positions(want.rstrip(".")) in without_positions(err)


def diff(a, b, a_name="flink", b_name="sluice"):
    return "\n".join(difflib.unified_diff(a, b, a_name, b_name, lineterm="", n=2))


def sink_path(setup, table):
    """The 'path' option of the CREATE TABLE of `table` among the setup statements, or None."""
    for stmt in setup:
        m = re.match(r"(?is)\s*(?:--[^\n]*\n\s*)*CREATE\s+(?:TEMPORARY\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?`?(\w+)`?", stmt["sql"])
        if m and m.group(1) == table:
            p = re.search(r"'path'\s*=\s*'([^']*)'", stmt["sql"])
            return Path(p.group(1)) if p else None
    return None


def clear_sink_files(job, setup, flink_out):
    """Removes what an earlier run left in the filesystem sinks' paths (only under the runner's files)."""
    for name, sink in (job.get("sinks") or {}).items():
        path = sink_path(setup, name) if sink["connector"] == "filesystem" else None
        if path and str(path.resolve()).startswith(str(flink_out.resolve())) and path.exists():
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def compare_files(job, setup, work):
    """A filesystem sink: the lines Flink's format encodes against the files Sluice wrote (as a set of
    lines: how rows are spread over part files is the sink's business)."""
    problems = []
    for name, sink in (job.get("sinks") or {}).items():
        if sink["connector"] != "filesystem" or "encoded" not in sink:
            continue
        path = sink_path(setup, name)
        got = []
        if path and path.exists():
            files = [path] if path.is_file() else sorted(
                p for p in path.rglob("*") if p.is_file() and not p.name.startswith(("." , "_")))
            for f in files:
                got.extend(f.read_text().splitlines())
        a, b = sorted(sink["encoded"]), sorted(got)
        if a != b:
            problems.append(("files", f"{name}: the lines written by the format (Flink's encoder vs "
                             f"Sluice's files under {path})\n" + diff(a, b)))
    return problems


def compare_failure(job, opts, rc, err):
    """Flink refused the job while planning or failed it while running: Sluice must too, in Flink's words."""
    want = flink_message(job["error"])
    problems = []
    if opts.get("refusal"):
        if opts["refusal"] not in "\n".join(job["error"]):
            problems.append(("refusal-case", f"case.json's refusal text is not in Flink's message: {want}"))
        want = opts["refusal"]
    if job.get("error_phase") == "run":
        if rc == 0:
            problems.append(("run-error", f"Flink's job fails, Sluice's succeeds.\nFlink: {want}"))
        elif not says(err, want):
            problems.append(("run-error-message", f"Flink: {want}\nSluice: {err.strip()}"))
    elif job.get("error_phase") != "plan":
        problems.append(("flink-runner", f"The Flink runner failed: {want}"))
    elif rc == 0:
        problems.append(("refusal", f"Flink refuses the job, Sluice runs it.\nFlink: {want}"))
    elif not says(err, want):
        problems.append(("refusal-message", f"Flink: {want}\nSluice: {err.strip()}"))
    return problems


def per_key(lines, key):
    """A changelog split by key: {key values: [changes in order]}."""
    out = {}
    for line in lines:
        obj = json.loads(line, parse_float=str, parse_int=str)
        out.setdefault(json.dumps([obj.get(k) for k in key]), []).append(canonical(line))
    return out


def compare_rows(job, mode, out, key=()):
    """The changelogs of the SELECT and of each print sink: Flink's runner output against the jsonl
    lines Sluice printed (a sink's after '<table>> ')."""
    flink_sets = {}
    if job["kind"] == "query":
        flink_sets["(select)"] = job.get("rows", [])
    for name, sink in (job.get("sinks") or {}).items():
        if sink["connector"] == "print":
            flink_sets[name] = sink["rows"]
    sluice_sets = {k: [] for k in flink_sets}
    for line in out.splitlines():
        m = re.match(r"^(.*?)> (\{.*)$", line)
        if m and m.group(1) in sluice_sets and not line.startswith("{"):
            sluice_sets[m.group(1)].append(m.group(2))
        elif line.startswith("{") and "(select)" in sluice_sets:
            sluice_sets["(select)"].append(line)
    problems = []
    for name, want_lines in flink_sets.items():
        got_lines = sluice_sets.get(name, [])
        a = [canonical(x) for x in want_lines]
        b = [canonical(x) for x in got_lines]
        if a == b:
            continue
        fa, fb = fold(want_lines), fold(got_lines)
        if mode == "final" and fa == fb:
            continue
        if mode == "per-key" and key and per_key(want_lines, key) == per_key(got_lines, key):
            continue
        if fa == fb:
            problems.append(("changelog", f"{name}: same final table, different changelog\n" + diff(a, b)))
        else:
            problems.append(("rows", f"{name}: different results (folded tables)\n" + diff(fa, fb)
                             + "\nchangelogs:\n" + diff(a, b)))
    return problems


def compare_explain(job, setup, sluice, work, n, timeout):
    """EXPLAIN CHANGELOG_MODE of the job on Sluice against Flink's: operators and modes, Calc aside."""
    explain_script = ";\n".join(setup + ["EXPLAIN CHANGELOG_MODE " + explain_form(job["sql"])]) + ";\n"
    rc, out, err = run_sluice(sluice, explain_script, work / f"job{n}.explain.sql", timeout)
    (work / f"job{n}.explain.out").write_text(out + err)
    if rc != 0:
        return [("explain", f"Sluice's EXPLAIN CHANGELOG_MODE failed: {err.strip()}")]
    a, b = plan_modes(job.get("explain")), plan_modes(out)
    # A batch job: Flink's batch plans carry no changelog mode ('?'), so only the operators compare.
    if a and all(x.endswith(" ?") for x in a):
        b = [re.sub(r" [^ ]*$", " ?", y) for y in b]
    if a == b:
        return []
    category = "explain"
    # A SELECT: Flink's plan asks for no update-before rows, so it may also drop them right after a
    # changelog source (a DropUpdateBefore Sluice's plan for the SELECT does not have).
    if job["kind"] == "query" and not any(y.startswith("DropUpdateBefore ") for y in b):
        a = [x for x in a if not x.startswith("DropUpdateBefore ")]
    if job["kind"] == "query" and len(a) == len(b) and all(
            x == y or x == re.sub(r"\bUB,", "", y) for x, y in zip(a, b)):
        category = "explain-select-ub"
    return [(category, "Optimized Physical Plan operators and changelog modes\n" + diff(a, b))]


def compare_case(case, flink, sluice, work, timeout):
    """Returns a list of (category, text) disagreements for one case."""
    opts = case_options(case)
    stmts = flink["statements"]
    work.mkdir(parents=True, exist_ok=True)
    setup_errors = [s for s in stmts if not is_job(s) and s.get("error")]
    if setup_errors:
        return [("flink-setup", "Flink failed a setup statement:\n" + "\n".join(setup_errors[0]["error"]))]
    problems = []
    for n, j in enumerate(i for i, s in enumerate(stmts) if is_job(s)):
        job = stmts[j]
        setup = [s["sql"] for s in stmts[:j] if not is_job(s) and s["kind"] != "explain"]
        clear_sink_files(job, stmts[:j], FLINK_OUT)
        rc, out, err = run_sluice(sluice, ";\n".join(setup + [job["sql"]]) + ";\n", work / f"job{n}.sql", timeout)
        (work / f"job{n}.out").write_text(out)
        (work / f"job{n}.err").write_text(err)
        if job.get("error"):
            problems.extend(compare_failure(job, opts, rc, err))
        elif rc != 0:
            problems.append(("sluice-error", f"Flink runs the job, Sluice fails (exit {rc}):\n{err.strip()}"))
        else:
            problems.extend(compare_files(job, stmts[:j], work))
            problems.extend(compare_rows(job, "final" if FORCE_FINAL else opts.get("compare", "changelog"), out,
                                         opts.get("key", ())))
            problems.extend(compare_explain(job, setup, sluice, work, n, timeout))
    return problems


def judge(case, problems):
    """Splits a case's disagreements into failures and documented ones (KNOWN_CATEGORIES, the case's
    "known" and "timing" marks). Returns (failures, report lines, number of documented ones)."""
    opts = case_options(case)
    known_here = dict(KNOWN_CATEGORIES)
    marked = dict(opts.get("known", {}))
    known_here.update(marked)
    known_here.update(opts.get("timing", {}))
    documented = [p for p in problems if p[0] in known_here]
    problems = [p for p in problems if p[0] not in known_here]
    lines = []
    for category in sorted({c for c, _ in documented}):
        lines.append(f"  known {case.name}: {category} ({known_here[category]})")
    stale = sorted(set(marked) - {c for c, _ in documented})
    if stale:
        lines.append(f"  note {case.name}: marked known for {', '.join(stale)}, but agrees there now")
    if not problems:
        lines.append(f"PASS {case.name}")
    else:
        lines.append(f"FAIL {case.name}: {', '.join(c for c, _ in problems)}")
        for category, text in problems:
            lines.append(f"  [{category}] " + text.replace("\n", "\n    "))
    return problems, lines, len({c for c, _ in documented})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", help="case names (or parts of names); default all")
    ap.add_argument("--sluice", default=str(ROOT / "build" / "sluice"))
    ap.add_argument("--out", default=str(ROOT / "build" / "flink-diff"))
    ap.add_argument("--fresh", action="store_true", help="rerun Flink even for cached cases")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per job on either engine")
    ap.add_argument("--parallelism", type=int, default=1,
                    help="Flink's parallelism; above 1 every case is compared as folded tables")
    args = ap.parse_args()
    cases = list_cases(args.cases)
    if not cases:
        sys.exit("no cases matched")
    deps = Path(subprocess.run(["bash", str(ROOT / "scripts" / "install-flink.sh")], check=True,
                               stdout=subprocess.PIPE, text=True).stdout.strip())
    out = Path(args.out)
    global FLINK_OUT, FORCE_FINAL
    FLINK_OUT = out / ("flink" if args.parallelism == 1 else f"flink-p{args.parallelism}")
    FORCE_FINAL = args.parallelism > 1
    flink = run_flink(cases, FLINK_OUT, deps, args.fresh, args.timeout, args.parallelism)
    passed = failed = known = 0
    for case in cases:
        problems = compare_case(case, flink[case.name], Path(args.sluice), out / "sluice" / case.name, args.timeout)
        problems, lines, n_known = judge(case, problems)
        known += n_known
        for line in lines:
            print(line)
        if problems:
            failed += 1
        else:
            passed += 1
    print(f"(documented differences reported: {known}; see docs/flink_differences.md)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
