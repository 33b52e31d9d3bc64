-- Larkspur: one job, four outputs (run after tables.sql: `sluice run -i tables.sql pipeline.sql`).
--
-- Three outputs are Iceberg tables in a local warehouse (catalog `lake`, database `stream`): the lines
-- and the hourly windows appended, the daily running total upserted by its key. The Top-N board is an
-- upsert table written as a changelog: a folder of Debezium change events ('format' = 'debezium-json'),
-- which a debezium-json source with the same key reads back (README.md); upsert-kafka replaces it in
-- production.

-- The rows the event-time operators (here the hourly window) drop behind the watermark.
CREATE TABLE late_rows (operator STRING, `watermark` TIMESTAMP(3), `row` STRING, event_time TIMESTAMP(3)) WITH (
  'connector' = 'filesystem', 'path' = 'build/larkspur/out/late_rows', 'format' = 'json');
SET 'sluice.exec.late-rows.table' = 'late_rows';

-- The lake: Iceberg tables in a hadoop catalog (a warehouse directory any Iceberg reader opens,
-- README.md). The tables are created once; every run appends its snapshots.
CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop', 'warehouse' = 'build/larkspur/out/warehouse');
CREATE DATABASE IF NOT EXISTS lake.`stream`;

CREATE TABLE IF NOT EXISTS lake.`stream`.pos_sales_lines (
  event_id STRING, basket_id STRING, store_id STRING, till_id STRING, country STRING, currency STRING,
  event_ts TIMESTAMP(3), uploaded_at TIMESTAMP(3), line_no INT, sku STRING, qty INT,
  unit_price_minor BIGINT, discount_minor BIGINT, net_minor BIGINT, list_price_minor BIGINT,
  price_from TIMESTAMP(3), business_date DATE
);

CREATE TABLE IF NOT EXISTS lake.`stream`.store_sales_hourly (
  store_id STRING, currency STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
  baskets BIGINT, lines BIGINT, units_out BIGINT, net_minor BIGINT
);

-- The running total: an upsert table (format v2, equality deletes by the key).
CREATE TABLE IF NOT EXISTS lake.`stream`.store_sales_daily (
  store_id STRING, business_date DATE, currency STRING, baskets BIGINT, lines BIGINT, units_out BIGINT, net_minor BIGINT,
  PRIMARY KEY (store_id, business_date) NOT ENFORCED
) PARTITIONED BY (business_date) WITH ('format-version' = '2', 'write.upsert.enabled' = 'true');

CREATE TABLE top_stores (
  country STRING, store_id STRING, sales_minor BIGINT, baskets BIGINT,
  PRIMARY KEY (country, store_id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = 'build/larkspur/out/top_stores', 'format' = 'debezium-json');

EXECUTE STATEMENT SET
BEGIN
-- (1) every priced line: append-only
INSERT INTO lake.`stream`.pos_sales_lines SELECT * FROM sales_lines;
-- (2) per store and UTC hour: a window, final when the watermark passes its end (append-only)
INSERT INTO lake.`stream`.store_sales_hourly
SELECT store_id, currency, window_start, window_end, COUNT(DISTINCT basket_id), COUNT(*), SUM(qty), SUM(net_minor)
FROM TABLE(TUMBLE(TABLE sales_lines, DESCRIPTOR(event_ts), INTERVAL '1' HOUR))
GROUP BY store_id, currency, window_start, window_end;
-- (3) running total per store and business date: updating, grouped by exactly the sink's key
INSERT INTO lake.`stream`.store_sales_daily
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
