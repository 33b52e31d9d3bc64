-- RIGHT JOIN ... USING: the common column unqualified is the COALESCE of both sides; qualified, each side's own value.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT customer, o.customer AS oc, c.customer AS cc, region, order_id FROM orders AS o RIGHT JOIN customers AS c USING (customer);
