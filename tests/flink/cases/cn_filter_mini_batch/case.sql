-- A filter over a mini-batch ChangelogNormalize (ProcTimeMiniBatchDeduplicateKeepLastRowFunction with
-- the condition): only the last change of each key in a bundle of 2 is applied, through the filter.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '2';
SET 'table.exec.source.cdc-events-duplicate' = 'true';
CREATE TABLE t (
  id INT NOT NULL, a INT, s STRING, PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'debezium-json');
SELECT id, a FROM t WHERE a > 10;
