-- The window TVF as a table: every row with its window columns (no aggregation).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, window_start, window_end, window_time FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' MINUTE));
