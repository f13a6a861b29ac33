-- How the whole collection holds its frequent k-grams, for `twinspot align --common`
-- and sql/kgram_pairs.sql: one row (kind 0) per k-gram hash held by at least 5
-- documents (the fewest that can make a k-gram common, in a collection of at most 100
-- documents) or by 8 postings or more, with the number of documents and postings and
-- the two lowest ids holding it. `align` indexes only the documents of its pairs; these
-- rows tell it what its postings cannot: whether a k-gram is common (held by
-- max(5, documents / 20) documents or more), which two documents common text is shown
-- against (the first ones), and which hashes are held by too many postings to look at.
-- A hash lives in one bucket of the postings, so this query may run over the whole
-- `postings` table (a cluster) or over one bucket at a time (one machine), the results
-- kept side by side: each hash is counted whole in the one run that sees it.
-- Tables, as a runner registers them over a folder written by
-- `twinspot fingerprint --parquet DIR` (any number of shards):
--   documents  DIR/documents
--   copies     what sql/copies.sql wrote (later identical copies)
--   postings   DIR/postings, or one of its folders DIR/postings/bucket=N
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista.
--
-- Counted as `twinspot compare --all` counts in its index: winnowed k-grams only, at
-- most 8 positions of one hash in one document, and a later identical copy of a file
-- (same SHA-256, with words) not at all.
WITH
kgram_holders AS (
  SELECT p.hash, p.doc, COUNT(*) AS n
  FROM postings p LEFT JOIN copies c ON c.id = p.doc
  WHERE p.winnowed AND c.id IS NULL
  GROUP BY p.hash, p.doc
),
kgram_spreads AS (
  SELECT hash, COUNT(*) AS documents, SUM(CASE WHEN n > 8 THEN 8 ELSE n END) AS postings, MIN(doc) AS first_doc
  FROM kgram_holders
  GROUP BY hash
  HAVING COUNT(*) >= 5 OR SUM(CASE WHEN n > 8 THEN 8 ELSE n END) >= 8
),
kgram_seconds AS (
  SELECT s.hash, MIN(h.doc) AS second_doc
  FROM kgram_spreads s JOIN kgram_holders h ON h.hash = s.hash AND h.doc > s.first_doc
  GROUP BY s.hash
)
SELECT CAST(0 AS INT) AS kind, s.hash, s.documents, s.postings, s.first_doc, x.second_doc
FROM kgram_spreads s LEFT JOIN kgram_seconds x ON x.hash = s.hash
