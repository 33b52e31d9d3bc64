-- The columns a query reads over the ChangelogNormalize of a CDC source with duplicates: Flink 2.2.1
-- projects them (and the key) below the normalization, so an update of other columns only (id 1's `a`)
-- is a repeated row and emits nothing, as does an event delivered twice (follows random query 2013-88).
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, a INT, s STRING, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT id, s FROM t;
