-- Interval join on event time: shipments within 2 minutes after the order.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE shipments (
  ship_id INT, order_id INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/shipments.json', 'format' = 'json');
SELECT o.order_id, o.customer, s.ship_id, s.ts AS shipped FROM orders AS o, shipments AS s
WHERE o.order_id = s.order_id AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '2' MINUTE;
