-- Refused at validation, as Calcite: a RANGE offset with two ORDER BY keys.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
SET 'execution.runtime-mode' = 'batch';
SELECT id, COUNT(*) OVER (ORDER BY g, id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS c FROM t;
