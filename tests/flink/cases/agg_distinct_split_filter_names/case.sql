-- Split distinct aggregation where a set's filtered call comes before its unfiltered one: the first gets $g_<id>, the later ones $g_<id>0, ... (Calcite's unique names).
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT product) FILTER (WHERE qty < 3) AS nps, COUNT(DISTINCT product) AS np, COUNT(DISTINCT qty) FILTER (WHERE qty > 1) AS nq, SUM(qty) FILTER (WHERE qty > 1) AS s, COUNT(*) AS n FROM orders GROUP BY customer;
