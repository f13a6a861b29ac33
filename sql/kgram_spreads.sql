-- How the whole collection holds its frequent k-grams, for `twinspot align --common`
-- and sql/kgram_pairs.sql: one row (kind 0) per k-gram hash held by at least
-- rule.common_floor documents (5: the fewest that can make a k-gram common, in a
-- collection of at most 100 documents) or by rule.max_positions postings or more (8), with the number of documents and postings and
-- the two lowest ids holding it. `align` indexes only the documents of its pairs; these
-- rows tell it what its postings cannot: whether a k-gram is common (held by
-- max(5, documents / 20) documents or more, rule.common_floor and rule.common_one_in), which two documents common text is shown
-- against (the first ones), and which hashes are held by too many postings to look at.
-- A hash lives in one bucket of the postings, so this query may run over the whole
-- `postings` table (a cluster) or over one bucket at a time (one machine), the results
-- kept side by side: each hash is counted whole in the one run that sees it.
-- Tables, as a runner registers them over a folder written by
-- `twinspot fingerprint --parquet DIR` (any number of shards):
--   documents  DIR/documents
--   copies     what sql/copies.sql wrote (later identical copies)
--   postings   DIR/postings, or one of its folders DIR/postings/bucket=N
--   rule       DIR/rule: the numbers of the candidate rule, those `compare` decides by
--              (one row, repeated once per shard)
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista.
--
-- Counted as `twinspot compare --all` counts in its index: winnowed k-grams only, at
-- most rule.max_positions (8) positions of one hash in one document, and a later identical copy of a file
-- (same SHA-256, with words) not at all.
WITH
r AS (
  SELECT MIN(common_floor) AS common_floor, MIN(max_positions) AS max_positions FROM rule
),
kgram_holders AS (
  SELECT p.hash, p.doc, COUNT(*) AS n
  FROM postings p LEFT JOIN copies c ON c.id = p.doc
  WHERE p.winnowed AND c.id IS NULL
  GROUP BY p.hash, p.doc
),
kgram_spreads AS (
  SELECT h.hash, COUNT(*) AS documents,
    SUM(CASE WHEN h.n > r.max_positions THEN r.max_positions ELSE h.n END) AS postings, MIN(h.doc) AS first_doc
  FROM kgram_holders h CROSS JOIN r
  GROUP BY h.hash, r.common_floor, r.max_positions
  HAVING COUNT(*) >= r.common_floor
    OR SUM(CASE WHEN h.n > r.max_positions THEN r.max_positions ELSE h.n END) >= r.max_positions
),
kgram_seconds AS (
  SELECT s.hash, MIN(h.doc) AS second_doc
  FROM kgram_spreads s JOIN kgram_holders h ON h.hash = s.hash AND h.doc > s.first_doc
  GROUP BY s.hash
)
SELECT CAST(0 AS INT) AS kind, s.hash, s.documents, s.postings, s.first_doc, x.second_doc
FROM kgram_spreads s LEFT JOIN kgram_seconds x ON x.hash = s.hash
