-- NOT IN under OR with NULLs on the left (CASE-made) and in the subquery (a NULL region's tier).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, c FROM (SELECT order_id, qty, CASE WHEN qty > 2 THEN customer END AS c FROM orders)
WHERE qty = 1 OR c NOT IN (SELECT customer FROM customers WHERE tier >= 2)
  OR CAST(order_id AS STRING) NOT IN (SELECT CASE WHEN tier = 1 THEN NULL ELSE region END FROM customers);
