-- The variance functions over a DECIMAL in a split distinct aggregation: the argument cast to the result type DECIMAL(38, 6), then SUM of its square, SUM and COUNT per bucket, VAR_SAMP/STDDEV_SAMP/VAR_POP in DECIMAL arithmetic; with a plain SUM(qty) the reduction shares nothing.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT product) AS np, STDDEV_SAMP(price) AS sd, VAR_POP(price) AS vp, VAR_SAMP(qty) AS vq, SUM(qty) AS sq FROM orders GROUP BY customer;
