-- Top-1 per customer over an updating aggregate whose SUM(price) is not read above: the Rank keeps the
-- aggregate's unique key (customer, product) and the order key, and drops the rest.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, units FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY units DESC) AS rn
  FROM (SELECT customer, product, SUM(qty) AS units, SUM(price) AS spent FROM orders GROUP BY customer, product)
) WHERE rn <= 1;
