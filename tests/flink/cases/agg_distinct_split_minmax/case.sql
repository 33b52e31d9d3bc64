-- Split distinct aggregation with MAX and MIN over an insert-only input: each gets its own bucket column (an Expand), and the final MAX/MIN are plain (Flink's monotonicity analysis: the partial results only grow/shrink), not MAX_RETRACT.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT product) AS np, MAX(qty) AS mx, MIN(order_id) AS mn FROM orders GROUP BY customer;
