-- Larkspur: one job, four outputs (run after tables.sql: `sluice run -i tables.sql pipeline.sql`).
--
-- The append-only results go to JSON-lines folders. The two updating results are upsert tables
-- (PRIMARY KEY ... NOT ENFORCED) written as changelogs: folders of Debezium change events
-- ('format' = 'debezium-json'), which a debezium-json source with the same key reads back as the
-- table (README.md). The upsert-kafka and lake sinks replace them in production.

-- The rows the event-time operators (here the hourly window) drop behind the watermark.
CREATE TABLE late_rows (operator STRING, watermark TIMESTAMP(3), `row` STRING, event_time TIMESTAMP(3)) WITH (
  'connector' = 'filesystem', 'path' = 'build/larkspur/out/late_rows', 'format' = 'json');
SET 'sluice.exec.late-rows.table' = 'late_rows';

CREATE TABLE pos_sales_lines (
  event_id STRING, basket_id STRING, store_id STRING, till_id STRING, country STRING, currency STRING,
  event_ts TIMESTAMP(3), uploaded_at TIMESTAMP(3), line_no INT, sku STRING, qty INT,
  unit_price_minor BIGINT, discount_minor BIGINT, net_minor BIGINT, list_price_minor BIGINT,
  price_from TIMESTAMP(3), business_date DATE
) WITH ('connector' = 'filesystem', 'path' = 'build/larkspur/out/pos_sales_lines', 'format' = 'json');

CREATE TABLE store_sales_hourly (
  store_id STRING, currency STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
  baskets BIGINT, lines BIGINT, units_out BIGINT, net_minor BIGINT
) WITH ('connector' = 'filesystem', 'path' = 'build/larkspur/out/store_sales_hourly', 'format' = 'json');

CREATE TABLE store_sales_daily (
  store_id STRING, business_date DATE, currency STRING, baskets BIGINT, lines BIGINT, units_out BIGINT, net_minor BIGINT,
  PRIMARY KEY (store_id, business_date) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = 'build/larkspur/out/store_sales_daily', 'format' = 'debezium-json');

CREATE TABLE top_stores (
  country STRING, store_id STRING, sales_minor BIGINT, baskets BIGINT,
  PRIMARY KEY (country, store_id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = 'build/larkspur/out/top_stores', 'format' = 'debezium-json');

EXECUTE STATEMENT SET
BEGIN
-- (1) every priced line: append-only
INSERT INTO pos_sales_lines SELECT * FROM sales_lines;
-- (2) per store and UTC hour: a window, final when the watermark passes its end (append-only)
INSERT INTO store_sales_hourly
SELECT store_id, currency, window_start, window_end, COUNT(DISTINCT basket_id), COUNT(*), SUM(qty), SUM(net_minor)
FROM TABLE(TUMBLE(TABLE sales_lines, DESCRIPTOR(event_ts), INTERVAL '1' HOUR))
GROUP BY store_id, currency, window_start, window_end;
-- (3) running total per store and business date: updating, grouped by exactly the sink's key
INSERT INTO store_sales_daily
SELECT store_id, business_date, MAX(currency), COUNT(DISTINCT basket_id), COUNT(*), SUM(qty), SUM(net_minor)
FROM sales_lines
GROUP BY store_id, business_date;
-- (4) the top three stores per country by sales: updating (Top-N)
INSERT INTO top_stores
SELECT country, store_id, sales_minor, baskets FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY country ORDER BY sales_minor DESC) AS rn
  FROM (SELECT country, store_id, SUM(net_minor) AS sales_minor, COUNT(DISTINCT basket_id) AS baskets
        FROM sales_lines GROUP BY country, store_id))
WHERE rn <= 3;
END;
