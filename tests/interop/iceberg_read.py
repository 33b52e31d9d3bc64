"""An independent reader of Iceberg tables for tests (issue 16): fastavro for the manifest list and
manifests, pyarrow for Parquet files, and the spec's scan planning for deletes, written from the
spec without Sluice's code:

  - a position delete (file_path, pos) or a deletion vector (Puffin, read with pyroaring) applies to a data file with data sequence number <= the
    delete file's;
  - an equality delete applies to a data file with data sequence number < the delete file's, in the
    same partition (or any partition, for an unpartitioned spec), and deletes every row whose
    equality fields equal the delete row's.

PyIceberg 0.12 refuses tables with equality deletes, so tests read those with this module.

  python iceberg_read.py [--check-checkpoints] <table dir>
      prints the live rows as sorted JSON lines; with --check-checkpoints also a '!! ...' line (and
      exit status 2) for each Flink checkpoint id committed twice by one job and operator (Sluice's
      'position'/'dv' writers commit a checkpoint id reused after a fallback to an older checkpoint
      under a new 'sluice.commit-id'; the same commit id twice is the failure there)
"""
import json
import os
import re
import struct
import sys
import zlib

import fastavro
import pyarrow.parquet as pq
import pyroaring


def local(path):
    for prefix in ("file://", "file:"):
        if path.startswith(prefix):
            return path[len(prefix):]
    return path


def metadata(table_dir):
    """The table's current metadata as Java's HadoopTableOperations finds it: the version in
    version-hint.text, or without a readable hint the highest v<N>.metadata.json; then every newer
    v<N+1> that exists (a committer may have published it and died before updating the hint)."""
    meta = os.path.join(table_dir, "metadata")
    version = None
    try:
        with open(os.path.join(meta, "version-hint.text")) as f:
            version = int(f.read().strip())
    except (OSError, ValueError):
        versions = [int(m.group(1)) for m in (re.fullmatch(r"v(\d+)\.metadata\.json", n) for n in os.listdir(meta)) if m]
        if not versions:
            raise FileNotFoundError("no metadata file in %s" % meta)
        version = max(versions)
    while os.path.exists(os.path.join(meta, "v%d.metadata.json" % (version + 1))):
        version += 1
    with open(os.path.join(meta, "v%d.metadata.json" % version)) as f:
        return json.load(f)


def current_snapshot(md):
    sid = md.get("current-snapshot-id")
    if sid is None or sid == -1:
        return None
    return next(s for s in md["snapshots"] if s["snapshot-id"] == sid)


def ancestry(md):
    """The current snapshot and its ancestors, newest first."""
    by_id = {s["snapshot-id"]: s for s in md.get("snapshots", [])}
    out, s = [], current_snapshot(md)
    while s is not None:
        out.append(s)
        s = by_id.get(s.get("parent-snapshot-id"))
    return out


def read_avro(path):
    with open(local(path), "rb") as f:
        return list(fastavro.reader(f))


def live_files(md):
    """(data entries, delete entries): each entry a dict with the data_file, sequence_number and the
    manifest's spec id, sequence numbers inherited as the spec says."""
    snap = current_snapshot(md)
    data, deletes = [], []
    if snap is None:
        return data, deletes
    for m in read_avro(snap["manifest-list"]):
        for e in read_avro(m["manifest_path"]):
            if e["status"] == 2:
                continue
            seq = e.get("sequence_number")
            if seq is None:
                seq = m["sequence_number"]
            entry = {"file": e["data_file"], "seq": seq, "spec": m["partition_spec_id"]}
            (data if m["content"] == 0 else deletes).append(entry)
    return data, deletes


def norm(v):
    """JSON-comparable values."""
    if isinstance(v, (bytes, bytearray)):
        return v.hex()
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    if hasattr(v, "isoformat"):
        return v.isoformat()
    if v.__class__.__name__ == "Decimal":
        return str(v)
    return v


def dv_positions(f):
    """A deletion vector's positions: [length, BE][magic D1 D3 39 64][64-bit portable Roaring][CRC-32]."""
    with open(local(f["file_path"]), "rb") as fh:
        fh.seek(f["content_offset"])
        blob = fh.read(f["content_size_in_bytes"])
    assert blob[4:8] == bytes([0xD1, 0xD3, 0x39, 0x64]), "not a deletion-vector-v1 blob"
    assert struct.unpack(">I", blob[:4])[0] == len(blob) - 8, "deletion vector length"
    assert struct.unpack(">I", blob[-4:])[0] == zlib.crc32(blob[4:-4]), "deletion vector CRC-32"
    return set(pyroaring.BitMap64.deserialize(blob[8:-4]))


def read_rows(md, field_names=None):
    """The table's live rows (dicts by column name), deletes applied."""
    schema = next(s for s in md["schemas"] if s["schema-id"] == md.get("current-schema-id", 0))
    id_to_name = {f["id"]: f["name"] for f in schema["fields"]}
    specs = {s["spec-id"]: s for s in md.get("partition-specs", [])}
    data, deletes = live_files(md)
    pos_deletes = {}  # data file path -> [(seq, pos)]
    eq_deletes = []   # (seq, spec id, partition, [names], set of tuples)
    for d in deletes:
        f = d["file"]
        if f["file_format"] == "PUFFIN":
            # A deletion vector: [length, BE][magic D1 D3 39 64][64-bit portable Roaring][CRC-32].
            for p in dv_positions(f):
                pos_deletes.setdefault(f["referenced_data_file"], []).append((d["seq"], p))
            continue
        t = pq.read_table(local(f["file_path"])).to_pylist()
        if f["content"] == 1:
            for r in t:
                pos_deletes.setdefault(r["file_path"], []).append((d["seq"], r["pos"]))
        else:
            names = [id_to_name[i] for i in f["equality_ids"]]
            keys = set(tuple(json.dumps(norm(r[n]), sort_keys=True) for n in names) for r in t)
            eq_deletes.append((d["seq"], d["spec"], f["partition"], names, keys))
    rows = []
    for d in data:
        f = d["file"]
        path = f["file_path"]
        dead = set(p for s, p in pos_deletes.get(path, []) if d["seq"] <= s)
        applicable = []
        for s, spec_id, part, names, keys in eq_deletes:
            if d["seq"] >= s:
                continue
            unpartitioned = not specs.get(spec_id, {}).get("fields")
            if not unpartitioned and (spec_id != d["spec"] or part != f["partition"]):
                continue
            applicable.append((names, keys))
        for i, r in enumerate(pq.read_table(local(path)).to_pylist()):
            if i in dead:
                continue
            if any(tuple(json.dumps(norm(r[n]), sort_keys=True) for n in names) in keys for names, keys in applicable):
                continue
            rows.append({k: norm(v) for k, v in r.items()})
    return rows


def sorted_lines(rows):
    return sorted(json.dumps(r, sort_keys=True) for r in rows)


def checkpoint_ids(md):
    """(job id, operator id, checkpoint id) of every snapshot on the current ancestry, oldest first."""
    out = []
    for s in reversed(ancestry(md)):
        summary = s.get("summary", {})
        if "flink.max-committed-checkpoint-id" in summary:
            out.append((summary.get("flink.job-id"), summary.get("flink.operator-id"),
                        int(summary["flink.max-committed-checkpoint-id"])))
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    check = args[0] == "--check-checkpoints"
    md = metadata(args[-1])
    for line in sorted_lines(read_rows(md)):
        print(line)
    if check:
        seen, status = set(), 0
        for s in reversed(ancestry(md)):
            summary = s.get("summary", {})
            if "flink.max-committed-checkpoint-id" not in summary:
                continue
            job, op, ckpt = (summary.get("flink.job-id"), summary.get("flink.operator-id"),
                             int(summary["flink.max-committed-checkpoint-id"]))
            key = (job, op, ckpt, summary.get("sluice.commit-id"))
            if key in seen:
                print("!! checkpoint %d of job %s operator %s committed twice" % (ckpt, job, op))
                status = 2
            seen.add(key)
        sys.exit(status)
