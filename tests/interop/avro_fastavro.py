#!/usr/bin/env python3
"""fastavro as the independent reader and writer of Avro container files (tests/unit/formats/avro_interop_test.cc).

  avro_fastavro.py write DIR   writes DIR/fastavro-<codec>.avro for every codec, records from rows()
  avro_fastavro.py check DIR   reads DIR/sluice-<codec>.avro with fastavro and checks records, schema and header

The records are a formula of their index, computed the same way by the C++ test.
"""
import json
import os
import struct
import sys

import fastavro

CODECS = ["null", "deflate", "snappy", "zstandard"]
COLORS = ["RED", "GREEN", "BLUE"]
SCHEMA = {
    "type": "record", "name": "interop", "namespace": "sluice.test",
    "fields": [
        {"name": "id", "type": "long", "field-id": 1},
        {"name": "flag", "type": "boolean", "field-id": 2},
        {"name": "small", "type": "int", "field-id": 3},
        {"name": "ratio", "type": "float", "field-id": 4},
        {"name": "score", "type": "double", "field-id": 5},
        {"name": "name", "type": ["null", "string"], "default": None, "field-id": 6},
        {"name": "blob", "type": "bytes", "field-id": 7},
        {"name": "color", "type": {"type": "enum", "name": "color", "symbols": COLORS}, "field-id": 8},
        {"name": "tags", "type": {"type": "array", "items": "string", "element-id": 10}, "field-id": 9},
        {"name": "attrs", "type": {"type": "map", "values": "long"}, "field-id": 11},
        {"name": "fx", "type": {"type": "fixed", "name": "four", "size": 4}, "field-id": 12},
        {"name": "pairs", "type": ["null", {"type": "array", "items": {"type": "record", "name": "k117_v118",
                                   "fields": [{"name": "key", "type": "int", "field-id": 117},
                                              {"name": "value", "type": "long", "field-id": 118}]},
                                   "logicalType": "map"}], "default": None, "field-id": 13},
    ],
}
META = {"format-version": "2", "schema-id": "0", "content": "data"}


def rows(n=300):
    out = []
    for i in range(n):
        out.append({
            "id": i * 1000003 - 7, "flag": i % 2 == 0, "small": i - 150, "ratio": i / 4.0, "score": i * 1.5 - 0.25,
            "name": None if i % 5 == 0 else "n-%d-é" % i, "blob": bytes([i % 256, (i * 7) % 256]),
            "color": COLORS[i % 3], "tags": ["t%d" % j for j in range(i % 4)],
            "attrs": {"k%d" % j: j * i for j in range(i % 3)}, "fx": struct.pack("<I", i),
            "pairs": None if i % 4 == 0 else [{"key": j, "value": -j} for j in range(i % 3)],
        })
    return out


def write(d):
    parsed = fastavro.parse_schema(SCHEMA)
    for codec in CODECS:
        with open(os.path.join(d, "fastavro-%s.avro" % codec), "wb") as f:
            fastavro.writer(f, parsed, rows(), codec=codec, sync_interval=500, metadata=META)


def check(d):
    failures = []
    for codec in CODECS:
        path = os.path.join(d, "sluice-%s.avro" % codec)
        with open(path, "rb") as f:
            reader = fastavro.reader(f)
            got = list(reader)
            meta = reader.metadata
        if reader.codec != codec:
            failures.append("%s: codec %s" % (path, reader.codec))
        for k, v in META.items():
            if meta.get(k) != v:
                failures.append("%s: header %s=%r" % (path, k, meta.get(k)))
        schema = json.loads(meta["avro.schema"])
        if schema["fields"][11]["field-id"] != 13 or schema["fields"][8]["type"].get("element-id") != 10:
            failures.append("%s: field ids lost in %s" % (path, meta["avro.schema"]))
        want = rows()
        if got != want:
            bad = next(i for i in range(min(len(got), len(want))) if got[i] != want[i]) if got and want else 0
            failures.append("%s: %d records, first difference at %d: %r vs %r" %
                            (path, len(got), bad, got[bad] if got else None, want[bad]))
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("ok: fastavro read %d files" % len(CODECS))


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
