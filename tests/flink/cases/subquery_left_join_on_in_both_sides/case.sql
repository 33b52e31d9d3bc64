-- IN in a LEFT join's ON whose subquery reads the right side, its operand the left side.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT o.order_id, c.region FROM orders AS o LEFT JOIN customers AS c ON o.customer = c.customer AND o.qty IN (SELECT tier FROM customers AS d WHERE d.region = c.region);
