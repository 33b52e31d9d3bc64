-- Processing-time SESSION table function per customer, grouped by product: Flink plans the
-- WindowTableFunction, then a regular GroupAggregate (an updating result). The plans agree; the rows
-- differ as for every processing-time window at the end of a bounded input (documented).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3), pt AS PROCTIME()
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT product, COUNT(*) AS n, SUM(qty) AS qty
FROM TABLE(SESSION(TABLE orders PARTITION BY customer, DESCRIPTOR(pt), INTERVAL '1' HOUR))
GROUP BY window_start, window_end, product;
