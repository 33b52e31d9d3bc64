-- Processing-time TUMBLE at the end of a bounded input: Flink fires no window (documented).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3), pt AS PROCTIME()
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(pt), INTERVAL '1' HOUR)) GROUP BY window_start, window_end, customer;
