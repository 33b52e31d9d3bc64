#!/usr/bin/env python3
"""avro-confluent on the real broker with a schema registry, against Apache Avro's Java library
(tests/interop/avro/AvroRegistryCheck.java, compiled at test time). Run inside both wrappers:

  kafka_broker.sh registry.sh python3 kafka_avro_registry_test.py SLUICE [CASE...]

  sink       Sluice writes avro-confluent records (the schema registered under '<topic>-value'); the Java
             consumer fetches the writer schema by id and decodes every value, logical types included
  source     records the Java producer writes with two writer schemas (one with an extra field and without a
             column the table's reader schema gives a default; one with an int for the BIGINT column) are
             read by Sluice through Avro's schema resolution
  debezium   Sluice writes an updating query's changelog with 'debezium-avro-confluent'; Java decodes the
             envelopes (op 'c' with "after", op 'd' with "before") and Sluice reads them back as a changelog
  bad_ids    a record with a schema id the registry does not know fails the query naming topic, partition
             and offset; with 'value.avro-confluent.ignore-parse-errors' it is skipped
"""
import json
import os
import subprocess
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kafka_tools as kb  # noqa: E402  (helpers: run, tool, create_topic, sluice, csv_rows, check)

REGISTRY = os.environ["SLUICE_REGISTRY_URL"]
AVRO_CP = subprocess.run(["bash", os.path.join(HERE, "..", "..", "scripts", "install-avro-java.sh")],
                         capture_output=True, text=True, check=True).stdout.strip()
CP = None  # the Kafka client, Avro and the compiled check


def java(*args, stdin=None, check=True):
    return kb.run(kb.JAVA + ["-cp", CP, "AvroRegistryCheck"] + list(args), stdin=stdin, check=check)


def table(name, topic, columns, fmt="avro-confluent", **opts):
    o = {"value.format": fmt, "value.%s.url" % fmt: REGISTRY,
         "scan.startup.mode": "earliest-offset", "scan.bounded.mode": "latest-offset"}
    o.update(opts)
    return kb.kafka_table(name, topic, columns, **o)


def test_sink():
    kb.create_topic("avro-out", 1)
    sql = table("out_t", "avro-out",
                "id BIGINT NOT NULL, name STRING, price DECIMAL(10, 2), d DATE, t TIME(3), ts TIMESTAMP(3), "
                "tags ARRAY<STRING>, r ROW<a INT, b STRING>")
    sql += ("INSERT INTO out_t VALUES (1, 'é', 187.25, DATE '2026-08-15', TIME '09:30:00.125', "
            "TIMESTAMP '2026-08-15 05:00:00.123', ARRAY['x', 'y'], CAST(ROW(7, 'seven') AS ROW<a INT, b STRING>)), "
            "(2, CAST(NULL AS STRING), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS DATE), CAST(NULL AS TIME(3)), "
            "CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS ARRAY<STRING>), CAST(NULL AS ROW<a INT, b STRING>));\n")
    kb.sluice(sql)
    out = java("consume", kb.BOOTSTRAP, "avro-out", "2", REGISTRY).stdout.splitlines()
    kb.check("sink: Java decodes Sluice's records", out, [
        '1|{"id": 1, "name": "é", "price": 187.25, "d": "2026-08-15", "t": "09:30:00.125", '
        '"ts": "2026-08-15T05:00:00.123Z", "tags": ["x", "y"], "r": {"a": 7, "b": "seven"}}',
        '1|{"id": 2, "name": null, "price": null, "d": null, "t": null, "ts": null, "tags": null, "r": null}'])
    subjects = json.load(urllib.request.urlopen(REGISTRY + "/subjects"))
    kb.check("sink: subject <topic>-value", "avro-out-value" in subjects, True)


V1 = {"type": "record", "name": "v1", "namespace": "java", "fields": [
    {"name": "id", "type": "long"}, {"name": "name", "type": ["null", "string"], "default": None},
    {"name": "note", "type": "string"}]}
V2 = {"type": "record", "name": "v2", "namespace": "java", "fields": [
    {"name": "qty", "type": "int"}, {"name": "id", "type": "int"}, {"name": "name", "type": ["null", "string"]}]}
READER = {"type": "record", "name": "reader", "fields": [
    {"name": "id", "type": "long"}, {"name": "name", "type": ["null", "string"], "default": None},
    {"name": "qty", "type": "int", "default": 7}]}


def test_source():
    kb.create_topic("avro-in", 1)
    java("produce", kb.BOOTSTRAP, "avro-in", REGISTRY, "avro-in-value", json.dumps(V1),
         stdin='{"id": 1, "name": {"string": "one"}, "note": "x"}\n{"id": 2, "name": null, "note": "y"}\n')
    java("produce", kb.BOOTSTRAP, "avro-in", REGISTRY, "avro-in-value", json.dumps(V2),
         stdin='{"qty": 30, "id": 3, "name": {"string": "three"}}\n')
    sql = table("in_t", "avro-in", "id BIGINT NOT NULL, name STRING, qty INT NOT NULL",
                **{"value.avro-confluent.schema": json.dumps(READER)})
    sql += "SELECT id, name, qty FROM in_t;\n"
    rows = kb.csv_rows(kb.sluice(sql).stdout)
    kb.check("source: evolved writer schemas resolve", rows, ["+I,1,one,7", "+I,2,,7", "+I,3,three,30"])


def test_bad_ids():
    kb.create_topic("avro-bad", 1)
    schema = {"type": "record", "name": "r", "fields": [{"name": "id", "type": "long"}]}
    java("produce", kb.BOOTSTRAP, "avro-bad", REGISTRY, "avro-bad-value", json.dumps(schema), stdin='{"id": 1}\n')
    java("produce-id", kb.BOOTSTRAP, "avro-bad", "999", json.dumps(schema), stdin='{"id": 2}\n')
    java("produce", kb.BOOTSTRAP, "avro-bad", REGISTRY, "avro-bad-value", json.dumps(schema), stdin='{"id": 3}\n')
    p = kb.sluice(table("bad_t", "avro-bad", "id BIGINT NOT NULL") + "SELECT id FROM bad_t;\n", check=False)
    kb.check("bad_ids: the error names topic, partition and offset",
             p.returncode != 0 and "at topic 'avro-bad' partition 0 offset 1: the schema id 999 is unknown" in p.stderr + p.stdout,
             True)
    sql = table("skip_t", "avro-bad", "id BIGINT NOT NULL", **{"value.avro-confluent.ignore-parse-errors": "true"})
    rows = kb.csv_rows(kb.sluice(sql + "SELECT id FROM skip_t;\n").stdout)
    kb.check("bad_ids: skipped with ignore-parse-errors", rows, ["+I,1", "+I,3"])


def test_debezium():
    kb.create_topic("avro-dbz", 1)
    sql = table("dbz_t", "avro-dbz", "name STRING, n BIGINT", fmt="debezium-avro-confluent")
    sql += ("INSERT INTO dbz_t SELECT name, COUNT(*) FROM (VALUES ('a'), ('b'), ('a')) AS t(name) GROUP BY name;\n")
    kb.sluice(sql)
    out = java("consume", kb.BOOTSTRAP, "avro-dbz", "4", REGISTRY).stdout.splitlines()
    envelopes = sorted(l.split("|", 1)[1] for l in out)
    kb.check("debezium: Java decodes the envelopes", envelopes, sorted([
        '{"before": null, "after": {"name": "a", "n": 1}, "op": "c"}',
        '{"before": null, "after": {"name": "b", "n": 1}, "op": "c"}',
        '{"before": {"name": "a", "n": 1}, "after": null, "op": "d"}',
        '{"before": null, "after": {"name": "a", "n": 2}, "op": "c"}']))
    read = table("dbz_r", "avro-dbz", "name STRING, n BIGINT", fmt="debezium-avro-confluent")
    rows = kb.csv_rows(kb.sluice(read + "SELECT name, n FROM dbz_r;\n").stdout)
    kb.check("debezium: Sluice reads the changelog back", rows, ["+I,a,1", "+I,b,1", "-D,a,1", "+I,a,2"])


def main():
    global CP
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        kb.TMP = tmp
        cp = kb.CP + os.pathsep + os.path.join(AVRO_CP, "*")
        kb.run(["javac", "-cp", cp, "-d", tmp, os.path.join(HERE, "avro", "AvroRegistryCheck.java")])
        CP = cp + os.pathsep + tmp
        cases = {"sink": test_sink, "source": test_source, "debezium": test_debezium, "bad_ids": test_bad_ids}
        only = sys.argv[2:]
        for name, t in cases.items():
            if only and name not in only:
                continue
            try:
                t()
            except Exception as e:
                print("FAIL %s: %s" % (name, e))
                kb.failures.append(name)
    if kb.failures:
        print("%d failure(s)" % len(kb.failures))
        return 1
    print("all avro-confluent registry checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
