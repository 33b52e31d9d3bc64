-- GroupAggregate: running COUNT/SUM/MIN/MAX per key, updates as -U/+U pairs.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(*) AS n, SUM(qty) AS units, MIN(price) AS lo, MAX(product) AS last_product
FROM orders GROUP BY customer;
