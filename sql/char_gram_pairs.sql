-- Pairs tied by character grams: one row (a, b, shared), a < b, per pair of documents
-- whose winnowed character grams (table `chargrams`, written by `twinspot fingerprint
-- --parquet`) hold an anchor of the short-edited-copy search (src/matching/char_seeds.rs):
-- two shared grams no more than 60 characters apart in a (REACH) whose diagonals differ
-- by at most 4 characters (BAND), each gram held by at most 24 postings in the whole
-- collection (MAX_GRAM_POSTINGS: a common syllable says nothing). `shared` counts such
-- couples. sql/candidate_pairs.sql adds these pairs to the others.
-- The search looks every gram of the suspect up among the reference's winnowed ones;
-- here both sides are winnowed (the table would otherwise hold a row per character), so
-- a copy is found where a run of intact text is long enough for both documents to keep
-- the same gram of it (8 characters: a gram of 6 and a window of 3), as the copies of
-- tools/shortedit/make_set.py are: a good candidate rule, not a proven superset.
-- Tables, as a runner registers them:
--   chargrams  DIR/chargrams
--   copies     what sql/copies.sql wrote (later identical copies take no part)
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista.
WITH
kept AS (
  SELECT g.hash, g.doc, g.position
  FROM chargrams g
  LEFT JOIN copies c ON c.id = g.doc
  WHERE c.id IS NULL
),
rare AS (
  SELECT hash FROM kept GROUP BY hash HAVING COUNT(*) <= 24
),
hits AS (
  SELECT a.doc AS a, b.doc AS b, a.position AS pa, b.position AS pb
  FROM kept a
  JOIN rare r ON r.hash = a.hash
  JOIN kept b ON b.hash = a.hash
  WHERE a.doc < b.doc
)
SELECT x.a, x.b, COUNT(*) AS shared
FROM hits x
JOIN hits y ON y.a = x.a AND y.b = x.b
WHERE y.pa > x.pa AND y.pa - x.pa <= 60
  AND (y.pa - x.pa) - (y.pb - x.pb) BETWEEN -4 AND 4
GROUP BY x.a, x.b
