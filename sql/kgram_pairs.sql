-- Shared k-gram hits: one row (a, b, shared, reach), a < b, per pair of documents
-- holding a k-gram in common under the rule of `twinspot compare --all`, with the
-- number of hits (the suspect a's k-gram positions times b's winnowed positions of each
-- shared hash) and the longest lone reach of a's hits (column `reach` of the postings:
-- how many characters a run that brings only that hit can cover). sql/candidate_pairs.sql
-- keeps the pairs the matcher can use.
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
--   rule       DIR/rule: the numbers of the candidate rule (one row per shard)
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista. Divisions are
-- written as multiplications (x * 20 >= n), exact on every engine.
--
-- A hit is a k-gram of a (every one is a posting) equal to a winnowed k-gram of b, the
-- rule of `compare --all`, which looks up every k-gram of one document among the
-- winnowed k-grams of the others; except that a common k-gram (held by at least
-- max(rule.common_floor, n / rule.common_one_in) of the n documents: max(5, n / 20)) or
-- a frequent one (held by more than rule.max_postings postings, 50, at most
-- rule.max_positions of one document: a bound that does not grow with the collection)
-- is matched against the first two documents holding it only; a later identical copy of
-- a file takes no part (its pair is stated whole).
WITH
r AS (
  SELECT MIN(common_floor) AS common_floor, MIN(common_one_in) AS common_one_in, MIN(max_postings) AS max_postings
  FROM rule
),
collection AS (
  SELECT t.total - c.copies AS n
  FROM (SELECT COUNT(*) AS total FROM documents) t
  CROSS JOIN (SELECT COUNT(*) AS copies FROM copies) c
),
restricted AS (
  SELECT s.hash, s.first_doc, s.second_doc
  FROM spreads s CROSS JOIN collection c CROSS JOIN r
  WHERE s.kind = 0
    AND ((s.documents >= r.common_floor AND s.documents * r.common_one_in >= c.n) OR s.postings > r.max_postings)
),
kept AS (
  SELECT p.hash, p.doc, p.winnowed, p.reach
  FROM postings p
  LEFT JOIN restricted f ON f.hash = p.hash
  LEFT JOIN copies c ON c.id = p.doc
  WHERE f.hash IS NULL AND c.id IS NULL
),
kgram_pairs AS (
  SELECT a.doc AS a, b.doc AS b, COUNT(*) AS shared, MAX(a.reach) AS reach
  FROM kept a JOIN kept b ON a.hash = b.hash
  WHERE b.winnowed AND a.doc < b.doc
  GROUP BY a.doc, b.doc
),
shown AS (
  SELECT hash, first_doc AS doc FROM restricted
  UNION ALL
  SELECT hash, second_doc AS doc FROM restricted WHERE second_doc IS NOT NULL
),
restricted_pairs AS (
  SELECT p.doc AS a, s.doc AS b, COUNT(*) AS shared, MAX(p.reach) AS reach
  FROM postings p
  JOIN shown s ON s.hash = p.hash
  JOIN postings q ON q.hash = s.hash AND q.doc = s.doc AND q.winnowed
  LEFT JOIN copies c ON c.id = p.doc
  WHERE c.id IS NULL AND p.doc < s.doc
  GROUP BY p.doc, s.doc
)
SELECT a, b, shared, reach FROM kgram_pairs
UNION ALL
SELECT a, b, shared, reach FROM restricted_pairs
