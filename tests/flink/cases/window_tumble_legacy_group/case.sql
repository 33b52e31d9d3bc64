-- The legacy group window (GROUP BY TUMBLE(...)) with TUMBLE_START/TUMBLE_END.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT TUMBLE_START(ts, INTERVAL '3' MINUTE) AS ws, TUMBLE_END(ts, INTERVAL '3' MINUTE) AS we, COUNT(*) AS n, SUM(qty) AS units
FROM orders GROUP BY TUMBLE(ts, INTERVAL '3' MINUTE);
