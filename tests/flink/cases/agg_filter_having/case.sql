-- Aggregates with FILTER and HAVING (HAVING turns updates into inserts/deletes).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(*) FILTER (WHERE qty > 2) AS big_orders, SUM(qty) AS units
FROM orders GROUP BY customer HAVING SUM(qty) > 4;
