-- Anti window join (NOT EXISTS) on a NULL key: the orders whose qty is no shipped order_id of their
-- 2-minute window; erin's NULL qty matches nothing, so her order stays (NOT IN drops it).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE shipments (
  ship_id INT, order_id INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/shipments.json', 'format' = 'json');
SELECT o.order_id, o.qty, o.window_start, o.window_end
FROM (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' MINUTE))) o
WHERE NOT EXISTS (
  SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(ts), INTERVAL '2' MINUTE))) s
  WHERE o.qty = s.order_id AND o.window_start = s.window_start AND o.window_end = s.window_end);
