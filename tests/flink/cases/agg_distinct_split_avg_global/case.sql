-- Split distinct aggregation without GROUP BY, with an AVG: the partial phase groups by the bucket only, the final one runs on one task.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT AVG(qty) AS aq, COUNT(DISTINCT product) AS np FROM orders;
