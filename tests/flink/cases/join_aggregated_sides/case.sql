-- A join of two aggregates of the same source (updating inputs on both sides).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT a.customer, a.units, b.orders_n FROM
  (SELECT customer, SUM(qty) AS units FROM orders GROUP BY customer) AS a
  JOIN (SELECT customer, COUNT(*) AS orders_n FROM orders GROUP BY customer) AS b ON a.customer = b.customer;
