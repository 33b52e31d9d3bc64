-- A filter over the ChangelogNormalize of a CDC source with duplicates: Flink 2.2.1 pushes `f` into the
-- normalization (ChangelogNormalize(key=[id], condition=[f])): id 1's first row passing is +I, id 2
-- leaving the filter is -D (Sluice filtered after normalizing until it pushed the filter in the same
-- way: +U, -U). The change of id 3's `a` only,
-- and its event delivered twice, emit nothing on both (the normalization compares the columns read).
-- Found by tests/flink/random_queries.py, random query 2013-88 (minimised by hand).
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, a INT, f BOOLEAN, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT id, ts FROM t WHERE f;
