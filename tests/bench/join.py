#!/usr/bin/env python3
"""Benchmark of the candidate-pair join on one machine: N generated documents are
fingerprinted by `twinspot fingerprint --parquet`, then the project's SQL runs on
DataFusion. Prints time, peak memory and candidate pairs per document for each step,
and the Parquet bytes per document.

    cargo build --release --no-default-features
    python3 tests/bench/join.py [N=100000] [WORKDIR=/tmp/twinspot-join-bench]

Documents: ~600 characters of Chinese text drawn from 3,000 common characters; one in
ten copies a 200-character passage of an earlier document (the pairs to find).
"""
import os
import random
import resource
import shutil
import subprocess
import sys
import time

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BINARY = os.path.join(REPO, "target", "release", "twinspot")


def generate(folder, n, seed=7):
    rng = random.Random(seed)
    pool = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    os.makedirs(folder, exist_ok=True)
    texts = []
    for i in range(n):
        sentences = []
        for _ in range(20):
            sentences.append("".join(rng.choice(pool) for _ in range(rng.randint(20, 40))) + "。")
        text = "".join(sentences)
        if i > 0 and rng.random() < 0.1:
            source = texts[rng.randrange(len(texts))]
            start = rng.randrange(max(1, len(source) - 200))
            cut = rng.randrange(len(text))
            text = text[:cut] + source[start:start + 200] + text[cut:]
        texts.append(text)
        sub = os.path.join(folder, f"{i // 1000:03d}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"d{i:06d}.txt"), "w", encoding="utf-8") as f:
            f.write(text)
    return sum(len(t) for t in texts)


def du(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    work = sys.argv[2] if len(sys.argv) > 2 else "/tmp/twinspot-join-bench"
    shutil.rmtree(work, ignore_errors=True)
    docs, prints, out = (os.path.join(work, x) for x in ("docs", "prints", "sql"))
    chars = generate(docs, n)
    print(f"{n} documents, {chars / n:.0f} characters each on average")

    started = time.monotonic()
    run = subprocess.run(["/usr/bin/time", "-f", "%M", BINARY, "fingerprint", "--parquet", prints, docs, "-q"],
                         capture_output=True, text=True, check=True)
    seconds = time.monotonic() - started
    peak_kb = int(run.stderr.strip().splitlines()[-1])
    size = du(prints)
    print(f"fingerprint: {seconds:.1f} s on {os.cpu_count()} cores ({n / seconds:.0f} documents/s), "
          f"peak {peak_kb / 1024:.0f} MB, Parquet {size / 1e6:.1f} MB ({size / n:.0f} bytes/document)")

    import datafusion
    import pyarrow.parquet as pq
    ctx = datafusion.SessionContext()
    ctx.register_parquet("documents", os.path.join(prints, "documents"))
    ctx.register_parquet("postings", os.path.join(prints, "postings"), table_partition_cols=[("bucket", "int")])
    ctx.register_parquet("sentences", os.path.join(prints, "sentences"))
    os.makedirs(out, exist_ok=True)
    for sql_file, target in (("common_hashes.sql", "common.parquet"), ("candidate_pairs.sql", "pairs.parquet")):
        with open(os.path.join(REPO, "sql", sql_file), encoding="utf-8") as f:
            sql = f.read()
        started = time.monotonic()
        table = ctx.sql(sql).to_arrow_table()
        pq.write_table(table, os.path.join(out, target), compression="zstd")
        seconds = time.monotonic() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"DataFusion {sql_file}: {seconds:.1f} s, {table.num_rows} rows "
              f"({table.num_rows / n:.2f} per document), process peak {peak:.0f} MB")
        if target == "common.parquet":
            ctx.register_parquet("spreads", os.path.join(out, target))

    started = time.monotonic()
    run = subprocess.run(["/usr/bin/time", "-f", "%M", BINARY, "align", "--pairs", os.path.join(out, "pairs.parquet"),
                          "--common", os.path.join(out, "common.parquet"), "--documents", prints, "-q",
                          "--json", os.path.join(work, "report.json")], capture_output=True, text=True, check=True)
    seconds = time.monotonic() - started
    peak_kb = int(run.stderr.strip().splitlines()[-1])
    pairs = pq.read_table(os.path.join(out, "pairs.parquet")).num_rows
    print(f"align: {seconds:.1f} s for {pairs} pairs ({pairs / seconds:.0f} pairs/s), peak {peak_kb / 1024:.0f} MB")


if __name__ == "__main__":
    main()
