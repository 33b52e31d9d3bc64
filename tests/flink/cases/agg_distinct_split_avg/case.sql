-- Split distinct aggregation with AVG (INT, DECIMAL, DOUBLE, and AVG(DISTINCT)): a partial $SUM0 and COUNT, a final $SUM0 of each and a Calc dividing them (Flink's SplitAggregateRule STEP 4).
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, AVG(DISTINCT qty) AS adq, AVG(price) AS ap, AVG(CAST(qty AS DOUBLE)) AS ad, COUNT(DISTINCT product) AS np FROM orders GROUP BY customer;
