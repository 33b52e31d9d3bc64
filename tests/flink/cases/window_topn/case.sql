-- Window Top-N: the customer with the most units per 3-minute window (ties broken by name).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, customer, units, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY units DESC, customer) AS rn FROM (
    SELECT window_start, window_end, customer, SUM(qty) AS units
    FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '3' MINUTE))
    GROUP BY window_start, window_end, customer)
) WHERE rn <= 1;
