-- COUNT(DISTINCT) and COUNT(column) ignore NULLs; MIN/MAX of strings.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT COUNT(DISTINCT product) AS products, COUNT(product) AS with_product, COUNT(*) AS n, MIN(customer) AS first_name, MAX(customer) AS last_name FROM orders;
