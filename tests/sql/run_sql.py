#!/usr/bin/env python3
"""Runs the project's SQL files (sql/common_hashes.sql, sql/candidate_pairs.sql) over a
fingerprint folder written by `twinspot fingerprint --parquet`, on DataFusion or on
Spark in local mode, and writes OUT/common.parquet and OUT/pairs.parquet for
`twinspot align`. The SQL text is read as it is: nothing is rewritten per engine. The
second query reads what the first wrote as the table `spreads`.

    python3 tests/sql/run_sql.py datafusion FINGERPRINTS OUT
    python3 tests/sql/run_sql.py spark FINGERPRINTS OUT

Exits 3 with a clear message when the engine's Python package is missing.
"""
import os
import sys
import time

SQL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sql")
# (SQL file, output, table name the output is registered as for the next query)
QUERIES = (("common_hashes.sql", "common.parquet", "spreads"), ("candidate_pairs.sql", "pairs.parquet", None))


def read_sql(name):
    with open(os.path.join(SQL_DIR, name), encoding="utf-8") as f:
        return f.read()


def missing(package, hint):
    print(f"run_sql.py: the Python package `{package}` is missing ({hint}); .ci/setup installs it",
          file=sys.stderr)
    sys.exit(3)


def run_datafusion(prints, out):
    try:
        import datafusion
    except ImportError:
        missing("datafusion", "pip install datafusion")
    import pyarrow.parquet as pq

    ctx = datafusion.SessionContext()
    ctx.register_parquet("documents", os.path.join(prints, "documents"))
    ctx.register_parquet("postings", os.path.join(prints, "postings"),
                         table_partition_cols=[("bucket", "int")])
    ctx.register_parquet("sentences", os.path.join(prints, "sentences"))
    for sql_file, target, name in QUERIES:
        table = ctx.sql(read_sql(sql_file)).to_arrow_table()
        pq.write_table(table, os.path.join(out, target), compression="zstd")
        print(f"{target}: {table.num_rows} rows", file=sys.stderr)
        if name:
            ctx.register_parquet(name, os.path.join(out, target))


def run_spark(prints, out):
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        missing("pyspark", "pip install pyspark, and a Java runtime")
    spark = (SparkSession.builder.master("local[2]").appName("twinspot-sql")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "4")
             .config("spark.driver.memory", "1g")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        spark.read.parquet(os.path.join(prints, "documents")).createOrReplaceTempView("documents")
        spark.read.parquet(os.path.join(prints, "postings")).createOrReplaceTempView("postings")
        spark.read.parquet(os.path.join(prints, "sentences")).createOrReplaceTempView("sentences")
        for sql_file, target, name in QUERIES:
            frame = spark.sql(read_sql(sql_file))
            frame.coalesce(1).write.mode("overwrite").option("compression", "zstd").parquet(
                os.path.join(out, target))
            print(f"{target}: written", file=sys.stderr)
            if name:
                spark.read.parquet(os.path.join(out, target)).createOrReplaceTempView(name)
    finally:
        spark.stop()


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("datafusion", "spark"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    engine, prints, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    started = time.monotonic()
    (run_datafusion if engine == "datafusion" else run_spark)(prints, out)
    print(f"{engine}: {time.monotonic() - started:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
