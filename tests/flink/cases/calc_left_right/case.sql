-- LEFT and RIGHT as functions (reserved words that Flink's parser also takes as function names).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, LEFT(customer, 2) AS l2, RIGHT(customer, 2) AS r2 FROM orders WHERE order_id <= 3;
