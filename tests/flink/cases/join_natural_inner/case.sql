-- NATURAL JOIN (inner) with qualified and unqualified references to the common column.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT customer, orders.customer AS oc, customers.customer AS cc, region, qty FROM orders NATURAL JOIN customers WHERE tier > 1;
