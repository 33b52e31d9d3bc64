-- Deduplicate keep-last-row on processing time: an updating result (-U/+U per newer row).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3), pt AS PROCTIME()
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, customer, product FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt DESC) AS rn FROM orders
) WHERE rn = 1;
