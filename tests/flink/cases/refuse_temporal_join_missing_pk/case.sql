-- Refused at planning: an event-time temporal join against a table with no primary key.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE shipments (
  ship_id INT, order_id INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/shipments.json', 'format' = 'json');
SELECT o.order_id, s.ship_id FROM orders AS o JOIN shipments FOR SYSTEM_TIME AS OF o.ts AS s ON o.order_id = s.order_id;
