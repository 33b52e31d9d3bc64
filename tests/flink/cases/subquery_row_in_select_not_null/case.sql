-- Row-valued IN and NOT IN in the SELECT list over values that cannot be NULL: two-valued.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, (COALESCE(customer, ''), COALESCE(qty, 0)) IN (SELECT COALESCE(customer, ''), COALESCE(tier, 0) + 1 FROM customers) AS i, (COALESCE(customer, ''), COALESCE(qty, 0)) NOT IN (SELECT COALESCE(customer, ''), COALESCE(tier, 0) + 1 FROM customers) AS n FROM orders;
