#!/usr/bin/env python3
"""Checks Sluice-written Iceberg manifests and manifest lists with fastavro against Java-written ones.

  iceberg_manifest_check.py VECTORS DIR

DIR holds v2-manifest.avro, v2-list.avro, v3-manifest.avro, v3-list.avro written by
tests/unit/connectors/iceberg_manifest_interop_test.cc for table schema (id int, name string, bir date)
partitioned by identity(name), snapshot 42 with sequence number 1. Each file must: read with fastavro;
carry the header keys the spec requires; and have, for every field of the Java-written file of the same
kind (VECTORS), a field of the same name, field-id and type shape (docs aside), plus field ids on every
field; the v2 files' avro.schema and iceberg.schema equal Java's (docs aside). Then PyIceberg's own
manifest reader reads each list and its manifest, with inheritance.
"""
import json
import sys

import fastavro

JAVA = {
    "v2-manifest": "duckdb-iceberg/equality_deletes/mytable_partitioned/metadata/2b5d4ce3-154e-4498-a648-89be96ebd74a-m0.avro",
    "v2-list": "duckdb-iceberg/equality_deletes/mytable_partitioned/metadata/"
               "snap-3138177759849079112-1-ff275eec-b23b-435f-a6a5-1ab7ce1c8749.avro",
    "v3-manifest": "deletion-vectors/spark-deletion_vector_sample/metadata/8dd06abb-849d-4422-9515-8e68f1bafea1-m0.avro",
    "v3-list": "deletion-vectors/spark-deletion_vector_sample/metadata/"
               "snap-8122216072706851001-1-a2b5890a-4c9d-427f-9434-b7100abddc2f.avro",
}
MANIFEST_KEYS = {"schema", "schema-id", "partition-spec", "partition-spec-id", "format-version", "content",
                 "iceberg.schema"}
LIST_KEYS = {"snapshot-id", "parent-snapshot-id", "sequence-number", "format-version", "iceberg.schema"}


def read(path):
    with open(path, "rb") as f:
        r = fastavro.reader(f)
        return r.metadata, json.loads(r.metadata["avro.schema"]), list(r)


def shape(t):
    """A type without docs, defaults and record contents (records compare field by field)."""
    if isinstance(t, list):
        return [shape(b) for b in t]
    if isinstance(t, dict):
        out = {k: v for k, v in t.items() if k not in ("doc", "fields", "items", "default")}
        if "items" in t:
            out["items"] = shape(t["items"])
        return out
    return t


def compare(ours, java, path, failures, skip_partition):
    if isinstance(java, list) and isinstance(ours, list):
        if len(java) != len(ours):
            failures.append("%s: union %r vs Java %r" % (path, shape(ours), shape(java)))
            return
        for i, (o, j) in enumerate(zip(ours, java)):
            compare(o, j, "%s[%d]" % (path, i), failures, skip_partition)
        return
    if isinstance(java, dict) and isinstance(ours, dict) and java.get("type") == "array" and ours.get("type") == "array":
        for k in ("element-id", "logicalType"):
            if java.get(k) != ours.get(k):
                failures.append("%s: %s %r vs Java %r" % (path, k, ours.get(k), java.get(k)))
        compare(ours["items"], java["items"], path + "[]", failures, skip_partition)
        return
    if isinstance(java, dict) and java.get("type") == "record":
        if not isinstance(ours, dict) or ours.get("type") != "record":
            failures.append("%s: %r vs Java record" % (path, shape(ours)))
            return
        if ours["name"] != java["name"]:
            failures.append("%s: record name %s vs Java %s" % (path, ours["name"], java["name"]))
        if skip_partition and java["name"] == "r102":
            return
        mine = {f["name"]: f for f in ours["fields"]}
        for f in ours["fields"]:
            if "field-id" not in f:
                failures.append("%s.%s: no field-id" % (path, f["name"]))
        for jf in java["fields"]:
            of = mine.get(jf["name"])
            if of is None:
                failures.append("%s: missing field %s" % (path, jf["name"]))
                continue
            if of.get("field-id") != jf.get("field-id"):
                failures.append("%s.%s: field-id %r vs Java %r" % (path, jf["name"], of.get("field-id"), jf.get("field-id")))
            if ("default" in of) != ("default" in jf):
                failures.append("%s.%s: default differs" % (path, jf["name"]))
            compare(of["type"], jf["type"], path + "." + jf["name"], failures, skip_partition)
        return
    if shape(ours) != shape(java):
        failures.append("%s: %r vs Java %r" % (path, shape(ours), shape(java)))


def strip_docs(o):
    if isinstance(o, dict):
        return {k: strip_docs(v) for k, v in o.items() if k != "doc"}
    if isinstance(o, list):
        return [strip_docs(x) for x in o]
    return o


def main(vectors, d):
    failures = []
    for name, java_path in JAVA.items():
        meta, schema, records = read("%s/%s.avro" % (d, name))
        jmeta, jschema, _ = read("%s/%s" % (vectors, java_path))
        keys = MANIFEST_KEYS if "manifest" in name else LIST_KEYS
        if name == "v3-list":
            keys = keys | {"first-row-id"}
        for k in keys:
            if k not in meta:
                failures.append("%s: header key %s missing (have %s)" % (name, k, sorted(meta)))
        for k in keys & set(jmeta):
            if k in ("format-version", "content", "partition-spec-id") and meta.get(k) != jmeta[k]:
                failures.append("%s: header %s=%r, Java %r" % (name, k, meta.get(k), jmeta[k]))
        # The v3 Java vector is unpartitioned; its partition record is compared in v2 only.
        compare(schema, jschema, name, failures, skip_partition=name.startswith("v3"))
        # Java's v2 files (same table schema and spec) have exactly these schemas, docs aside.
        if name.startswith("v2"):
            for key in ("avro.schema", "iceberg.schema"):
                if strip_docs(json.loads(meta[key])) != strip_docs(json.loads(jmeta[key])):
                    failures.append("%s: %s differs from Java's" % (name, key))
        if not records:
            failures.append("%s: no records" % name)
        if "manifest" in name:
            spec = json.loads(meta["partition-spec"])
            if spec != [{"name": "name", "transform": "identity", "source-id": 2, "field-id": 1000}]:
                failures.append("%s: partition-spec %r" % (name, spec))
            if json.loads(meta["schema"])["fields"][1]["name"] != "name":
                failures.append("%s: schema %r" % (name, meta["schema"]))
            first = records[0]
            if first["sequence_number"] is not None or first["status"] != 1 or first["data_file"]["partition"] != {"name": "a"}:
                failures.append("%s: first entry %r" % (name, first))
        else:
            if records[0]["sequence_number"] != int(meta["sequence-number"]):
                failures.append("%s: manifest sequence number %r" % (name, records[0]["sequence_number"]))
    failures += pyiceberg_check(d)
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("ok: %d Sluice files match the Java-written schemas; PyIceberg reads them" % len(JAVA))


def pyiceberg_check(d):
    from pyiceberg.io.pyarrow import PyArrowFileIO
    from pyiceberg.manifest import ManifestEntryStatus, read_manifest_list

    io = PyArrowFileIO()
    failures = []
    for v in (2, 3):
        manifests = list(read_manifest_list(io.new_input("%s/v%d-list.avro" % (d, v))))
        if len(manifests) != 1 or manifests[0].sequence_number != 1 or manifests[0].added_files_count != 2:
            failures.append("pyiceberg v%d list: %r" % (v, manifests))
            continue
        entries = manifests[0].fetch_manifest_entry(io, discard_deleted=False)
        got = [(e.status, e.snapshot_id, e.sequence_number, e.file_sequence_number, e.data_file.partition[0],
                e.data_file.record_count, e.data_file.lower_bounds[2]) for e in entries]
        want = [(ManifestEntryStatus.ADDED, 42, 1, 1, n, 1, n.encode()) for n in ("a", "b")]
        if got != want:
            failures.append("pyiceberg v%d manifest: %r" % (v, got))
    return failures


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
