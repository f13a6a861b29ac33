-- The later identical copies: one row (id) per document whose file has the bytes
-- (SHA-256) of a document with a smaller id, both with words. `compare --all` states
-- such a pair whole and compares the copy with nothing else, so the other steps leave
-- these documents out: they count no holder of a hash and make no candidate pair.
-- Tables, as a runner registers them over a folder written by
-- `twinspot fingerprint --parquet DIR` (any number of shards):
--   documents  DIR/documents
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista.
WITH
first_copies AS (
  SELECT sha256, MIN(id) AS first_id
  FROM documents
  WHERE sha256 IS NOT NULL AND tokens > 0
  GROUP BY sha256
)
SELECT d.id
FROM documents d JOIN first_copies f ON f.sha256 = d.sha256
WHERE d.tokens > 0 AND d.id > f.first_id
