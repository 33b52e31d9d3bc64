-- SUM/MIN/MAX/AVG of DECIMAL(10,2) and of a DECIMAL product: result precision and scale.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT product, SUM(price) AS s, SUM(price * qty) AS revenue, AVG(price * qty) AS avg_rev, MIN(price) AS lo, COUNT(DISTINCT price) AS prices
FROM orders GROUP BY product;
