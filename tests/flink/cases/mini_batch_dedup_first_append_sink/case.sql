-- Mini-batch Deduplicate keep-first-row on processing time into an append-only sink: with
-- mini-batch Flink plans a keep-first dedup as updating (RankUtil.outputInsertOnlyInDeduplicate).
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3), pt AS PROCTIME()
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE firsts (order_id INT, customer STRING, product STRING) WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/firsts', 'format' = 'json');
INSERT INTO firsts SELECT order_id, customer, product FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt ASC) AS rn FROM orders
) WHERE rn = 1;
