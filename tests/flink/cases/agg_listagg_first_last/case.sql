-- LISTAGG, FIRST_VALUE and LAST_VALUE per key (append-only input).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, LISTAGG(product) AS products, FIRST_VALUE(product) AS first_p, LAST_VALUE(qty) AS last_q
FROM orders GROUP BY customer;
