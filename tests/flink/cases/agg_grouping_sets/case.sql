-- GROUPING SETS / ROLLUP with GROUPING() over an append-only input.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, product, COUNT(*) AS n, GROUPING(customer, product) AS g
FROM orders WHERE product IS NOT NULL GROUP BY ROLLUP (customer, product);
