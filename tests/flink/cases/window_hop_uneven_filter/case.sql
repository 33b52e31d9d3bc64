-- A HOP window aggregation (size no multiple of slide) filtered on window_start: refused, as when the TVF folds.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, COUNT(*) AS n, SUM(qty) AS units
FROM TABLE(HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' MINUTE, INTERVAL '3' MINUTE))
WHERE window_start >= TIMESTAMP '2026-08-15 10:00:00'
GROUP BY window_start, window_end;
