-- Quick-start pipeline (make demo): basket uploads from two till partitions (one JSON file each),
-- one row per basket line, priced and tagged with the store's country, written to the console and
-- to a JSON lines folder. The Larkspur flagship example replaces it as its issue lands.

CREATE TABLE pos_basket_events (
  event_id    STRING,
  basket_id   STRING,
  store_id    STRING,
  till_id     STRING,
  currency    STRING,
  event_ts    TIMESTAMP(3),
  uploaded_at TIMESTAMP(3),
  lines ARRAY<ROW<line_no INT, sku STRING, qty INT, unit_price_minor BIGINT, discount_minor BIGINT, promo_id STRING>>,
  WATERMARK FOR event_ts AS event_ts - INTERVAL '5' MINUTE
) WITH (
  'connector' = 'filesystem',
  'path' = 'examples/quickstart/data',
  'format' = 'json'
);

CREATE VIEW sales_lines AS
SELECT b.event_id, b.basket_id, b.store_id, SUBSTRING(b.store_id, 1, 2) AS country, b.currency, b.event_ts,
       l.line_no, l.sku, l.qty, l.qty * l.unit_price_minor - l.discount_minor AS net_minor
FROM pos_basket_events AS b
CROSS JOIN UNNEST(b.lines) AS l (line_no, sku, qty, unit_price_minor, discount_minor, promo_id);

CREATE TABLE console (basket_id STRING, country STRING, sku STRING, qty INT, net_minor BIGINT)
WITH ('connector' = 'print', 'print-identifier' = 'lines');

CREATE TABLE lines_out (event_id STRING, basket_id STRING, store_id STRING, country STRING, currency STRING,
                        event_ts TIMESTAMP(3), line_no INT, sku STRING, qty INT, net_minor BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'build/demo-out/sales_lines', 'format' = 'json');

EXPLAIN CHANGELOG_MODE
EXECUTE STATEMENT SET BEGIN
  INSERT INTO console SELECT basket_id, country, sku, qty, net_minor FROM sales_lines;
  INSERT INTO lines_out SELECT * FROM sales_lines;
END;

EXECUTE STATEMENT SET BEGIN
  INSERT INTO console SELECT basket_id, country, sku, qty, net_minor FROM sales_lines;
  INSERT INTO lines_out SELECT * FROM sales_lines;
END;

SELECT country, sku, net_minor FROM sales_lines WHERE net_minor > 1000;
