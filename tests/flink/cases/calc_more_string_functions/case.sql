-- REGEXP_EXTRACT, REGEXP_REPLACE, SPLIT_INDEX, INITCAP, REVERSE, REPEAT, INSTR, MD5.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, REGEXP_EXTRACT(customer, '([a-z])([a-z]+)', 2) AS tail, REGEXP_REPLACE(customer, '[aeiou]', '*') AS masked,
       SPLIT_INDEX('a,b,c', ',', 1) AS part2, INITCAP(CONCAT(customer, ' smith')) AS title, REVERSE(customer) AS rev,
       REPEAT(product, 2) AS twice, INSTR(customer, 'a') AS first_a, MD5(customer) AS h
FROM orders WHERE order_id <= 5;
