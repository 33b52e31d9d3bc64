-- EXISTS and NOT EXISTS (uncorrelated) under OR, and IN under IS NOT TRUE.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id FROM orders
WHERE (qty > 3 AND EXISTS (SELECT 1 FROM customers WHERE tier > 2))
  OR NOT EXISTS (SELECT 1 FROM customers WHERE tier > 100)
    AND (customer IN (SELECT customer FROM customers WHERE tier = 1)) IS NOT TRUE;
