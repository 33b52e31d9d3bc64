-- STDDEV_POP/VAR_SAMP in a split distinct aggregation: reduced (as Flink's AggregateReduceFunctionsRule does) to SUM(qty * qty), SUM(qty) and COUNT(qty), split, and computed by a Calc over the final phase.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT product) AS np, STDDEV_POP(qty) AS sd, VAR_SAMP(qty) AS vs FROM orders GROUP BY customer;
