-- Calc: numbers, booleans and timestamps cast to strings, strings to numbers.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, CAST(qty > 2 AS STRING) AS b, CAST(CAST(qty AS DOUBLE) / 4 AS STRING) AS d, CAST(ts AS STRING) AS t,
       CAST(price AS VARCHAR(3)) AS short, CAST('0042' AS INT) AS n, CAST(' 7 ' AS INT) AS trimmed,
       CAST(order_id AS CHAR(4)) AS c4, customer || '!' AS bang, CAST(NULL AS STRING) IS NULL AS null_cast
FROM orders WHERE order_id <= 6;
