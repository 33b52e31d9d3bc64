-- Explicit GROUPING SETS with the empty set, over an updating input.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, n, COUNT(*) AS c
FROM (SELECT customer, product, COUNT(*) AS n FROM orders GROUP BY customer, product)
GROUP BY GROUPING SETS ((customer), (n), ());
