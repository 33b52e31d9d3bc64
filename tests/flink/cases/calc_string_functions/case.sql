-- Calc: string functions.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, CONCAT(customer, '/', product) AS label, CHAR_LENGTH(customer) AS len,
       SUBSTRING(customer FROM 2 FOR 3) AS mid, LOWER(TRIM('  X ')) AS t, customer LIKE 'a%' AS a_name,
       REPLACE(customer, 'a', 'A') AS rep, POSITION('o' IN customer) AS pos, LPAD(CAST(order_id AS STRING), 3, '0') AS padded,
       CONCAT_WS('-', customer, product) AS ws
FROM orders WHERE order_id <= 6;
