-- Split distinct aggregation over a changelog source (debezium-json): both phases retract (COUNT_RETRACT, MAX_RETRACT, LISTAGG_RETRACT, ...); AVG, MIN, MAX and LISTAGG split.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT k, COUNT(DISTINCT v) AS nv, AVG(v) AS av, MAX(v) AS mx, MIN(v) AS mn, LISTAGG(CAST(v AS STRING)) AS lv FROM sales GROUP BY k;
