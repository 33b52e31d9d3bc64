-- GroupAggregate without GROUP BY: one row updated by every input row.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT COUNT(*) AS n, COUNT(qty) AS with_qty, SUM(qty * price) AS revenue, AVG(qty) AS avg_qty FROM orders;
