-- DISTINCT over a TIMESTAMP in a split distinct aggregation: the bucket is MOD(HASH_CODE(ts), 16) (TimestampData's hash); MIN over it too.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT product, COUNT(DISTINCT ts) AS nt, MIN(ts) AS first_ts, COUNT(DISTINCT customer) AS nc FROM orders GROUP BY product;
