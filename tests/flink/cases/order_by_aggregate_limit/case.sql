-- ORDER BY an aggregate that the SELECT list also computes, with LIMIT (a Top-N over an updating aggregate).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, SUM(qty) FROM orders GROUP BY customer ORDER BY SUM(qty) DESC LIMIT 3;
