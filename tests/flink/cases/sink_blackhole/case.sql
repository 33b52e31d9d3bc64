-- An updating aggregate into blackhole: no update-before rows are asked for (compared: EXPLAIN).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_nothing (customer STRING, units INT) WITH ('connector' = 'blackhole');
INSERT INTO out_nothing SELECT customer, SUM(qty) FROM orders GROUP BY customer;
