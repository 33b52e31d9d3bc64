-- ROW_NUMBER, RANK and DENSE_RANK OVER without a Top-N filter in batch mode: every row numbered
-- (Flink's batch OverAggregate over a Sort; Sluice's batch Rank with no upper bound).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM t;
SELECT id, k, RANK() OVER (PARTITION BY k ORDER BY v) AS r, DENSE_RANK() OVER (PARTITION BY k ORDER BY v) AS dr FROM t;
SELECT id, k, v, RANK() OVER (PARTITION BY k ORDER BY v) AS r FROM t;
SELECT id, v, DENSE_RANK() OVER (ORDER BY v DESC) AS dr FROM t;
SELECT id, k, rn FROM (SELECT id, k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id DESC) AS rn FROM t) WHERE rn > 1;
