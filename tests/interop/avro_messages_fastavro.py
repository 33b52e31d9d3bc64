#!/usr/bin/env python3
"""fastavro as the independent decoder and encoder of Avro messages (tests/unit/formats/avro_messages_interop_test.cc):
the 'avro' format (a bare datum) and 'avro-confluent' (0, 4-byte big-endian schema id, datum).

  avro_messages_fastavro.py check DIR   reads DIR/sluice-<avro|confluent>.bin (records written by Sluice with
                                        DIR/sluice-schema.json) and checks every value, logical types converted
  avro_messages_fastavro.py write DIR   writes DIR/fastavro-confluent.bin with the writer schema WRITER (id 5,
                                        saved as DIR/fastavro-schema.json): a field Sluice's table lacks, one it
                                        has that the writer lacks, an int for a BIGINT column

A .bin file is records, each a 4-byte big-endian length and the record. Row i is a formula of i, computed the
same way by the C++ test.
"""
import datetime
import decimal
import io
import json
import os
import struct
import sys

import fastavro

N = 50
UTC = datetime.timezone.utc
EPOCH = datetime.datetime(1970, 1, 1)


def value(i):
    """Row i as fastavro reads it (logical types converted)."""
    return {
        "id": i * 1000003 - 7,
        "flag": i % 2 == 0,
        "small": i - 25,
        "ratio": i / 4.0,
        "score": i * 1.5 - 0.25,
        "name": None if i % 5 == 0 else "n-%d-é" % i,
        "blob": bytes([i % 256, (i * 7) % 256, 10]),
        "price": None if i % 7 == 0 else decimal.Decimal(i * 12345 - 50000).scaleb(-2),
        "day": datetime.date(1970, 1, 1) + datetime.timedelta(days=19000 + i - 25),
        "tod": (datetime.datetime(2000, 1, 1) + datetime.timedelta(milliseconds=(i * 3723123) % 86400000)).time(),
        "ts3": EPOCH + datetime.timedelta(milliseconds=i * 1234567891 - 10**12),
        "ts6": EPOCH + datetime.timedelta(microseconds=i * 987654321123 - 10**15),
        "ltz3": datetime.datetime.fromtimestamp(0, UTC) + datetime.timedelta(milliseconds=i * 7654321 + 1),
        "ltz6": datetime.datetime.fromtimestamp(0, UTC) + datetime.timedelta(microseconds=i * 7654321123 - 3),
        "tags": ["t%d" % j for j in range(i % 4)],
        "attrs": {"k%d" % j: j * i for j in range(i % 3)},
        "r": None if i % 6 == 0 else {"a": i, "b": None if i % 4 == 0 else "b%d" % i},
    }


# What fastavro writes for the C++ test to read: 'note' is not a column, 'name' is missing (NULL for
# the table), 'id' is an int (the column is BIGINT), the fields come in another order.
WRITER = {
    "type": "record", "name": "written_by_fastavro", "namespace": "interop",
    "fields": [
        {"name": "note", "type": "string"},
        {"name": "score", "type": "double"},
        {"name": "id", "type": "int"},
        {"name": "price", "type": ["null", {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}]},
        {"name": "ts6", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
        {"name": "ltz3", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
    ],
}


def read_bin(path):
    out = []
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        out.append(data[pos + 4:pos + 4 + n])
        pos += 4 + n
    return out


def write_bin(path, records):
    with open(path, "wb") as f:
        for r in records:
            f.write(struct.pack(">I", len(r)))
            f.write(r)


def close(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1e-6 * max(1.0, abs(b))
    return a == b


def check(d):
    with open(os.path.join(d, "sluice-schema.json")) as f:
        schema_json = json.load(f)
    schema = fastavro.parse_schema(schema_json)
    errors = []
    for kind in ("avro", "confluent"):
        records = read_bin(os.path.join(d, "sluice-%s.bin" % kind))
        if len(records) != N:
            errors.append("%s: %d records, expected %d" % (kind, len(records), N))
            continue
        for i, rec in enumerate(records):
            if kind == "confluent":
                if rec[0] != 0 or struct.unpack(">i", rec[1:5])[0] != 7:
                    errors.append("confluent record %d: bad header %r" % (i, rec[:5]))
                    continue
                rec = rec[5:]
            buf = io.BytesIO(rec)
            got = fastavro.schemaless_reader(buf, schema)
            if buf.tell() != len(rec):
                errors.append("%s record %d: %d trailing bytes" % (kind, i, len(rec) - buf.tell()))
            want = value(i)
            for k, v in want.items():
                if not close(got.get(k), v):
                    errors.append("%s record %d field %s: got %r, expected %r" % (kind, i, k, got.get(k), v))
    if errors:
        print("\n".join(errors[:30]))
        return 1
    print("fastavro read %d records of each kind" % N)
    return 0


def write(d):
    schema = fastavro.parse_schema(WRITER)
    records = []
    for i in range(N):
        v = value(i)
        row = {k: v[k] for k in ("score", "id", "price", "ts6", "ltz3", "day", "tags")}
        row["note"] = "ignored-%d" % i
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, schema, row)
        records.append(b"\x00" + struct.pack(">i", 5) + buf.getvalue())
    write_bin(os.path.join(d, "fastavro-confluent.bin"), records)
    with open(os.path.join(d, "fastavro-schema.json"), "w") as f:
        json.dump(WRITER, f)
    return 0


if __name__ == "__main__":
    sys.exit({"check": check, "write": write}[sys.argv[1]](sys.argv[2]))
