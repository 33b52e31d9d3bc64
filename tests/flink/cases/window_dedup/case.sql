-- Window deduplication: the first order of each 2-minute window.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, window_start FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY ts ASC) AS rn
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' MINUTE))
) WHERE rn = 1;
