-- A HOP window aggregation filtered on window_end and on a non-window column: Flink aggregates the rows' attached windows.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, COUNT(*) AS n, SUM(qty) AS units
FROM TABLE(HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2' MINUTE))
WHERE window_end <= TIMESTAMP '2026-08-15 10:05:00' AND qty > 1
GROUP BY window_start, window_end;
