-- A CAST of a NaN DOUBLE to DECIMAL fails the job (Java's BigDecimal message).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, CAST(CAST('NaN' AS DOUBLE) + order_id AS DECIMAL(10, 2)) AS d FROM orders;
