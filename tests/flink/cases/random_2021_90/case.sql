-- Random query 2021-90: a batch OVER with a RANGE INTERVAL frame over the TIMESTAMP ts: Flink 2.2.1's
-- generated code fails ("Cannot cast TimestampData to Long"), Sluice answers
-- (flink_differences.md#flinks-planning-failures).
CREATE TABLE t (
  id INT, k STRING, g INT, a INT, b BIGINT, x DOUBLE, m DECIMAL(10, 2), s STRING, f BOOLEAN, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, ts, MAX(m) OVER w AS o0, MAX(s) OVER w AS o1
FROM t
WINDOW w AS (ORDER BY ts RANGE BETWEEN INTERVAL '10' SECOND PRECEDING AND CURRENT ROW);
