-- A NOT NULL number too wide for its DECIMAL: the CAST is NOT NULL yet gives NULL, which the NOT NULL enforcer refuses.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, CAST(COALESCE(qty, 0) * 1000 AS DECIMAL(3, 1)) AS d FROM orders WHERE order_id < 3;
