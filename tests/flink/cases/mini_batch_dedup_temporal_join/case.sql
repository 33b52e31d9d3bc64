-- Mini-batch: a keep-first dedup on processing time feeding an event-time temporal join (the Larkspur
-- pipeline's shape: baskets deduplicated by arrival, then priced as of their sale).
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 h';
SET 'table.exec.mini-batch.size' = '3';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3), pt AS PROCTIME(),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE prices (
  product STRING, unit_price DECIMAL(10, 2), ts TIMESTAMP(3),
  PRIMARY KEY (product) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/prices.debezium.json', 'format' = 'debezium-json');
SELECT o.order_id, o.product, p.unit_price FROM (
  SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY pt ASC) AS rn FROM orders) WHERE rn = 1
) AS o JOIN prices FOR SYSTEM_TIME AS OF o.ts AS p ON o.product = p.product;
