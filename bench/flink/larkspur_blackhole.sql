-- The Larkspur job of examples/larkspur/pipeline.sql (one statement set, four INSERTs over the
-- sales_lines view of examples/larkspur/tables.sql: the lines, the hourly window, the daily running
-- total, the Top-N board), with 'blackhole' sinks in place of the Iceberg tables and the Debezium
-- folder, so the same script runs on Sluice and on Flink 2.2.1 and compares the work of the query,
-- not of the writers (bench/flink/larkspur.sh, docs/performance.md). Run after tables.sql.
CREATE TABLE pos_sales_lines (
  event_id STRING, basket_id STRING, store_id STRING, till_id STRING, country STRING, currency STRING,
  event_ts TIMESTAMP(3), uploaded_at TIMESTAMP(3), line_no INT, sku STRING, qty INT,
  unit_price_minor BIGINT, discount_minor BIGINT, net_minor BIGINT, list_price_minor BIGINT,
  price_from TIMESTAMP(3), business_date DATE
) WITH ('connector' = 'blackhole');

CREATE TABLE store_sales_hourly (
  store_id STRING, currency STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
  baskets BIGINT, lines BIGINT, units_out BIGINT, net_minor BIGINT
) WITH ('connector' = 'blackhole');

CREATE TABLE store_sales_daily (
  store_id STRING, business_date DATE, currency STRING, baskets BIGINT, lines BIGINT, units_out BIGINT, net_minor BIGINT,
  PRIMARY KEY (store_id, business_date) NOT ENFORCED
) WITH ('connector' = 'blackhole');

CREATE TABLE top_stores (
  country STRING, store_id STRING, sales_minor BIGINT, baskets BIGINT,
  PRIMARY KEY (country, store_id) NOT ENFORCED
) WITH ('connector' = 'blackhole');

EXECUTE STATEMENT SET
BEGIN
INSERT INTO pos_sales_lines SELECT * FROM sales_lines;
INSERT INTO store_sales_hourly
SELECT store_id, currency, window_start, window_end, COUNT(DISTINCT basket_id), COUNT(*), SUM(qty), SUM(net_minor)
FROM TABLE(TUMBLE(TABLE sales_lines, DESCRIPTOR(event_ts), INTERVAL '1' HOUR))
GROUP BY store_id, currency, window_start, window_end;
INSERT INTO store_sales_daily
SELECT store_id, business_date, MAX(currency), COUNT(DISTINCT basket_id), COUNT(*), SUM(qty), SUM(net_minor)
FROM sales_lines
GROUP BY store_id, business_date;
INSERT INTO top_stores
SELECT country, store_id, sales_minor, baskets FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY country ORDER BY sales_minor DESC) AS rn
  FROM (SELECT country, store_id, SUM(net_minor) AS sales_minor, COUNT(DISTINCT basket_id) AS baskets
        FROM sales_lines GROUP BY country, store_id))
WHERE rn <= 3;
END;
