-- Anti window join over CUMULATE windows: each order judged in each of its windows, after a window
-- aggregation on the subquery side (orders per window without a shipment count of 1).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE shipments (
  ship_id INT, order_id INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/shipments.json', 'format' = 'json');
SELECT o.order_id, o.window_start, o.window_end
FROM (SELECT * FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE))) o
WHERE o.qty NOT IN (
  SELECT cnt FROM (
    SELECT window_start, window_end, COUNT(*) AS cnt
    FROM TABLE(CUMULATE(TABLE shipments, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE))
    GROUP BY window_start, window_end) s
  WHERE o.window_start = s.window_start AND o.window_end = s.window_end);
