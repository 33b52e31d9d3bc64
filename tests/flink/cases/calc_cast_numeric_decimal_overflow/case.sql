-- CAST of numbers to a DECIMAL too narrow for them gives NULL (integers, doubles, floats, decimals).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, CAST(qty * 1000 AS DECIMAL(3, 1)) AS i, CAST(CAST(qty AS BIGINT) * 100 AS DECIMAL(3, 1)) AS b, CAST(CAST(price AS DOUBLE) * 1e300 AS DECIMAL(10, 2)) AS d, CAST(CAST(price AS FLOAT) * 100 AS DECIMAL(4, 2)) AS f, CAST(price * 100 AS DECIMAL(2, 0)) AS dd, CAST(price AS DECIMAL(38, 37)) AS wide FROM orders;
