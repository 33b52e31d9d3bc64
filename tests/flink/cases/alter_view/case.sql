-- ALTER VIEW: a view renamed, then given a new query (an aggregation) that a query reads.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE VIEW big AS SELECT order_id, qty FROM orders WHERE qty > 2;
ALTER VIEW big RENAME TO bulky;
ALTER VIEW bulky AS SELECT customer, SUM(qty) AS total FROM orders GROUP BY customer;
SELECT * FROM bulky;
