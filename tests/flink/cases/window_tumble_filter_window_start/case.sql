-- A window aggregation over a TUMBLE TVF filtered on window_start: a WindowAggregate over the rows' attached windows, as Flink.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT window_start, window_end, COUNT(*) AS n, SUM(qty) AS units
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
WHERE window_start > TIMESTAMP '2026-08-15 10:00:00'
GROUP BY window_start, window_end;
