-- Calc: integer division, DOUBLE printing, comparisons with NULL, IN and BETWEEN.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, qty / 2 AS half, order_id % 5 AS r, CAST(qty AS DOUBLE) / 3 AS third, 0.1 + 0.2 AS tenths,
       CAST(1e20 AS DOUBLE) * qty AS big, CAST(qty AS FLOAT) / 7 AS f, qty IN (1, 2, 3) AS small_set,
       price BETWEEN 1 AND 2 AS mid, qty > NULL AS unknown_cmp, -qty AS neg, POWER(2, qty) AS pow, SQRT(CAST(qty AS DOUBLE)) AS root
FROM orders;
