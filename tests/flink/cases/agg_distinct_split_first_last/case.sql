-- Split distinct aggregation with FIRST_VALUE and LAST_VALUE: split like MIN/MAX, their final phase retracts.
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.bucket-num' = '16';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(DISTINCT product) AS np, FIRST_VALUE(product) AS fp, LAST_VALUE(qty) AS lq FROM orders GROUP BY customer;
