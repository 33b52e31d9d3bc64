-- Conjuncts over the key only stay a filter below the normalization's Exchange; the others, a
-- non-deterministic one included, become the ChangelogNormalize's condition (Flink 2.2.1's
-- PushCalcPastChangelogNormalizeRule).
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, a INT, s STRING, PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT id, a FROM t WHERE a > 10 AND id <> 5 AND RAND() < 2;
