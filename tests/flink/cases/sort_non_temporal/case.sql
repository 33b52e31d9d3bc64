-- Flink's internal '__table.exec.sort.non-temporal.enabled__': a streaming ORDER BY on non-time columns.
SET '__table.exec.sort.non-temporal.enabled__' = 'true';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, qty FROM orders ORDER BY qty DESC, order_id;
