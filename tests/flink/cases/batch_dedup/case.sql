-- Batch deduplication: first row and last row per key by event time (a top-1 Rank in batch).
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, k, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM t) WHERE rn = 1;
SELECT id, g, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY g ORDER BY ts DESC) AS rn FROM t) WHERE rn = 1;
