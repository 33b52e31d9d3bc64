-- Batch aggregation and sort over a csv filesystem source.
CREATE TABLE t (
  id INT, k STRING, g INT, v INT, x DOUBLE, s STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/t.json', 'format' = 'json');
CREATE TABLE r (sensor STRING, reading DOUBLE, ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/readings.csv', 'format' = 'csv', 'csv.null-literal' = '');
SET 'execution.runtime-mode' = 'batch';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT sensor, COUNT(*) AS n, SUM(reading) AS s, MAX(ts) AS last_ts FROM r GROUP BY sensor;
SELECT sensor, reading FROM r ORDER BY reading DESC NULLS LAST, sensor;
