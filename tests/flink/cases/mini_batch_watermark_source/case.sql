-- Mini-batch over a source with a watermark, but no operator that needs it: mode=[ProcTime] over the
-- WatermarkAssigner (Flink's MiniBatchIntervalInferRule).
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(*) AS n, SUM(qty) AS units FROM orders GROUP BY customer;
