-- ORDER BY a non-time column with LIMIT (a global Top-N).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, qty FROM orders WHERE qty IS NOT NULL ORDER BY qty DESC, order_id LIMIT 3;
