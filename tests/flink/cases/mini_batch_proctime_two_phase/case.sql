-- Mini-batch without watermarks: MiniBatchAssigner mode=[ProcTime]; LocalGroupAggregate and
-- GlobalGroupAggregate each close their bundle after 'size' elements (the global one counts the local
-- phase's partial rows) or at the end of input; allow-latency (1 h) never passes during the run.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, COUNT(*) AS n, SUM(qty) AS units FROM orders GROUP BY customer;
