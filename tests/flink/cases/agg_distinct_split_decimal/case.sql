-- DISTINCT over a DECIMAL in a split distinct aggregation: the bucket is MOD(HASH_CODE(price), 16) (DecimalData's hash).
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT price) AS np, SUM(DISTINCT price) AS sp, MAX(price) AS mp, AVG(qty) AS aq FROM orders GROUP BY customer;
