-- Mini-batch LEFT JOIN (Flink's MiniBatchStreamingJoinOperator, EXPLAIN miniBatch=[true]): with a
-- bundle larger than the input, both inputs are buffered whole and joined when the input ends (the
-- right side's bundle first, then the left's), so the result does not depend on how the two sources
-- interleave.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '1000';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT o.order_id, o.customer, c.region FROM orders AS o LEFT JOIN customers AS c ON o.customer = c.customer;
