-- IN over updating inputs on both sides: the semi join retracts when the match count falls to 0.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT customer, n FROM (SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer) WHERE customer IN (SELECT customer FROM orders GROUP BY customer HAVING SUM(qty) > 3);
