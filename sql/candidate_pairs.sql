-- Candidate pairs for `twinspot align --pairs`: one row (a, b) per pair of documents
-- worth aligning, a < b, with the number of shared k-gram hits and the SimHash
-- distance when the pair is a near-duplicate candidate. Every pair `twinspot compare
-- --all` would compare is among them; `align` compares them as it would.
-- Tables, as a runner registers them over a folder written by
-- `twinspot fingerprint --parquet DIR` (any number of shards):
--   documents  DIR/documents
--   postings   DIR/postings, with the partition column `bucket` (hash prefix) from the
--              folder names bucket=N
--   spreads    what sql/common_hashes.sql wrote over the same folder
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista. Divisions are
-- written as multiplications (x * 20 >= n), exact on every engine.
--
-- A pair is a candidate when
--  * a k-gram of a (every one is a posting) equals a winnowed k-gram of b, the rule of
--    `compare --all`, which looks up every k-gram of one document among the winnowed
--    k-grams of the others; except that
--    - a common k-gram (held by at least max(5, n / 20) of the n documents) is matched
--      against the first two documents holding it only, and
--    - one held by more postings than max(50, n / 20), not common, is not matched;
--    a later identical copy of a file takes no part (its pair is stated whole); or
--  * pigeonhole on SimHash: the two values agree on one of four 16-bit blocks, then
--    differ in at most 3 bits (Hamming distance, computed with portable bit operators).
WITH
first_copies AS (
  SELECT sha256, MIN(id) AS first_id
  FROM documents
  WHERE sha256 IS NOT NULL AND tokens > 0
  GROUP BY sha256
),
copies AS (
  SELECT d.id
  FROM documents d JOIN first_copies f ON f.sha256 = d.sha256
  WHERE d.tokens > 0 AND d.id > f.first_id
),
collection AS (
  SELECT t.total - c.copies AS n
  FROM (SELECT COUNT(*) AS total FROM documents) t
  CROSS JOIN (SELECT COUNT(*) AS copies FROM copies) c
),
common AS (
  SELECT s.hash, s.first_doc, s.second_doc
  FROM spreads s CROSS JOIN collection c
  WHERE s.kind = 0 AND s.documents >= 5 AND s.documents * 20 >= c.n
),
not_free AS (
  SELECT s.hash
  FROM spreads s CROSS JOIN collection c
  WHERE s.kind = 0
    AND ((s.documents >= 5 AND s.documents * 20 >= c.n) OR (s.postings > 50 AND s.postings * 20 > c.n))
),
kept AS (
  SELECT p.bucket, p.hash, p.doc, p.winnowed
  FROM postings p
  LEFT JOIN not_free f ON f.hash = p.hash
  LEFT JOIN copies c ON c.id = p.doc
  WHERE f.hash IS NULL AND c.id IS NULL
),
kgram_pairs AS (
  SELECT a.doc AS a, b.doc AS b, COUNT(*) AS shared
  FROM kept a JOIN kept b ON a.bucket = b.bucket AND a.hash = b.hash
  WHERE b.winnowed AND a.doc < b.doc
  GROUP BY a.doc, b.doc
  HAVING COUNT(*) >= 1
),
shown AS (
  SELECT hash, first_doc AS doc FROM common
  UNION ALL
  SELECT hash, second_doc AS doc FROM common WHERE second_doc IS NOT NULL
),
common_pairs AS (
  SELECT p.doc AS a, s.doc AS b, COUNT(*) AS shared
  FROM postings p
  JOIN shown s ON s.hash = p.hash
  LEFT JOIN copies c ON c.id = p.doc
  WHERE c.id IS NULL AND p.doc < s.doc
  GROUP BY p.doc, s.doc
),
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
SELECT a, b, MAX(shared) AS shared_kgrams, MIN(distance) AS simhash_distance
FROM (
  SELECT a, b, shared, CAST(NULL AS INT) AS distance FROM kgram_pairs
  UNION ALL
  SELECT a, b, shared, CAST(NULL AS INT) AS distance FROM common_pairs
  UNION ALL
  SELECT a, b, CAST(0 AS BIGINT) AS shared, CAST(distance AS INT) AS distance FROM near WHERE distance <= 3
) candidates
GROUP BY a, b
ORDER BY a, b
