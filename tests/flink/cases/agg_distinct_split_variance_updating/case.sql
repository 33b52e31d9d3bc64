-- The variance functions in a split distinct aggregation over a changelog source (debezium-json): the partial SUM/COUNT retract, the final SUM_RETRACT/$SUM0_RETRACT, the Calc computes STDDEV_POP/VAR_SAMP.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE sales (
  id INT, k STRING, v INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/sales.debezium.json', 'format' = 'debezium-json');
SELECT k, COUNT(DISTINCT v) AS nv, STDDEV_POP(v) AS sd, VAR_SAMP(v) AS vs, VAR_POP(v) AS vp FROM sales GROUP BY k;
