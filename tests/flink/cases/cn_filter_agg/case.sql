-- A filter below a group aggregate over the ChangelogNormalize of a CDC source: pushed into the
-- normalization, whose -D rows retract from the aggregate.
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, a INT, s STRING, PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT s, COUNT(*) AS n, SUM(a) AS total FROM t WHERE a > 10 GROUP BY s;
