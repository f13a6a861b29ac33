-- Near-duplicate candidate pairs from SimHash: one row (a, b, distance), a < b, per
-- pair of documents whose 64-bit SimHash values agree on one of four 16-bit blocks
-- (pigeonhole: values at most 3 bits apart always agree on one) and then differ in at
-- most rule.simhash_threshold (3) bits, the Hamming distance computed with portable bit
-- operators. It reads the
-- documents table alone, so it runs once, not per bucket of the postings.
-- Tables, as a runner registers them over a folder written by
-- `twinspot fingerprint --parquet DIR` (any number of shards):
--   documents  DIR/documents
--   rule       DIR/rule: the numbers of the candidate rule (one row per shard)
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista.
WITH
band_pairs AS (
  SELECT x.id AS a, y.id AS b FROM documents x JOIN documents y
    ON x.simhash_b0 = y.simhash_b0 AND x.id < y.id
  UNION
  SELECT x.id AS a, y.id AS b FROM documents x JOIN documents y
    ON x.simhash_b1 = y.simhash_b1 AND x.id < y.id
  UNION
  SELECT x.id AS a, y.id AS b FROM documents x JOIN documents y
    ON x.simhash_b2 = y.simhash_b2 AND x.id < y.id
  UNION
  SELECT x.id AS a, y.id AS b FROM documents x JOIN documents y
    ON x.simhash_b3 = y.simhash_b3 AND x.id < y.id
),
xors AS (
  SELECT bp.a, bp.b,
    (x.simhash_b0 | y.simhash_b0) - (x.simhash_b0 & y.simhash_b0) AS x0,
    (x.simhash_b1 | y.simhash_b1) - (x.simhash_b1 & y.simhash_b1) AS x1,
    (x.simhash_b2 | y.simhash_b2) - (x.simhash_b2 & y.simhash_b2) AS x2,
    (x.simhash_b3 | y.simhash_b3) - (x.simhash_b3 & y.simhash_b3) AS x3
  FROM band_pairs bp
  JOIN documents x ON x.id = bp.a
  JOIN documents y ON y.id = bp.b
),
near AS (
  SELECT a, b,
    CASE WHEN (x0 & 1) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 2) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 4) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 8) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x0 & 16) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 32) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 64) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 128) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x0 & 256) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 512) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 1024) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 2048) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x0 & 4096) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 8192) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 16384) = 0 THEN 0 ELSE 1 END + CASE WHEN (x0 & 32768) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x1 & 1) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 2) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 4) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 8) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x1 & 16) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 32) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 64) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 128) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x1 & 256) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 512) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 1024) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 2048) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x1 & 4096) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 8192) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 16384) = 0 THEN 0 ELSE 1 END + CASE WHEN (x1 & 32768) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x2 & 1) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 2) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 4) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 8) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x2 & 16) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 32) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 64) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 128) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x2 & 256) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 512) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 1024) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 2048) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x2 & 4096) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 8192) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 16384) = 0 THEN 0 ELSE 1 END + CASE WHEN (x2 & 32768) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x3 & 1) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 2) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 4) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 8) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x3 & 16) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 32) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 64) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 128) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x3 & 256) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 512) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 1024) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 2048) = 0 THEN 0 ELSE 1 END
    + CASE WHEN (x3 & 4096) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 8192) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 16384) = 0 THEN 0 ELSE 1 END + CASE WHEN (x3 & 32768) = 0 THEN 0 ELSE 1 END AS distance
  FROM xors
)
SELECT n.a, n.b, n.distance
FROM near n CROSS JOIN (SELECT MIN(simhash_threshold) AS simhash_threshold FROM rule) r
WHERE n.distance <= r.simhash_threshold
