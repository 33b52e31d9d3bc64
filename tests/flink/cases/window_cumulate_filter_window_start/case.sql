-- A CUMULATE window aggregation per product filtered on window_start: Flink aggregates the rows' attached windows.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, product, COUNT(*) AS n, MAX(qty) AS top_qty
FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE))
WHERE window_start >= TIMESTAMP '2026-08-15 10:03:00'
GROUP BY window_start, window_end, product;
