-- IN and NOT IN under OR over an empty subquery: IN is FALSE and NOT IN TRUE, also for a NULL on the left.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id FROM orders
WHERE qty = 1 OR customer IN (SELECT customer FROM customers WHERE tier > 100)
  OR (qty = 2 AND CASE WHEN qty > 0 THEN customer END NOT IN (SELECT region FROM customers WHERE tier > 100));
