-- Deduplicate keep-first-row on event time.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, customer, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY ts ASC) AS rn FROM orders
) WHERE rn = 1;
