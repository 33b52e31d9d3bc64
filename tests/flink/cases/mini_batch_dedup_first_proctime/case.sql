-- Mini-batch Deduplicate keep-first-row on processing time (Flink's
-- ProcTimeMiniBatchDeduplicateKeepFirstRowFunction): the first row of each key in a bundle of 3 rows,
-- emitted when the bundle closes, only for keys not seen before.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3), pt AS PROCTIME()
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, customer, product FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt ASC) AS rn FROM orders
) WHERE rn = 1;
