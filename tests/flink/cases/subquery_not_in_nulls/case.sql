-- NOT IN where the left side has NULLs (the order's customer is NULL for CASE-made rows).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, c FROM (SELECT order_id, CASE WHEN qty > 2 THEN customer END AS c FROM orders) WHERE c NOT IN (SELECT customer FROM customers WHERE tier >= 2);
