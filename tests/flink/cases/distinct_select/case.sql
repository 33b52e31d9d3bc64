-- SELECT DISTINCT: insert-only output of the first occurrence of each row.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT DISTINCT customer, product FROM orders WHERE product IS NOT NULL;
