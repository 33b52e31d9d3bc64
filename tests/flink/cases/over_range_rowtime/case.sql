-- OVER RANGE on event time: units in the two minutes up to each order, over all customers.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, ts, SUM(qty) OVER w AS units_2m, MAX(price) OVER w AS top_price
FROM orders WINDOW w AS (ORDER BY ts RANGE BETWEEN INTERVAL '2' MINUTE PRECEDING AND CURRENT ROW);
