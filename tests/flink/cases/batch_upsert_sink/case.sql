-- Batch INSERT of an aggregation and of an outer join into print sinks with a primary key: inserts only.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE u (
  id INT, k STRING, w INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/u.json', 'format' = 'json');
CREATE TABLE per_key (k STRING, n BIGINT, sv INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'print');
CREATE TABLE joined (id INT, w INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'print');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
EXECUTE STATEMENT SET BEGIN
  INSERT INTO per_key SELECT k, COUNT(*), SUM(v) FROM t WHERE k IS NOT NULL GROUP BY k;
  INSERT INTO joined SELECT t.id, u.w FROM t LEFT JOIN u ON t.k = u.k AND u.w > 250;
END;
