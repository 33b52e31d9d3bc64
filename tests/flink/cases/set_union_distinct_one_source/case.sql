-- UNION (distinct) of two branches of one source, with NULLs.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT product, qty FROM orders WHERE qty < 3 UNION SELECT product, qty FROM orders WHERE price < 1.2 OR price IS NULL;
