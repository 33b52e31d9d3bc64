-- A non-time OVER over an updating input: a retraction removes its row (-D) and updates the later rows.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, n, SUM(n) OVER (PARTITION BY customer ORDER BY p ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM (SELECT customer, product AS p, COUNT(*) AS n FROM orders GROUP BY customer, product);
