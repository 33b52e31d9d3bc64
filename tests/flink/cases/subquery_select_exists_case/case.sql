-- EXISTS (correlated) under CASE and NOT EXISTS in the SELECT list.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, CASE WHEN EXISTS (SELECT 1 FROM customers AS c WHERE c.customer = o.customer) THEN 'known' ELSE 'unknown' END AS who, NOT EXISTS (SELECT 1 FROM customers WHERE tier > 2) AS nobody FROM orders AS o;
