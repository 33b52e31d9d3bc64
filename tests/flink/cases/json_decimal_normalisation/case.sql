-- How the json format writes DECIMAL values with trailing zeros (100.00, 0.10, 5.00).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_dec (order_id INT, hundred DECIMAL(10, 2), tenth DECIMAL(10, 2), five DECIMAL(10, 2), tiny DECIMAL(20, 10))
WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/out_dec', 'format' = 'json');
INSERT INTO out_dec SELECT order_id, CAST(100 AS DECIMAL(10, 2)), CAST(0.1 AS DECIMAL(10, 2)), CAST(5 AS DECIMAL(10, 2)), CAST(0.00000012 AS DECIMAL(20, 10)) FROM orders WHERE order_id = 1;
