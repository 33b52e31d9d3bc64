-- NATURAL FULL JOIN: joined on the common column customer; SELECT * shows it once (first, the COALESCE of both sides), then each side's other columns.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT * FROM orders NATURAL FULL JOIN customers;
