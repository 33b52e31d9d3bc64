-- A row-valued IN subquery in a CASE's WHEN (UNKNOWN as FALSE, no counts).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT order_id, CASE WHEN (customer, qty) IN (SELECT customer, tier + 1 FROM customers) THEN 'y' ELSE 'n' END AS m FROM orders;
