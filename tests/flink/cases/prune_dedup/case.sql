-- Deduplication (first row on processing time) reading few columns of a wide table:
-- the deduplication stores only the columns read above it.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3), pt AS PROCTIME()
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, qty FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt ASC) AS rn FROM orders
) WHERE rn = 1;
