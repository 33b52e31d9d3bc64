#!/usr/bin/env python3
"""Writes Parquet fixtures with pyarrow for Sluice's Parquet reader tests (tests/unit/formats/
parquet_read_interop_test.cc) and, next to each NAME.parquet, NAME.expected: the Sluice schema the
reader should infer on the first line, then one line per row in the canonical text the test prints
(see Canon below). pyarrow is the independent writer; the expectations come from the Python values.

Usage: parquet_read_fixtures.py OUT_DIR
"""
import datetime
import decimal
import os
import sys
import uuid

import pyarrow as pa
import pyarrow.parquet as pq

EPOCH = datetime.datetime(1970, 1, 1)
EPOCH_TZ = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def canon(v, t):
    """The canonical text of value v of pyarrow type t (mirrors Canon() in the C++ test)."""
    if v is None:
        return "null"
    if pa.types.is_boolean(t):
        return "true" if v else "false"
    if pa.types.is_integer(t):
        return str(v)
    if pa.types.is_floating(t):
        return "%.17g" % v
    if pa.types.is_decimal(t):
        return "%dd%d" % (int(v.scaleb(t.scale)), t.scale)
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "s'" + v.encode().hex() + "'"
    if isinstance(t, pa.BaseExtensionType):  # uuid
        return "b'" + v.bytes.hex() + "'"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return "b'" + v.hex() + "'"
    if pa.types.is_date32(t):
        return "d%d" % (v - datetime.date(1970, 1, 1)).days
    if pa.types.is_time(t):
        # Sluice keeps TIME in milliseconds of the day.
        return "t%d" % ((v.hour * 3600 + v.minute * 60 + v.second) * 1000 + v.microsecond // 1000)
    if pa.types.is_timestamp(t):
        # Sluice keeps microseconds; pyarrow gives datetimes (microsecond precision) or pandas-free
        # nanosecond ints for ns (handled by the caller through as_py on int64 casts).
        if isinstance(v, int):
            return "ts%d" % (v // 1000)
        base = EPOCH_TZ if v.tzinfo is not None else EPOCH
        d = v - base
        return "ts%d" % ((d.days * 86400 + d.seconds) * 1000000 + d.microseconds)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return "[" + ",".join(canon(x, t.value_type) for x in v) + "]"
    if pa.types.is_map(t):
        return "{" + ",".join(canon(k, t.key_type) + ":" + canon(x, t.item_type) for k, x in v) + "}"
    if pa.types.is_struct(t):
        return "(" + ",".join(canon(v[f.name], f.type) for f in t) + ")"
    raise TypeError(str(t))


def write(out, name, table, schema_text, **kwargs):
    pq.write_table(table, os.path.join(out, name + ".parquet"), **kwargs)
    rows = []
    cols = []
    for i, f in enumerate(table.schema):
        col = table.column(i)
        if pa.types.is_timestamp(f.type) and f.type.unit == "ns":
            col = col.cast(pa.int64())  # exact nanoseconds, not datetimes
        cols.append(col.to_pylist())
    for r in range(table.num_rows):
        rows.append("|".join(canon(cols[i][r], f.type) for i, f in enumerate(table.schema)))
    with open(os.path.join(out, name + ".expected"), "w") as f:
        f.write(schema_text + "\n")
        for line in rows:
            f.write(line + "\n")


def every_n(values, n):
    """Every n-th value replaced by None."""
    return [None if i % n == n - 1 else v for i, v in enumerate(values)]


def primitives(n):
    ts = [datetime.datetime(2024, 1, 1) + datetime.timedelta(seconds=37 * i, microseconds=i) for i in range(n)]
    return pa.table({
        "b": pa.array(every_n([i % 3 == 0 for i in range(n)], 5), pa.bool_()),
        "i8": pa.array(every_n([(i * 7) % 256 - 128 for i in range(n)], 6), pa.int8()),
        "i16": pa.array(every_n([(i * 911) % 65536 - 32768 for i in range(n)], 7), pa.int16()),
        "i32": pa.array(every_n([i * 104729 - 2**31 + 5 for i in range(n)], 4), pa.int32()),
        "i64": pa.array(every_n([(i * 998244353 * 1000003) % 2**64 - 2**63 for i in range(n)], 3), pa.int64()),
        "u8": pa.array(every_n([(i * 13) % 256 for i in range(n)], 9), pa.uint8()),
        "u16": pa.array([(i * 7919) % 65536 for i in range(n)], pa.uint16()),
        "u32": pa.array([(i * 2654435761) % 2**32 for i in range(n)], pa.uint32()),
        "f32": pa.array(every_n([i * 0.25 - 17.5 for i in range(n)], 8), pa.float32()),
        "f64": pa.array(every_n([i / 7.0 - 1e10 for i in range(n)], 5), pa.float64()),
        "s": pa.array(every_n(["v%d" % (i % 37) + "é" * (i % 3) for i in range(n)], 4), pa.string()),
        "bin": pa.array(every_n([bytes([i % 256, 0, 255]) * (i % 4) for i in range(n)], 6), pa.binary()),
        "fixed": pa.array(every_n([bytes([i % 256] * 3) for i in range(n)], 5), pa.binary(3)),
        "d": pa.array(every_n([datetime.date(2020, 1, 1) + datetime.timedelta(days=i) for i in range(n)], 7),
                      pa.date32()),
        "dec": pa.array(every_n([decimal.Decimal(i * 12345 - 500000).scaleb(-2) for i in range(n)], 5),
                        pa.decimal128(12, 2)),
        "ts": pa.array(every_n(ts, 6), pa.timestamp("us")),
    })


PRIMITIVE_SCHEMA = ("(`b` BOOLEAN, `i8` TINYINT, `i16` SMALLINT, `i32` INT, `i64` BIGINT, `u8` SMALLINT, "
                    "`u16` INT, `u32` BIGINT, `f32` FLOAT, `f64` DOUBLE, `s` STRING, "
                    "`bin` BYTES, `fixed` BINARY(3), `d` DATE, `dec` DECIMAL(12, 2), `ts` TIMESTAMP(6))")


def temporal():
    n = 50
    base = datetime.datetime(2023, 10, 10, 12, 34, 56, 123456)
    ts = [base + datetime.timedelta(hours=i, microseconds=i * 1001) for i in range(n)]
    ts_ms = [t.replace(microsecond=(t.microsecond // 1000) * 1000) for t in ts]
    ns = [int((t - EPOCH).total_seconds()) * 10**9 + t.microsecond * 1000 + i for i, t in enumerate(ts)]
    ns[3] = -1_500_000_001  # before 1970: floor division to microseconds
    return pa.table({
        "ts_ms": pa.array(every_n(ts_ms, 5), pa.timestamp("ms")),
        "ts_us": pa.array(every_n(ts, 5), pa.timestamp("us")),
        "ts_ns": pa.array(every_n(ns, 5), pa.timestamp("ns")),
        "tz_ms": pa.array(every_n([t.replace(tzinfo=datetime.timezone.utc) for t in ts_ms], 4),
                          pa.timestamp("ms", tz="UTC")),
        "tz_us": pa.array([t.replace(tzinfo=datetime.timezone.utc) for t in ts], pa.timestamp("us", tz="UTC")),
        "t_ms": pa.array(every_n([t.time().replace(microsecond=(t.microsecond // 1000) * 1000) for t in ts], 3),
                         pa.time32("ms")),
        "t_us": pa.array([t.time() for t in ts], pa.time64("us")),
        "d": pa.array([t.date() for t in ts], pa.date32()),
    })


TEMPORAL_SCHEMA = ("(`ts_ms` TIMESTAMP(3), `ts_us` TIMESTAMP(6), `ts_ns` TIMESTAMP(9), `tz_ms` TIMESTAMP_LTZ(3), "
                   "`tz_us` TIMESTAMP_LTZ(6), `t_ms` TIME(3), `t_us` TIME(6), `d` DATE)")


def decimals():
    n = 40
    vals = [decimal.Decimal(i * 987654 - 20000000) for i in range(n)]
    return pa.table({
        "d5": pa.array(every_n([v.scaleb(-3) % 100 for v in vals], 4), pa.decimal128(5, 3)),
        "d15": pa.array(every_n([v.scaleb(-4) for v in vals], 5), pa.decimal128(15, 4)),
        "d30": pa.array(every_n([(v * 10**15).scaleb(-6) for v in vals], 3), pa.decimal128(30, 6)),
        "d38": pa.array([(v * 10**28 + 7) for v in vals], pa.decimal128(38, 0)),
    })


DECIMAL_SCHEMA = "(`d5` DECIMAL(5, 3), `d15` DECIMAL(15, 4), `d30` DECIMAL(30, 6), `d38` DECIMAL(38, 0))"


def nested():
    n = 200
    lists, structs, maps, lol, los, sol = [], [], [], [], [], []
    for i in range(n):
        lists.append(None if i % 7 == 3 else [None if (i + k) % 5 == 0 else i * 10 + k for k in range(i % 4)])
        structs.append(None if i % 6 == 2 else {"x": None if i % 4 == 1 else i, "y": "y%d" % i if i % 3 else None})
        maps.append(None if i % 9 == 4 else [("k%d" % k, None if k == 1 else i + k) for k in range(i % 3)])
        lol.append(None if i % 11 == 5 else [None if k == 1 else [i + j for j in range(k)] for k in range(i % 4)])
        los.append([None if k % 3 == 2 else {"a": i + k, "b": [str(k)] * (k % 2)} for k in range(i % 5)])
        sol.append({"tags": None if i % 4 == 0 else ["t%d" % j for j in range(i % 3)],
                    "inner": None if i % 5 == 0 else {"z": float(i) / 2}})
    t = pa.table({
        "id": pa.array(range(n), pa.int32()),
        "l": pa.array(lists, pa.list_(pa.int64())),
        "st": pa.array(structs, pa.struct([("x", pa.int32()), ("y", pa.string())])),
        "m": pa.array(maps, pa.map_(pa.string(), pa.int32())),
        "lol": pa.array(lol, pa.list_(pa.list_(pa.int16()))),
        "los": pa.array(los, pa.list_(pa.struct([("a", pa.int64()), ("b", pa.list_(pa.string()))]))),
        "sol": pa.array(sol, pa.struct([("tags", pa.list_(pa.string())),
                                        ("inner", pa.struct([("z", pa.float64())]))])),
    })
    return t


NESTED_SCHEMA = ("(`id` INT, `l` ARRAY<BIGINT>, `st` ROW<`x` INT, `y` STRING>, `m` MAP<STRING NOT NULL, INT>, "
                 "`lol` ARRAY<ARRAY<SMALLINT>>, `los` ARRAY<ROW<`a` BIGINT, `b` ARRAY<STRING>>>, "
                 "`sol` ROW<`tags` ARRAY<STRING>, `inner` ROW<`z` DOUBLE>>)")


def field_ids():
    def fid(i):
        return {b"PARQUET:field_id": str(i).encode()}
    n = 30
    sch = pa.schema([
        pa.field("a", pa.int64(), metadata=fid(1)),
        pa.field("b", pa.string(), metadata=fid(2)),
        pa.field("st", pa.struct([pa.field("x", pa.int32(), metadata=fid(4)),
                                  pa.field("y", pa.string(), metadata=fid(5))]), metadata=fid(3)),
    ])
    return pa.table({
        "a": pa.array(range(n), pa.int64()),
        "b": pa.array(every_n(["b%d" % i for i in range(n)], 4)),
        "st": pa.array([None if i % 5 == 1 else {"x": i, "y": None if i % 3 == 0 else "y%d" % i} for i in range(n)],
                       sch.field("st").type),
    }, schema=sch)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    prim = primitives(1000)
    for codec in ["none", "snappy", "gzip", "zstd"]:
        for page in ["1.0", "2.0"]:
            for dic in [False, True]:
                name = "prim_%s_v%s_%s" % (codec, page[0], "dict" if dic else "plain")
                write(out, name, prim, PRIMITIVE_SCHEMA, compression=codec, data_page_version=page,
                      use_dictionary=dic, store_decimal_as_integer=False)
    # Many pages and row groups, mixed dictionary fallback (small dictionary page limit).
    big = primitives(20000)
    write(out, "prim_pages", big, PRIMITIVE_SCHEMA, compression="zstd", row_group_size=6000, data_page_size=2048,
          dictionary_pagesize_limit=512)
    write(out, "prim_pages_v2", big, PRIMITIVE_SCHEMA, compression="snappy", row_group_size=7000,
          data_page_size=1500, data_page_version="2.0")
    # DELTA encodings need dictionaries off.
    delta = pa.table({"i32": prim.column("i32"), "i64": prim.column("i64"), "s": prim.column("s"),
                      "s2": prim.column("s"), "bin": prim.column("bin")})
    write(out, "delta", delta, "(`i32` INT, `i64` BIGINT, `s` STRING, `s2` STRING, `bin` BYTES)",
          use_dictionary=False, compression="none",
          column_encoding={"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED", "s": "DELTA_LENGTH_BYTE_ARRAY",
                           "s2": "DELTA_BYTE_ARRAY", "bin": "DELTA_BYTE_ARRAY"})
    write(out, "delta_v2", delta, "(`i32` INT, `i64` BIGINT, `s` STRING, `s2` STRING, `bin` BYTES)",
          use_dictionary=False, compression="zstd", data_page_version="2.0", data_page_size=1000,
          column_encoding={"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED", "s": "DELTA_LENGTH_BYTE_ARRAY",
                           "s2": "DELTA_BYTE_ARRAY", "bin": "DELTA_BYTE_ARRAY"})
    bss = pa.table({"f32": prim.column("f32"), "f64": prim.column("f64"), "i32": prim.column("i32"),
                    "i64": prim.column("i64"), "fixed": prim.column("fixed"), "dec": prim.column("dec")})
    write(out, "bss", bss, "(`f32` FLOAT, `f64` DOUBLE, `i32` INT, `i64` BIGINT, `fixed` BINARY(3), `dec` DECIMAL(12, 2))",
          use_dictionary=False, compression="snappy", use_byte_stream_split=True)
    tmp = temporal()
    write(out, "temporal", tmp, TEMPORAL_SCHEMA, compression="none")
    int96 = pa.table({"ts96": tmp.column("ts_us")})
    write(out, "int96", int96, "(`ts96` TIMESTAMP(9))", use_deprecated_int96_timestamps=True)
    dec = decimals()
    write(out, "decimal_fixed", dec, DECIMAL_SCHEMA)
    write(out, "decimal_int", dec, DECIMAL_SCHEMA, store_decimal_as_integer=True)
    uuids = [uuid.UUID(int=(i * 0x9E3779B97F4A7C15F39CC0605CEDC835) % 2**128) for i in range(10)]
    ut = pa.table({"u": pa.array([u.bytes for u in uuids], pa.uuid())})
    write(out, "uuid", ut, "(`u` BINARY(16))")
    nest = nested()
    write(out, "nested", nest, NESTED_SCHEMA, compression="zstd")
    write(out, "nested_v2_pages", nest, NESTED_SCHEMA, compression="snappy", data_page_version="2.0",
          data_page_size=200, row_group_size=70)
    write(out, "nested_v1_pages", nest, NESTED_SCHEMA, compression="gzip", data_page_version="1.0",
          data_page_size=100, write_batch_size=3, row_group_size=90, use_dictionary=False)
    write(out, "nested_legacy_names", nest, NESTED_SCHEMA, use_compliant_nested_type=False, use_dictionary=False)
    write(out, "field_ids", field_ids(), "(`a` BIGINT, `b` STRING, `st` ROW<`x` INT, `y` STRING>)")
    # Required (non-null) columns: no definition levels at all.
    req = pa.table({"a": pa.array(range(100), pa.int64()), "b": pa.array(["r%d" % i for i in range(100)])},
                   schema=pa.schema([pa.field("a", pa.int64(), nullable=False),
                                     pa.field("b", pa.string(), nullable=False)]))
    write(out, "required", req, "(`a` BIGINT NOT NULL, `b` STRING NOT NULL)")


if __name__ == "__main__":
    main()
