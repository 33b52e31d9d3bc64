-- Window deduplication over a SESSION TVF: the last order of each customer's session.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, customer, order_id FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, customer ORDER BY ts DESC) AS rn
  FROM TABLE(SESSION(TABLE orders PARTITION BY customer, DESCRIPTOR(ts), INTERVAL '1' MINUTE)))
WHERE rn = 1;
