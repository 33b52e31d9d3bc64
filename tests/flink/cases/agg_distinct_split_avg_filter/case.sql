-- Split distinct aggregation with a filtered AVG next to two DISTINCT columns: the AVG's partial $SUM0 and COUNT share its $g_<id> filter.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, AVG(qty) FILTER (WHERE qty < 3) AS aq, COUNT(DISTINCT product) AS np, COUNT(DISTINCT qty) AS nq FROM orders GROUP BY customer;
