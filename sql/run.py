#!/usr/bin/env python3
"""Runs Twinspot's SQL files (the *.sql beside this program) over a fingerprint folder
written by `twinspot fingerprint --parquet`, on DataFusion or on Spark, and writes
OUT/common.parquet (the spreads) and OUT/pairs.parquet (the candidate pairs) for
`twinspot align`. The SQL text is read as it is: nothing is rewritten per engine.

    python3 sql/run.py datafusion FINGERPRINTS OUT [--whole]
    python3 sql/run.py spark FINGERPRINTS OUT          (or spark-submit sql/run.py spark ...)

The tables registered for every step: documents, postings, sentences, chargrams and rule (the
candidate rule's numbers, written by `twinspot fingerprint --parquet` from the constants
`twinspot compare` decides by), and each earlier step's result.

The steps, each one SQL file whose result is registered as a table for the next:

    copies.sql            once                        -> OUT/copies.parquet
    kgram_spreads.sql     per bucket of the postings  -> OUT/common.parquet/kgrams-bucket-N.parquet
    sentence_spreads.sql  once                        -> OUT/common.parquet/sentences.parquet
                          (the folder is the table `spreads`)
    kgram_pairs.sql       per bucket of the postings  -> OUT/kgram_pairs/bucket-N.parquet
    near_pairs.sql        once                        -> OUT/near_pairs.parquet
    char_gram_pairs.sql   once                        -> OUT/char_gram_pairs.parquet
    candidate_pairs.sql   once                        -> OUT/pairs.parquet

On DataFusion (one machine) the two k-gram steps run one bucket at a time, with the
table `postings` registered as the folder postings/bucket=N: a hash lives in one
bucket, so the union of the runs is the result over all postings, and memory holds one
bucket's join at a time. `--whole` runs them over all postings at once instead. On
Spark (a cluster's engine) they run over all postings at once and Spark partitions the
join itself. Each step prints its time and the process's peak memory so far.

Exits 3 with a clear message when the engine's Python package is missing, 2 when the
arguments or the fingerprint folder are wrong.
"""
import argparse
import os
import resource
import shutil
import sys
import time

SQL_DIR = os.path.dirname(os.path.abspath(__file__))
# The tables of a fingerprint folder, each a folder of Parquet files.
TABLES = ("documents", "sentences", "rule", "chargrams")


def read_sql(name):
    with open(os.path.join(SQL_DIR, name), encoding="utf-8") as f:
        return f.read()


def missing(package, hint):
    print(f"sql/run.py: the Python package `{package}` is missing ({hint}); .ci/setup installs it "
          "in .venv-sql (run sql/run.py with .venv-sql/bin/python3)", file=sys.stderr)
    sys.exit(3)


def buckets_of(prints):
    """The bucket folders of the postings, in bucket order."""
    root = os.path.join(prints, "postings")
    names = [n for n in os.listdir(root) if n.startswith("bucket=")]
    return sorted(((int(n.split("=", 1)[1]), os.path.join(root, n)) for n in names))


def report(step, started, rows):
    """One step's rows and time, and this process's peak memory so far (DataFusion runs in
    it; Spark runs in a Java process of its own, not counted)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{step}: {rows} rows, {time.monotonic() - started:.1f} s, process peak {peak:.0f} MB",
          file=sys.stderr, flush=True)


class DataFusion:
    """One machine: each step's result written with pyarrow, registered under its name."""

    def __init__(self, prints):
        try:
            import datafusion
        except ImportError:
            missing("datafusion", "pip install datafusion")
        import pyarrow.parquet as pq
        self.datafusion, self.pq, self.prints = datafusion, pq, prints
        self.ctx = None
        self.tables = {}

    def fresh(self):
        """A new context with every table registered so far (a table cannot be replaced)."""
        self.ctx = self.datafusion.SessionContext()
        for name in TABLES:
            self.ctx.register_parquet(name, os.path.join(self.prints, name))
        for name, path in self.tables.items():
            self.ctx.register_parquet(name, path)

    def run(self, sql_file, target, postings=None):
        self.fresh()
        if postings is not None:
            self.ctx.register_parquet("postings", postings)
        else:
            self.ctx.register_parquet("postings", os.path.join(self.prints, "postings"),
                                      table_partition_cols=[("bucket", "int")])
        table = self.ctx.sql(read_sql(sql_file)).to_arrow_table()
        os.makedirs(os.path.dirname(target), exist_ok=True)
        self.pq.write_table(table, target, compression="zstd")
        return table.num_rows

    def register(self, name, path):
        self.tables[name] = path

    def stop(self):
        pass


class Spark:
    """Spark in local mode: all postings at once, as on a cluster."""

    def __init__(self, prints):
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            missing("pyspark", "pip install pyspark, and a Java runtime")
        self.spark = (SparkSession.builder.master("local[2]").appName("twinspot-sql")
                      .config("spark.ui.enabled", "false")
                      .config("spark.ui.showConsoleProgress", "false")
                      .config("spark.sql.shuffle.partitions", "4")
                      .config("spark.driver.memory", "1g")
                      .getOrCreate())
        self.spark.sparkContext.setLogLevel("ERROR")
        for name in ("postings",) + TABLES:
            self.spark.read.parquet(os.path.join(prints, name)).createOrReplaceTempView(name)

    def run(self, sql_file, target, postings=None):
        assert postings is None, "Spark reads all postings at once"
        frame = self.spark.sql(read_sql(sql_file))
        # Spark writes a folder of part files, which every reader takes as one table.
        frame.coalesce(1).write.mode("overwrite").option("compression", "zstd").parquet(target)
        return self.spark.read.parquet(target).count()

    def register(self, name, path):
        # A folder of step results (each a folder of part files) is read as one table.
        parts = [os.path.join(path, n) for n in sorted(os.listdir(path))
                 if os.path.isdir(os.path.join(path, n)) and not n.startswith(("_", "."))]
        self.spark.read.parquet(*(parts or [path])).createOrReplaceTempView(name)

    def stop(self):
        self.spark.stop()


def arguments():
    parser = argparse.ArgumentParser(
        prog="sql/run.py",
        description="Finds the candidate pairs of a fingerprint folder with Twinspot's SQL files, for "
                    "`twinspot align`.",
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine", choices=("datafusion", "spark"),
                        help="DataFusion on this machine, or Spark (local mode, or the cluster of spark-submit)")
    parser.add_argument("prints", metavar="FINGERPRINTS",
                        help="the folder `twinspot fingerprint --parquet` wrote (every shard)")
    parser.add_argument("out", metavar="OUT", help="where the steps' results go (common.parquet, pairs.parquet, ...)")
    parser.add_argument("--whole", action="store_true",
                        help="DataFusion: run the k-gram steps over all postings at once, not bucket by bucket")
    return parser.parse_args()


def check_prints(prints):
    """Refuses a folder that is not a whole fingerprint folder of this version."""
    for name in ("postings",) + TABLES:
        if not os.path.isdir(os.path.join(prints, name)):
            hint = ("fingerprinted by an earlier version: fingerprint it again" if name in ("rule", "chargrams")
                    else "not a folder written by `twinspot fingerprint --parquet`")
            print(f"sql/run.py: {prints} has no {name}/ folder ({hint})", file=sys.stderr)
            sys.exit(2)


def main():
    args = arguments()
    engine_name, prints, out, whole = args.engine, args.prints, args.out, args.whole
    if "://" not in prints:
        check_prints(prints)
    for stale in ("copies.parquet", "common.parquet", "kgram_pairs", "near_pairs.parquet", "char_gram_pairs.parquet",
                  "pairs.parquet"):
        path = os.path.join(out, stale)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
    os.makedirs(out, exist_ok=True)
    engine = DataFusion(prints) if engine_name == "datafusion" else Spark(prints)
    per_bucket = engine_name == "datafusion" and not whole
    buckets = buckets_of(prints) if per_bucket else [(None, None)]
    common = os.path.join(out, "common.parquet")
    kgram_pairs = os.path.join(out, "kgram_pairs")
    started = time.monotonic()
    try:
        step_started = time.monotonic()
        rows = engine.run("copies.sql", os.path.join(out, "copies.parquet"))
        report("copies.sql", step_started, rows)
        engine.register("copies", os.path.join(out, "copies.parquet"))
        for step, sql_file, folder, name in (("spreads", "kgram_spreads.sql", common, "kgrams"),
                                             ("k-gram pairs", "kgram_pairs.sql", kgram_pairs, "bucket")):
            step_started, rows = time.monotonic(), 0
            for bucket, postings in buckets:
                part = f"{name}-all.parquet" if bucket is None else f"{name}-{bucket:04}.parquet"
                rows += engine.run(sql_file, os.path.join(folder, part), postings)
            report(f"{sql_file} ({len(buckets)} run{'s' if len(buckets) > 1 else ''})", step_started, rows)
            if step == "spreads":
                step_started = time.monotonic()
                rows = engine.run("sentence_spreads.sql", os.path.join(common, "sentences.parquet"))
                report("sentence_spreads.sql", step_started, rows)
                engine.register("spreads", common)
            else:
                engine.register("kgram_pairs", kgram_pairs)
        step_started = time.monotonic()
        rows = engine.run("near_pairs.sql", os.path.join(out, "near_pairs.parquet"))
        report("near_pairs.sql", step_started, rows)
        engine.register("near_pairs", os.path.join(out, "near_pairs.parquet"))
        step_started = time.monotonic()
        rows = engine.run("char_gram_pairs.sql", os.path.join(out, "char_gram_pairs.parquet"))
        report("char_gram_pairs.sql", step_started, rows)
        engine.register("char_gram_pairs", os.path.join(out, "char_gram_pairs.parquet"))
        step_started = time.monotonic()
        rows = engine.run("candidate_pairs.sql", os.path.join(out, "pairs.parquet"))
        report("candidate_pairs.sql", step_started, rows)
    finally:
        engine.stop()
    print(f"{engine_name}: {time.monotonic() - started:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
