-- UNION ALL of DECIMAL(38, 2) and DECIMAL(10, 4) columns: DECIMAL(38, 2).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, CAST(price AS DECIMAL(38, 2)) AS p FROM orders WHERE order_id < 3 UNION ALL SELECT order_id, CAST(price AS DECIMAL(10, 4)) AS p FROM orders WHERE order_id > 10;
