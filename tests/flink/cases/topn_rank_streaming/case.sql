-- RANK() Top-N in streaming: Flink 2.2 refuses it, Sluice runs it (documented).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, qty, r FROM (SELECT order_id, qty, RANK() OVER (ORDER BY qty DESC) AS r FROM orders WHERE qty IS NOT NULL) WHERE r <= 3;
