-- Mini-batch with an operator that needs the watermark (an event-time OVER aggregate): the interval
-- becomes an event-time one, MiniBatchAssigner mode=[RowTime].
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT customer, MAX(run_qty) AS top_run_qty, COUNT(*) AS n FROM (
  SELECT customer, SUM(qty) OVER (PARTITION BY customer ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS run_qty
  FROM orders
) GROUP BY customer;
