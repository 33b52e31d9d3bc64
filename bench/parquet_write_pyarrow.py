"""pyarrow's Parquet write rate on the rows of Sluice's parquet_write_bench (issue 16's comparison).

Reads the file BM_ParquetWriteLines left behind (the same 1M rows), then writes it with pyarrow into
memory the way Sluice's writer is configured: zstd level 3, dictionaries on, data page v1, 1 MB
pages, one row group. Prints rows/s and MB/s (of the Parquet output) as the best of a few runs, and
the ratio to Sluice's rate when given --sluice-rows-per-sec.

Usage: parquet_write_pyarrow.py [FILE] [--sluice-rows-per-sec N] [--runs N]
"""

import argparse
import time

import pyarrow as pa
import pyarrow.parquet as pq


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default="/tmp/sluice-parquet-bench-lines.parquet")
    ap.add_argument("--sluice-rows-per-sec", type=float)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    table = pq.read_table(args.file)
    best = None
    best_cpu = None
    size = 0
    for _ in range(args.runs):
        sink = pa.BufferOutputStream()
        start = time.perf_counter()
        cpu_start = time.process_time()
        pq.write_table(table, sink, compression="zstd", compression_level=3, use_dictionary=True,
                       data_page_version="1.0", row_group_size=table.num_rows)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
        size = sink.getvalue().size
        best = elapsed if best is None else min(best, elapsed)
    rows_per_sec = table.num_rows / best
    print(f"pyarrow {pa.__version__}: {table.num_rows} rows in {best:.3f} s: {rows_per_sec:,.0f} rows/s, "
          f"{size / best / 1e6:.1f} MB/s, file {size / 1e6:.1f} MB (CPU {best_cpu:.3f} s: "
          f"{table.num_rows / best_cpu:,.0f} rows/s)")
    if args.sluice_rows_per_sec:
        print(f"sluice / pyarrow rows/s: {args.sluice_rows_per_sec / rows_per_sec:.2f}")


if __name__ == "__main__":
    main()
