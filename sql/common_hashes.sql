-- Common k-gram hashes: written next to the candidate pairs and given to
-- `twinspot align --common`, which skips them exactly as the join did.
-- Tables, as a runner registers them over a folder written by
-- `twinspot fingerprint --parquet DIR` (any number of shards):
--   documents  DIR/documents
--   postings   DIR/postings, with the partition column `bucket` (hash prefix) from the
--              folder names bucket=N
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista.

WITH
-- The document-frequency cap: a k-gram hash held by more winnowed postings than
-- max(documents / 20, 50) is too common to say anything (boilerplate, stock phrases).
-- The in-memory check uses the same cap. (On engines where `/` gives a fraction, the
-- comparison COUNT(*) > cap still holds for exactly the same counts.)
cap AS (
  SELECT CASE WHEN COUNT(*) / 20 > 50 THEN COUNT(*) / 20 ELSE 50 END AS max_postings
  FROM documents
),
common AS (
  SELECT p.hash
  FROM postings p CROSS JOIN cap
  WHERE p.winnowed
  GROUP BY p.hash, cap.max_postings
  HAVING COUNT(*) > cap.max_postings
)
SELECT hash FROM common ORDER BY hash
