-- A temporal join whose ON holds an IN subquery.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE prices (
  product STRING, unit_price DECIMAL(10, 2), ts TIMESTAMP(3),
  PRIMARY KEY (product) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/prices.debezium.json', 'format' = 'debezium-json');
CREATE TABLE customers (
  customer STRING, region STRING, tier INT, ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/customers.json', 'format' = 'json');
SELECT o.order_id, o.product, p.unit_price FROM orders AS o
  JOIN prices FOR SYSTEM_TIME AS OF o.ts AS p ON o.product = p.product AND o.customer IN (SELECT customer FROM customers WHERE tier = 2);
