#!/usr/bin/env python3
"""pyroaring as the independent reader and writer of Iceberg deletion vectors
(tests/unit/connectors/deletion_vector_interop_test.cc).

  dv_pyroaring.py write DIR   writes DIR/pyroaring-<name>.bin (64-bit portable Roaring) and .dv
                              (the deletion-vector-v1 blob: length, magic, vector, CRC-32)
  dv_pyroaring.py check DIR   reads DIR/sluice-<name>.bin and .dv and checks their positions; then
                              reads DIR/sluice.puffin (one deletion-vector-v1 blob per non-empty set, referenced
                              data file "file:///data/<name>.parquet") with PyIceberg's Puffin reader

The position sets are formulas, computed the same way by the C++ test.
"""
import struct
import sys
import zlib

from pyroaring import BitMap64

MAGIC = bytes([0xD1, 0xD3, 0x39, 0x64])


def sets():
    runs = BitMap64(range(0, 100000, 3))
    runs.update(range(2**32 + 5, 2**32 + 70005))
    runs.update([2**40, 2**40 + 1])
    runs.update(range(500000, 600000))
    return {
        "empty": BitMap64(),
        "small": BitMap64([0, 1, 7, 65535, 65536, 2**31, 2**33 + 9]),
        "runs": runs,
    }


def blob(vector):
    body = MAGIC + vector
    return struct.pack(">I", len(body)) + body + struct.pack(">I", zlib.crc32(body))


def write(d):
    for name, bm in sets().items():
        bm.run_optimize()
        vector = bm.serialize()
        open("%s/pyroaring-%s.bin" % (d, name), "wb").write(vector)
        open("%s/pyroaring-%s.dv" % (d, name), "wb").write(blob(vector))


def check(d):
    failures = []
    for name, want in sets().items():
        vector = open("%s/sluice-%s.bin" % (d, name), "rb").read()
        got = BitMap64.deserialize(vector)
        if got != want:
            failures.append("%s.bin: %d positions, want %d" % (name, len(got), len(want)))
        dv = open("%s/sluice-%s.dv" % (d, name), "rb").read()
        (length,) = struct.unpack(">I", dv[:4])
        body = dv[4:4 + length]
        if length + 8 != len(dv) or body[:4] != MAGIC:
            failures.append("%s.dv: bad framing" % name)
        elif struct.unpack(">I", dv[4 + length:])[0] != zlib.crc32(body):
            failures.append("%s.dv: CRC mismatch" % name)
        elif BitMap64.deserialize(body[4:]) != want:
            failures.append("%s.dv: positions differ" % name)
    failures += pyiceberg_check(d)
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("ok: pyroaring read %d deletion vectors; PyIceberg read the Puffin file" % len(sets()))


def pyiceberg_check(d):
    from pyiceberg.table.deletion_vector import deletion_vectors_from_puffin_file
    from pyiceberg.table.puffin import PuffinFile

    puffin = PuffinFile(open("%s/sluice.puffin" % d, "rb").read())
    got = {dv.referenced_data_file: dv.to_vector().to_pylist() for dv in deletion_vectors_from_puffin_file(puffin)}
    want = {"file:///data/%s.parquet" % name: list(bm) for name, bm in sets().items() if bm}
    failures = []
    if got.keys() != want.keys():
        failures.append("sluice.puffin: blobs for %s" % sorted(got))
    for k in want.keys() & got.keys():
        if got[k] != want[k]:
            failures.append("sluice.puffin %s: %d positions, want %d" % (k, len(got[k]), len(want[k])))
    for blob in puffin.footer.blobs:
        if blob.fields != [2147483645] or blob.snapshot_id != -1 or blob.properties.get("cardinality") is None:
            failures.append("sluice.puffin: blob metadata %r" % blob)
    return failures


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
