-- IN of a correlated subquery grouped by an outer expression that its SELECT list and HAVING read.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT o.order_id FROM orders AS o WHERE o.qty + 1 IN (SELECT o.qty + 1 FROM orders AS i WHERE i.customer = o.customer GROUP BY i.product, o.qty + 1 HAVING o.qty + 1 > 2);
