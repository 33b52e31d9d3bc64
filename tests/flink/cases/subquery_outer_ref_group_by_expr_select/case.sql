-- A correlated scalar subquery grouped by an outer expression that its SELECT list reads.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT o.order_id, (SELECT MAX(i.qty) + (o.qty + 1) FROM orders AS i WHERE i.customer = o.customer GROUP BY i.customer, o.qty + 1) AS m FROM orders AS o;
