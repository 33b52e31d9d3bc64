-- A TUMBLE window aggregate into a print sink (insert-only: no update-before rows asked for).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_windows (window_start TIMESTAMP(3), window_end TIMESTAMP(3), product STRING, units INT) WITH ('connector' = 'print');
INSERT INTO out_windows
SELECT window_start, window_end, product, SUM(qty)
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' MINUTE))
GROUP BY window_start, window_end, product;
