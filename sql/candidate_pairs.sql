-- Candidate pairs for `twinspot align --pairs`: one row (a, b) per pair of documents
-- worth aligning, a < b, with the number of shared k-gram hits and the SimHash
-- distance when the pair is a near-duplicate candidate. Every pair `twinspot compare
-- --all` would compare and find something in is among them; `align` compares them as
-- it would.
-- The rule is the matcher's (src/matching/prefilter.rs), its numbers read from the
-- table `rule`: a pair needs rule.min_hits (2) k-gram hits, or one hit whose lone reach
-- covers rule.min_reach characters (half the minimum passage: a lone hit of Chinese
-- text, 11 characters at most, can never open a passage; 11 English words can), or
-- SimHash values at most rule.simhash_threshold bits apart, or an anchor of character
-- grams (sql/char_gram_pairs.sql: a short edited copy). A pair's hits may come from
-- several buckets of the postings: they are summed here, before the rule is applied.
-- Tables, as a runner registers them:
--   kgram_pairs  what sql/kgram_pairs.sql wrote (over all postings, or the union of
--                its runs over each bucket)
--   near_pairs   what sql/near_pairs.sql wrote
--   char_gram_pairs  what sql/char_gram_pairs.sql wrote
--   rule         DIR/rule: the numbers of the candidate rule (one row per shard)
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista.
WITH
r AS (
  SELECT MIN(min_hits) AS min_hits, MIN(min_reach) AS min_reach FROM rule
),
hits AS (
  SELECT a, b, SUM(shared) AS shared, MAX(reach) AS reach
  FROM kgram_pairs
  GROUP BY a, b
),
used AS (
  SELECT h.a, h.b, CAST(h.shared AS BIGINT) AS shared, CAST(NULL AS INT) AS distance
  FROM hits h CROSS JOIN r
  WHERE h.shared >= r.min_hits OR h.reach >= r.min_reach
  UNION ALL
  SELECT a, b, CAST(0 AS BIGINT) AS shared, CAST(distance AS INT) AS distance FROM near_pairs
  UNION ALL
  SELECT a, b, CAST(0 AS BIGINT) AS shared, CAST(NULL AS INT) AS distance FROM char_gram_pairs
)
SELECT a, b, SUM(shared) AS shared_kgrams, MIN(distance) AS simhash_distance
FROM used
GROUP BY a, b
ORDER BY a, b
