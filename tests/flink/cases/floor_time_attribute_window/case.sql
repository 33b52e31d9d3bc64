-- FLOOR of a rowtime attribute keeps it: a TUMBLE window over a view with FLOOR(ts TO MINUTE) AS ts.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE VIEW floored AS SELECT customer, qty, FLOOR(ts TO MINUTE) AS ts FROM orders;
SELECT window_start, window_end, COUNT(*) AS n, SUM(qty) AS units
FROM TABLE(TUMBLE(TABLE floored, DESCRIPTOR(ts), INTERVAL '2' MINUTE))
GROUP BY window_start, window_end;
