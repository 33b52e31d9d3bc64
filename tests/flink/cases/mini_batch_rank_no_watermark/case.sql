-- Mini-batch on, no watermark: a source read through an Exchange gets a MiniBatchAssigner (ProcTime).
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, customer FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY qty DESC) AS rn FROM orders) WHERE rn <= 2;
