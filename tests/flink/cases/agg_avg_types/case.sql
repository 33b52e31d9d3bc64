-- AVG over INT, DECIMAL and DOUBLE: result types and rounding.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT product, AVG(qty) AS avg_qty, AVG(price) AS avg_price, AVG(CAST(qty AS DOUBLE)) AS avg_dbl,
       STDDEV_POP(CAST(qty AS DOUBLE)) AS sd
FROM orders WHERE product IS NOT NULL GROUP BY product;
