#!/usr/bin/env python3
"""Writes seed inputs for a fuzz target (tests/fuzz/README.md) from the repository's tests.

  make_seeds.py TARGET OUT_DIR

sql: every statement of tests/sql/**/*.test that plans (query, INSERT, EXPLAIN), each with the DDL and
SET statements of its file before it, as one script. json, debezium_json: the data files under
tests/sql/**/data (debezium's for debezium_json, the others for json), behind a flag byte of 0 (no
options) and 1 (ignore-parse-errors). csv and checkpoint seeds come from elsewhere (the committed
corpus; the checkpoint target writes its own, SLUICE_FUZZ_WRITE_SEEDS).
"""
import hashlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADERS = ("statement ok", "statement error", "query", "output", "file", "sink", "explain")
MAX_SEED = 16384


def records(text):
    for block in re.split(r"\n\s*\n", text):
        lines = [l for l in block.strip("\n").split("\n") if not l.startswith("#")]
        if not lines or not lines[0].startswith(HEADERS):
            continue
        body = []
        for l in lines[1:]:
            if l.strip() == "----":
                break
            body.append(l)
        sql = "\n".join(body).strip()
        if sql:
            yield sql.replace("${TEST_DIR}", "/nonexistent").replace("${TMP_DIR}", "/nonexistent")


def sql_seeds():
    for test in sorted((ROOT / "tests/sql").rglob("*.test")):
        context = []
        for sql in records(test.read_text(errors="replace")):
            head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
            if head in ("CREATE", "SET", "RESET", "DROP", "ALTER"):
                context = (context + [sql])[-10:]
                yield (";\n".join(context) + ";\n").encode()
            else:
                yield (";\n".join(context + [sql]) + ";\n").encode()


def data_seeds(debezium):
    for f in sorted((ROOT / "tests/sql").rglob("*")):
        if not f.is_file() or "data" not in f.relative_to(ROOT).parts or f.suffix not in (".json", ".csv"):
            continue
        if ("debezium" in f.parts) != debezium or f.suffix != ".json":
            continue
        content = f.read_bytes()[:MAX_SEED]
        for flags in (b"\x00", b"\x01"):
            yield flags + content


def main():
    target, out = sys.argv[1], pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    if target == "sql":
        seeds = sql_seeds()
    elif target in ("json", "debezium_json"):
        seeds = data_seeds(target == "debezium_json")
    else:
        seeds = []
    n = 0
    for s in seeds:
        s = s[:MAX_SEED]
        (out / ("gen-" + hashlib.sha1(s).hexdigest()[:16])).write_bytes(s)
        n += 1
    print(f"make_seeds: {n} seeds for {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
