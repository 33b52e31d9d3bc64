-- CUMULATE window TVF: 3-minute windows growing by a minute.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, SUM(qty) AS units, COUNT(DISTINCT customer) AS buyers
FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE))
GROUP BY window_start, window_end;
