-- DISTINCT over a DOUBLE, a DATE and a BOOLEAN in a split distinct aggregation: each hashed into its bucket as Flink's generated code hashes it (Double, Integer, Boolean hashCode), an Expand per column set; with AVG and SUM beside them.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT CAST(price AS DOUBLE)) AS nd, COUNT(DISTINCT CAST(ts AS DATE)) AS ndays, COUNT(DISTINCT qty > 2) AS nb, AVG(qty) AS aq, SUM(price) AS sp FROM orders GROUP BY customer;
