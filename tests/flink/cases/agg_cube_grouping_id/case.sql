-- CUBE with GROUPING_ID over an append-only input.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, product, SUM(qty) AS units, GROUPING_ID(customer, product) AS gid, GROUPING(product) AS gp
FROM orders GROUP BY CUBE (customer, product);
