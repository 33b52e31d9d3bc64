"""Batch mode against DuckDB: the same queries (GROUP BY, joins, Top-N, ORDER BY) over the same JSON files,
run by `sluice run` with 'execution.runtime-mode' = 'batch' and by DuckDB, must give the same rows;
every row Sluice prints must be an insert (+I: a batch job emits final rows only). ORDER BY results
are compared in order (their keys order the rows totally), the others as multisets. The joins run
twice: as HashJoin (the default) and as SortMergeJoin ('table.exec.disabled-operators' = 'HashJoin',
checked in the query's EXPLAIN), with NULL keys, duplicate keys, composite keys and residuals.

Usage: batch_vs_duckdb.py <path to the sluice binary>   (the interop venv's python)
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

import duckdb

ORDERS = 20000
CUSTOMERS = 900


def write_files(d):
    rnd = random.Random(20)
    orders = os.path.join(d, "orders.json")
    with open(orders, "w") as f:
        for i in range(ORDERS):
            store = None if rnd.random() < 0.02 else "S%03d" % rnd.randrange(300)
            qty = None if rnd.random() < 0.05 else rnd.randrange(1, 50)
            f.write(json.dumps({"id": i, "store": store, "qty": qty, "price": round(rnd.uniform(0, 100), 2),
                                "cust": rnd.randrange(1000)}) + "\n")
    customers = os.path.join(d, "customers.json")
    with open(customers, "w") as f:
        for c in rnd.sample(range(1100), CUSTOMERS):
            f.write(json.dumps({"cid": c, "name": "c%d" % c, "region": ["EU", "US", "APAC", None][c % 4]}) + "\n")
    return orders, customers


QUERIES = [
    # (SQL, ordered)
    ("SELECT store, COUNT(*) AS n, SUM(qty) AS q, MIN(price) AS lo, MAX(price) AS hi FROM orders GROUP BY store", False),
    ("SELECT store, COUNT(DISTINCT cust) AS d, SUM(qty) FILTER (WHERE price > 50) AS q FROM orders GROUP BY store", False),
    ("SELECT COUNT(*) AS n, SUM(qty) AS q, COUNT(store) AS s FROM orders", False),
    ("SELECT n, COUNT(*) AS c FROM (SELECT store, COUNT(*) AS n FROM orders GROUP BY store) GROUP BY n", False),
    ("SELECT o.id, o.store, c.name FROM orders o JOIN customers c ON o.cust = c.cid WHERE o.qty > 45", False),
    ("SELECT o.id, c.name FROM orders o LEFT JOIN customers c ON o.cust = c.cid WHERE o.id < 3000", False),
    ("SELECT c.cid, o.id FROM orders o RIGHT JOIN customers c ON o.cust = c.cid AND o.qty > 48", False),
    ("SELECT o.id, c.cid FROM (SELECT * FROM orders WHERE id < 2000) o FULL OUTER JOIN "
     "(SELECT * FROM customers WHERE cid < 500) c ON o.cust = c.cid", False),
    ("SELECT c.region, COUNT(*) AS n, SUM(o.qty) AS q FROM orders o JOIN customers c ON o.cust = c.cid GROUP BY c.region",
     False),
    ("SELECT store, id, price, rn FROM (SELECT store, id, price, ROW_NUMBER() OVER (PARTITION BY store ORDER BY "
     "price DESC, id) AS rn FROM orders WHERE store IS NOT NULL) WHERE rn <= 3", False),
    ("SELECT cust, id FROM (SELECT cust, id, RANK() OVER (PARTITION BY cust ORDER BY qty DESC) AS r FROM orders) "
     "WHERE r = 1", False),
    ("SELECT id, store, price FROM orders WHERE qty > 40 ORDER BY price DESC, id", True),
    ("SELECT id, qty FROM orders ORDER BY qty NULLS FIRST, id LIMIT 50", True),
    ("SELECT store, SUM(qty) AS q FROM orders WHERE store IS NOT NULL GROUP BY store ORDER BY q DESC, store LIMIT 10",
     True),
]


# Joins run once more as SortMergeJoin (some only here: self-joins on a nullable, duplicated key).
SMJ_QUERIES = [q for q in QUERIES if " JOIN " in q[0] or " IN (" in q[0]] + [
    ("SELECT a.id, b.id FROM orders a JOIN orders b ON a.store = b.store WHERE a.id < 400 AND b.id < 400", False),
    ("SELECT a.id, b.id FROM (SELECT * FROM orders WHERE id < 600) a FULL OUTER JOIN "
     "(SELECT * FROM orders WHERE id >= 300 AND id < 900) b ON a.store = b.store AND a.qty = b.qty", False),
    ("SELECT a.id, b.id, b.price FROM (SELECT * FROM orders WHERE id < 500) a LEFT JOIN "
     "(SELECT * FROM orders WHERE id < 500) b ON a.cust = b.cust AND a.price < b.price", False),
    ("SELECT id FROM orders WHERE cust IN (SELECT cid FROM customers WHERE region = 'EU')", False),
    ("SELECT id FROM orders o WHERE NOT EXISTS (SELECT * FROM customers c WHERE c.cid = o.cust AND c.region <> 'US')",
     False),
    ("SELECT a.store, COUNT(*) AS n, MAX(b.id) AS m FROM (SELECT * FROM orders WHERE id < 3000) a JOIN "
     "(SELECT * FROM orders WHERE id < 3000) b ON a.store = b.store AND a.cust % 10 = b.cust % 10 GROUP BY a.store",
     False),
    ("SELECT c.name, o.id FROM customers c LEFT JOIN orders o ON c.cid = o.cust AND o.qty IS NULL", False),
]
SMJ = "SET 'table.exec.disabled-operators' = 'HashJoin';\n"


def norm(v):
    if isinstance(v, float):
        return None if math.isnan(v) else round(v, 6)
    if isinstance(v, str):
        try:
            f = float(v)
            return round(f, 6) if "." in v else v
        except ValueError:
            return v
    return v


def sluice_rows(binary, ddl, sql, settings=""):
    script = "SET 'execution.runtime-mode' = 'batch';\n" + settings + ddl + sql + ";\n"
    out = subprocess.run([binary, "run", "--format", "jsonl", "-e", script], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("sluice failed on %s:\n%s\n%s" % (sql, out.stdout, out.stderr))
    rows = []
    for line in out.stdout.splitlines():
        if not line.startswith("{"):
            continue
        rec = json.loads(line)
        op = rec.pop("op")
        if op != "+I":
            sys.exit("FAILED: %s: a batch job emitted %s %s" % (sql, op, line))
        rows.append(tuple(norm(v) for v in rec.values()))
    return rows


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        orders, customers = write_files(d)
        ddl = ("CREATE TABLE orders (id BIGINT, store STRING, qty INT, price DOUBLE, cust INT) WITH "
               "('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');\n"
               "CREATE TABLE customers (cid INT, name STRING, region STRING) WITH "
               "('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');\n" % (orders, customers))
        con = duckdb.connect()
        con.execute("CREATE TABLE orders AS SELECT * FROM read_json('%s', columns = {id: 'BIGINT', store: 'VARCHAR', "
                    "qty: 'INTEGER', price: 'DOUBLE', cust: 'INTEGER'})" % orders)
        con.execute("CREATE TABLE customers AS SELECT * FROM read_json('%s', columns = {cid: 'INTEGER', "
                    "name: 'VARCHAR', region: 'VARCHAR'})" % customers)
        failed = 0
        runs = [(sql, ordered, "") for sql, ordered in QUERIES] + [(sql, ordered, SMJ) for sql, ordered in SMJ_QUERIES]
        for sql, ordered, settings in runs:
            if settings:
                plan = subprocess.run([binary, "run", "-e", "SET 'execution.runtime-mode' = 'batch';\n" + settings +
                                       ddl + "EXPLAIN " + sql + ";\n"], capture_output=True, text=True).stdout
                if "SortMergeJoin(" not in plan or "HashJoin(" in plan:
                    sys.exit("FAILED: %s is not planned as a SortMergeJoin:\n%s" % (sql, plan))
            got = sluice_rows(binary, ddl, sql, settings)
            want = [tuple(norm(v) for v in r) for r in con.execute(sql).fetchall()]
            key = lambda r: tuple((v is None, str(type(v)), v if v is not None else 0) for v in r)
            same = got == want if ordered else sorted(got, key=key) == sorted(want, key=key)
            print("%-4s %6d rows  %s%s" % ("ok" if same else "DIFF", len(got), "[SortMergeJoin] " if settings else "", sql))
            if not same:
                failed += 1
                print("  sluice (first 5): %s\n  duckdb (first 5): %s" % (got[:5], want[:5]))
        if failed:
            sys.exit("FAILED: %d of %d queries differ from DuckDB" % (failed, len(runs)))
        print("all %d queries match DuckDB" % len(runs))


if __name__ == "__main__":
    main()
