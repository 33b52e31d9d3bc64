-- Top-N over an updating aggregate (retract rank).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, units, rn FROM (
  SELECT customer, units, ROW_NUMBER() OVER (ORDER BY units DESC) AS rn
  FROM (SELECT customer, SUM(qty) AS units FROM orders GROUP BY customer)
) WHERE rn <= 2;
