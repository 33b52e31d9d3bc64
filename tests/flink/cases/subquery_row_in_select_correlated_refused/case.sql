-- A correlated row-valued IN in the SELECT list over nullable values: refused as uncorrelated.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, (qty, product) IN (SELECT tier + 1, region FROM customers AS c WHERE c.customer = o.customer) AS i, (qty, product) NOT IN (SELECT tier + 1, region FROM customers AS c WHERE c.customer = o.customer) AS n FROM orders AS o;
