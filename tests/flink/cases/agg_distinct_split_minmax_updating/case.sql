-- Split distinct aggregation over a group aggregate's counts: the partial MAX reads an updating input, so both phases use MAX_RETRACT.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT n) AS dn, MAX(n) AS mx FROM (SELECT customer, product, COUNT(*) AS n FROM orders GROUP BY customer, product) GROUP BY customer;
