-- Mini-batch join whose left side is deduplicated by the join key (each customer's last order):
-- Flink's EXPLAIN says leftInputSpec=[JoinKeyContainsUniqueKey], so the deduplication's -U/+U pairs
-- are folded per customer and applied with suppression (FULL JOIN: no NULL-padded customer in
-- between). A print sink takes update-before rows, so the join's input keeps them.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3), pt AS PROCTIME()
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
CREATE TABLE out_joined (customer STRING, order_id INT, region STRING) WITH ('connector' = 'print');
INSERT INTO out_joined SELECT l.customer, l.order_id, c.region FROM (
  SELECT order_id, customer FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY pt DESC) AS rn FROM orders
  ) WHERE rn = 1
) AS l FULL JOIN customers AS c ON l.customer = c.customer;
