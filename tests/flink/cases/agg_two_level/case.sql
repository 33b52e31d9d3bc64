-- An aggregate over an updating aggregate (retractions flow into the second level).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT units, COUNT(*) AS customers FROM (SELECT customer, SUM(qty) AS units FROM orders GROUP BY customer) GROUP BY units;
