-- An outer column in the SELECT list of a derived table inside an IN subquery.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT o.order_id FROM orders AS o WHERE o.customer IN (SELECT x.customer FROM (SELECT c.customer, o.qty AS q FROM customers AS c) AS x WHERE x.q > 2);
