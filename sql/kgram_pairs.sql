-- Candidate pairs from shared k-grams: one row (a, b, shared), a < b, per pair of
-- documents holding a k-gram in common under the rule of `twinspot compare --all`.
-- A hash lives in one bucket of the postings, so this query may run over the whole
-- `postings` table at once (a cluster) or over one bucket at a time (one machine: the
-- runner registers `postings` as one folder bucket=N after the other and keeps every
-- result); the union of the per-bucket results is the whole result, row for row.
-- Tables, as a runner registers them over a folder written by
-- `twinspot fingerprint --parquet DIR` (any number of shards):
--   documents  DIR/documents
--   copies     what sql/copies.sql wrote (later identical copies)
--   postings   DIR/postings, or one of its folders DIR/postings/bucket=N
--   spreads    what sql/kgram_spreads.sql and sql/sentence_spreads.sql wrote over the
--              same folder
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista. Divisions are
-- written as multiplications (x * 20 >= n), exact on every engine.
--
-- A pair is a candidate when a k-gram of a (every one is a posting) equals a winnowed
-- k-gram of b, the rule of `compare --all`, which looks up every k-gram of one document
-- among the winnowed k-grams of the others; except that
-- a common k-gram (held by at least max(5, n / 20) of the n documents) or a frequent one
-- (held by more than 50 postings, at most 8 of one document: a bound that does not grow
-- with the collection) is matched against the first two documents holding it only; a
-- later identical copy of a file takes no part (its pair is stated whole).
WITH
collection AS (
  SELECT t.total - c.copies AS n
  FROM (SELECT COUNT(*) AS total FROM documents) t
  CROSS JOIN (SELECT COUNT(*) AS copies FROM copies) c
),
restricted AS (
  SELECT s.hash, s.first_doc, s.second_doc
  FROM spreads s CROSS JOIN collection c
  WHERE s.kind = 0 AND ((s.documents >= 5 AND s.documents * 20 >= c.n) OR s.postings > 50)
),
kept AS (
  SELECT p.hash, p.doc, p.winnowed
  FROM postings p
  LEFT JOIN restricted f ON f.hash = p.hash
  LEFT JOIN copies c ON c.id = p.doc
  WHERE f.hash IS NULL AND c.id IS NULL
),
kgram_pairs AS (
  SELECT a.doc AS a, b.doc AS b, COUNT(*) AS shared
  FROM kept a JOIN kept b ON a.hash = b.hash
  WHERE b.winnowed AND a.doc < b.doc
  GROUP BY a.doc, b.doc
  HAVING COUNT(*) >= 1
),
shown AS (
  SELECT hash, first_doc AS doc FROM restricted
  UNION ALL
  SELECT hash, second_doc AS doc FROM restricted WHERE second_doc IS NOT NULL
),
restricted_pairs AS (
  SELECT p.doc AS a, s.doc AS b, COUNT(*) AS shared
  FROM postings p
  JOIN shown s ON s.hash = p.hash
  LEFT JOIN copies c ON c.id = p.doc
  WHERE c.id IS NULL AND p.doc < s.doc
  GROUP BY p.doc, s.doc
)
SELECT a, b, shared FROM kgram_pairs
UNION ALL
SELECT a, b, shared FROM restricted_pairs
