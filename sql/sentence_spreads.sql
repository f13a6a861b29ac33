-- How the whole collection holds its frequent sentences, for `twinspot align --common`:
-- one row (kind 1) per sentence hash held by more than rule.max_postings (50) postings, with the number of
-- documents and postings and the two lowest ids holding it; `align` looks no such
-- sentence up. Its columns are those of sql/kgram_spreads.sql: the two results are
-- read together as one table of spreads.
-- Tables, as a runner registers them over a folder written by
-- `twinspot fingerprint --parquet DIR` (any number of shards):
--   documents  DIR/documents
--   copies     what sql/copies.sql wrote (later identical copies)
--   sentences  DIR/sentences
--   rule       DIR/rule: the numbers of the candidate rule (one row per shard)
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista.
--
-- Counted as `twinspot compare --all` counts in its index: at most rule.max_positions
-- (8) positions of one hash in one document, and a later identical copy of a file (same SHA-256, with
-- words) not at all.
WITH
r AS (
  SELECT MIN(max_positions) AS max_positions, MIN(max_postings) AS max_postings FROM rule
),
sentence_holders AS (
  SELECT s.hash, s.doc, COUNT(*) AS n
  FROM sentences s LEFT JOIN copies c ON c.id = s.doc
  WHERE c.id IS NULL
  GROUP BY s.hash, s.doc
),
sentence_spreads AS (
  SELECT h.hash, COUNT(*) AS documents,
    SUM(CASE WHEN h.n > r.max_positions THEN r.max_positions ELSE h.n END) AS postings, MIN(h.doc) AS first_doc
  FROM sentence_holders h CROSS JOIN r
  GROUP BY h.hash, r.max_positions, r.max_postings
  HAVING SUM(CASE WHEN h.n > r.max_positions THEN r.max_positions ELSE h.n END) > r.max_postings
),
sentence_seconds AS (
  SELECT s.hash, MIN(h.doc) AS second_doc
  FROM sentence_spreads s JOIN sentence_holders h ON h.hash = s.hash AND h.doc > s.first_doc
  GROUP BY s.hash
)
SELECT CAST(1 AS INT) AS kind, s.hash, s.documents, s.postings, s.first_doc, x.second_doc
FROM sentence_spreads s LEFT JOIN sentence_seconds x ON x.hash = s.hash
