-- Calc: DECIMAL result types of +, *, / and ROUND.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, price * qty AS total, price / 3 AS third, price + 0.005 AS plus, ROUND(price * 1.075, 2) AS taxed,
       price * price AS sq, CAST(price AS DOUBLE) * 2 AS dbl, MOD(order_id, 4) AS m, ABS(qty - 4) AS dist
FROM orders;
