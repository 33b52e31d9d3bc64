-- An unbounded OVER ordered by a column that is not a time attribute (Flink 2.2's non-time OverAggregate), in order.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, SUM(qty) OVER (PARTITION BY customer ORDER BY order_id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM orders;
