-- Window Top-N over a SESSION TVF without PARTITION BY.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT * FROM (
  SELECT window_start, window_end, customer, order_id, qty,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY qty DESC, order_id) AS rn
  FROM TABLE(SESSION(TABLE orders, DESCRIPTOR(ts), INTERVAL '30' SECOND)))
WHERE rn <= 2;
