-- Split distinct aggregation of LISTAGG(DISTINCT) and AVG, with 'bucket-num' 4 (apple and pear share a bucket).
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '4';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT product) AS np, AVG(qty) AS aq, LISTAGG(DISTINCT product) AS lp FROM orders GROUP BY customer;
