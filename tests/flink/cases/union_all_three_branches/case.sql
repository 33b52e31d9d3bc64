-- Three branches of UNION ALL: Flink 2.2.1 keeps the chain as written, a Union over a Union (found by
-- tests/flink/random_queries.py, random query 2014-78).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, 'big' AS kind FROM orders WHERE qty >= 4
UNION ALL
SELECT order_id, 'cheap' AS kind FROM orders WHERE price < 1
UNION ALL
SELECT order_id, 'alice' AS kind FROM orders WHERE customer = 'alice';
