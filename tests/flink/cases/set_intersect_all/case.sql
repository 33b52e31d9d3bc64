-- INTERSECT ALL: each row as often as it is in both inputs.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, product FROM orders WHERE qty > 1 INTERSECT ALL SELECT customer, product FROM orders WHERE price > 1;
