-- Split distinct aggregation with FILTERs on distinct and plain calls and a MAX (Nexmark q15/q16's shape): the $g_N filters are ANDed with the calls' own.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(*) AS n, COUNT(*) FILTER (WHERE qty < 3) AS small, COUNT(DISTINCT product) AS np, COUNT(DISTINCT product) FILTER (WHERE qty < 3) AS np_small, COUNT(DISTINCT qty) AS nq, MAX(qty) AS mq FROM orders GROUP BY customer;
