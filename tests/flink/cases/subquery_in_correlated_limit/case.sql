-- IN of a correlated subquery with ORDER BY ... LIMIT.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT o.order_id FROM orders AS o WHERE o.customer IN (SELECT c.customer FROM customers AS c WHERE c.tier <= o.qty ORDER BY c.tier DESC LIMIT 2);
