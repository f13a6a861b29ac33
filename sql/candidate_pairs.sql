-- Candidate pairs for `twinspot align --pairs`: one row (a, b) per pair of documents
-- worth aligning, a < b, with the number of shared k-gram hits and the SimHash
-- distance when the pair is a near-duplicate candidate. Every pair `twinspot compare
-- --all` would compare is among them; `align` compares them as it would.
-- Tables, as a runner registers them:
--   kgram_pairs  what sql/kgram_pairs.sql wrote (over all postings, or the union of
--                its runs over each bucket)
--   near_pairs   what sql/near_pairs.sql wrote
-- Plain SQL: the same text runs on DataFusion, Spark SQL and Ballista.
SELECT a, b, SUM(shared) AS shared_kgrams, MIN(distance) AS simhash_distance
FROM (
  SELECT a, b, CAST(shared AS BIGINT) AS shared, CAST(NULL AS INT) AS distance FROM kgram_pairs
  UNION ALL
  SELECT a, b, CAST(0 AS BIGINT) AS shared, CAST(distance AS INT) AS distance FROM near_pairs
) candidates
GROUP BY a, b
ORDER BY a, b
