-- COUNT(DISTINCT) and SUM(DISTINCT) per key.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT product, COUNT(DISTINCT customer) AS buyers, SUM(DISTINCT qty) AS distinct_qty FROM orders GROUP BY product;
