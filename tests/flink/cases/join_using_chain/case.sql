-- Two USING joins in a row: the second joins on a column of the first's left side; SELECT * shows each common column once, then the other columns; a qualified common column of the first join stays readable.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
CREATE TABLE shipments (
  ship_id INT, order_id INT
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/shipments.json', 'format' = 'json');
SELECT *, c.customer AS cc FROM orders AS o LEFT JOIN customers AS c USING (customer) JOIN shipments AS s USING (order_id);
