-- A filter and computed columns over the ChangelogNormalize of a CDC source: the filter goes into the
-- normalization, the expressions stay in a Calc above it.
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, a INT, s STRING, PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT id, a + 1 AS b, UPPER(s) AS u FROM t WHERE a > 10 OR s = 'w';
