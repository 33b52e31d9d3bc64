"""Reads the Parquet files Sluice's writer produced (tests/interop/parquet_write_fixtures.cc) with
pyarrow and DuckDB and checks them against the expected rows in each case's JSON sidecar:

- every row and value, as pyarrow and as DuckDB read them (canonical forms: see the fixture file);
- per row group and flat column, the statistics pyarrow reports (min, max, null count), computed
  here from the expected rows;
- the Iceberg field ids (PARQUET:field_id), the footer key-value metadata, created_by;
- layout expectations: the number of row groups, dictionary-encoded or PLAIN columns.

Usage: parquet_write_check.py --fixtures BIN --out DIR   (runs BIN DIR first)
Exits non-zero with a list of mismatches.
"""

import argparse
import datetime as dt
import decimal
import json
import math
import os
import subprocess
import sys

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

EPOCH = dt.datetime(1970, 1, 1)
EPOCH_UTC = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
MICRO = dt.timedelta(microseconds=1)


def canon(v, expected):
    """The canonical form of a value a reader returned, shaped by the expected value."""
    if v is None:
        return None
    if isinstance(expected, dict) and "__map__" in expected:
        if isinstance(v, dict) and set(v.keys()) == {"key", "value"} and isinstance(v["key"], list):
            pairs = list(zip(v["key"], v["value"]))
        elif isinstance(v, dict):
            pairs = list(v.items())
        else:
            pairs = list(v)
        exp_pairs = expected["__map__"]
        out = []
        for i, (k, val) in enumerate(pairs):
            ek, ev = exp_pairs[i] if i < len(exp_pairs) else (None, None)
            out.append([canon(k, ek), canon(val, ev)])
        return {"__map__": out}
    if isinstance(v, dict):
        exp = expected if isinstance(expected, dict) else {}
        return {k: canon(x, exp.get(k)) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        exp = expected if isinstance(expected, list) else []
        return [canon(x, exp[i] if i < len(exp) else None) for i, x in enumerate(v)]
    if isinstance(v, bool):
        return v
    if isinstance(v, dt.datetime):
        if v.tzinfo is None:
            return (v - EPOCH) // MICRO
        return (v - EPOCH_UTC) // MICRO
    if isinstance(v, dt.date):
        return (v - dt.date(1970, 1, 1)).days
    if isinstance(v, dt.time):
        return ((v.hour * 60 + v.minute) * 60 + v.second) * 1000000 + v.microsecond
    if isinstance(v, decimal.Decimal):
        return f"{v:f}"
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    return v


def same(a, b):
    """Equality of canonical values; numbers compare as numbers (JSON "-0" is 0)."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def compare_rows(errors, who, case, got_rows):
    exp_rows = case["rows"]
    if len(got_rows) != len(exp_rows):
        errors.append(f"{case['name']}: {who} read {len(got_rows)} rows, expected {len(exp_rows)}")
        return
    bad = 0
    for i, (got, exp) in enumerate(zip(got_rows, exp_rows)):
        for col, ev in exp.items():
            gv = canon(got.get(col), ev)
            if not same(gv, ev):
                bad += 1
                if bad <= 5:
                    errors.append(f"{case['name']}: {who} row {i} column {col}: got {gv!r}, expected {ev!r}")
    if bad > 5:
        errors.append(f"{case['name']}: {who}: {bad} mismatching values in all")


def order_key(v):
    if isinstance(v, str):
        try:
            return decimal.Decimal(v)
        except decimal.InvalidOperation:
            return v
    return v


def check_stats(errors, case, md, schema):
    rows = case["rows"]
    start = 0
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        part = rows[start:start + rg.num_rows]
        start += rg.num_rows
        for c in range(rg.num_columns):
            col = rg.column(c)
            path = col.path_in_schema
            if "." in path:
                continue  # nested leaves: rows are checked, statistics only for flat columns
            values = [r[path] for r in part]
            nulls = sum(v is None for v in values)
            st = col.statistics
            where = f"{case['name']}: row group {g} column {path}"
            if st is None:
                errors.append(f"{where}: no statistics")
                continue
            if st.null_count != nulls:
                errors.append(f"{where}: null_count {st.null_count}, expected {nulls}")
            present = [v for v in values if v is not None and v != "NaN"]
            is_hex = schema.field(path).type in (pa.binary(),) or pa.types.is_fixed_size_binary(schema.field(path).type)
            if not present:
                if st.has_min_max:
                    errors.append(f"{where}: min/max present for a column without values")
                continue
            if not st.has_min_max:
                if max(len(str(v)) for v in present) <= 4096:
                    errors.append(f"{where}: no min/max")
                continue
            if is_hex:
                present = [bytes.fromhex(v) for v in present]
                exp_min, exp_max = min(present).hex(), max(present).hex()
            elif isinstance(present[0], str) and not isinstance(values[0], bool) and pa.types.is_string(schema.field(path).type):
                exp_min, exp_max = min(present, key=lambda s: s.encode()), max(present, key=lambda s: s.encode())
            else:
                exp_min, exp_max = min(present, key=order_key), max(present, key=order_key)
            got_min, got_max = canon(st.min, exp_min), canon(st.max, exp_max)
            if not same(got_min, exp_min) or not same(got_max, exp_max):
                errors.append(f"{where}: min/max {got_min!r}/{got_max!r}, expected {exp_min!r}/{exp_max!r}")


def field_ids(field, tree, errors, where):
    meta = field.metadata or {}
    got = meta.get(b"PARQUET:field_id")
    want = tree["id"] if tree else None
    if (int(got) if got is not None else None) != want:
        errors.append(f"{where}: field id {got}, expected {want}")
    t = field.type
    kids = tree["children"] if tree else []
    if pa.types.is_struct(t):
        subs = [t.field(i) for i in range(t.num_fields)]
    elif pa.types.is_list(t) or pa.types.is_large_list(t):
        subs = [t.value_field]
    elif pa.types.is_map(t):
        subs = [t.key_field, t.item_field]
    else:
        subs = []
    for i, sub in enumerate(subs):
        field_ids(sub, kids[i] if i < len(kids) else None, errors, where + "." + sub.name)


def check_layout(errors, case, md):
    checks = case["checks"]
    name = case["name"]
    if md.num_row_groups < checks.get("min_row_groups", 0):
        errors.append(f"{name}: {md.num_row_groups} row groups, expected at least {checks['min_row_groups']}")
    encodings = {}
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        for c in range(rg.num_columns):
            col = rg.column(c)
            e = encodings.setdefault(col.path_in_schema, set())
            e.update(col.encodings)
            if col.has_dictionary_page:
                e.add("has_dictionary_page")
    for col in checks.get("dictionary", []):
        if "RLE_DICTIONARY" not in encodings.get(col, set()) or "has_dictionary_page" not in encodings[col]:
            errors.append(f"{name}: column {col} is not dictionary-encoded: {sorted(encodings.get(col, []))}")
    for col in checks.get("plain", []):
        if "PLAIN" not in encodings.get(col, set()):
            errors.append(f"{name}: column {col} has no PLAIN pages: {sorted(encodings.get(col, []))}")
    if checks.get("dictionary") == [] and any("has_dictionary_page" in e for e in encodings.values()):
        errors.append(f"{name}: dictionary pages in a file written without dictionaries")


def check_case(errors, path, case):
    name = case["name"]
    pf = pq.ParquetFile(path)
    md = pf.metadata
    if md.num_rows != len(case["rows"]):
        errors.append(f"{name}: footer says {md.num_rows} rows, expected {len(case['rows'])}")
    if not md.created_by.startswith("sluice version "):
        errors.append(f"{name}: created_by {md.created_by!r}")
    kv = {k.decode(): v.decode() for k, v in (md.metadata or {}).items()}
    for k, v in case["kv"].items():
        if kv.get(k) != v:
            errors.append(f"{name}: key-value {k} = {kv.get(k)!r}, expected {v!r}")
    schema = pf.schema_arrow
    for i, tree in enumerate(case["field_ids"] or [None] * len(schema)):
        field_ids(schema.field(i), tree, errors, f"{name}: {schema.field(i).name}")
    if os.path.getsize(path) != case["file_size"]:
        errors.append(f"{name}: file has {os.path.getsize(path)} bytes, metrics said {case['file_size']}")
    table = pq.read_table(path)
    compare_rows(errors, "pyarrow", case, table.to_pylist())
    check_stats(errors, case, md, schema)
    check_layout(errors, case, md)
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    rel = con.sql(f"SELECT * FROM read_parquet('{path}')")
    cols = rel.columns
    duck_rows = [dict(zip(cols, r)) for r in rel.fetchall()]
    compare_rows(errors, "duckdb", case, duck_rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for f in os.listdir(args.out):
        os.remove(os.path.join(args.out, f))
    subprocess.run([args.fixtures, args.out], check=True)
    errors = []
    cases = sorted(f[:-5] for f in os.listdir(args.out) if f.endswith(".json"))
    if not cases:
        errors.append("no fixtures written")
    for name in cases:
        with open(os.path.join(args.out, name + ".json"), encoding="utf-8") as fh:
            case = json.load(fh)
        try:
            check_case(errors, os.path.join(args.out, name + ".parquet"), case)
        except Exception as e:  # a reader refusing the file is a failure, reported with the case
            errors.append(f"{name}: {type(e).__name__}: {e}")
    for e in errors:
        print("FAIL", e)
    print(f"parquet_write_check: {len(cases)} files, {len(errors)} problems")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
