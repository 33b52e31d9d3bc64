-- A column-level PRIMARY KEY NOT ENFORCED.
CREATE TABLE orders (
  order_id INT PRIMARY KEY NOT ENFORCED, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, qty FROM orders WHERE order_id < 4;
