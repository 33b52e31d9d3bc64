-- Refused at planning: an event-time temporal join against a versioned table without a time attribute.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE prices (product STRING, unit_price DECIMAL(10, 2), ts TIMESTAMP(3), PRIMARY KEY (product) NOT ENFORCED)
WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/prices.debezium.json', 'format' = 'debezium-json');
SELECT o.order_id, p.unit_price FROM orders AS o JOIN prices FOR SYSTEM_TIME AS OF o.ts AS p ON o.product = p.product;
