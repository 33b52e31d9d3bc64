-- GROUP BY an expression of an outer column inside a correlated EXISTS.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT o.order_id FROM orders AS o WHERE EXISTS (SELECT 1 FROM orders AS i WHERE i.customer = o.customer GROUP BY i.product, o.qty + 1 HAVING COUNT(*) >= 1);
