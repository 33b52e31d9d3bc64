-- Split distinct aggregation with LISTAGG next to COUNT(DISTINCT): a partial LISTAGG per key and bucket, a final LISTAGG of the partial strings.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT product) AS np, LISTAGG(product) AS lp FROM orders GROUP BY customer;
