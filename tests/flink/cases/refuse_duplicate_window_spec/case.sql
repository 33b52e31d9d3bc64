-- Two named windows with the same specification: Calcite refuses the WINDOW clause.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, customer, SUM(qty) OVER w1 AS units, MAX(price) OVER w2 AS top
FROM orders
WINDOW w1 AS (PARTITION BY customer ORDER BY ts RANGE BETWEEN INTERVAL '2' MINUTE PRECEDING AND CURRENT ROW),
       w2 AS (PARTITION BY customer ORDER BY ts RANGE BETWEEN INTERVAL '2' MINUTE PRECEDING AND CURRENT ROW);
