-- Split distinct aggregation over two DISTINCT columns and a plain call: Flink expands each row once per set of bucket columns (Expand, $g_N filters).
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT product) AS np, COUNT(DISTINCT qty) AS nq, SUM(qty) AS s FROM orders GROUP BY customer;
