-- Larkspur: the sources and views of the pipeline, as a Flink user writes them (Flink SQL).
--
-- The replay comes from `sluice gen larkspur --out build/larkspur/data` (README.md); paths are
-- relative to the repository root, where `make demo` runs. report.sh points the tables at another
-- replay with ALTER TABLE ... SET ('path' = ...), as a Flink user would.

-- Basket uploads of one UTC upload day: six partitions (one file each) keyed by till, each in upload
-- order, like the POS topic. Event time is the sale; the watermark trails it by 5 minutes.
CREATE TABLE pos_basket_events (
  event_id    STRING,
  basket_id   STRING,
  store_id    STRING,
  till_id     STRING,
  currency    STRING,
  event_ts    TIMESTAMP(3),
  uploaded_at TIMESTAMP(3),
  lines ARRAY<ROW<line_no INT, sku STRING, qty INT, unit_price_minor BIGINT, discount_minor BIGINT, promo_id STRING>>,
  arrived_at AS PROCTIME(),
  WATERMARK FOR event_ts AS event_ts - INTERVAL '5' MINUTE
) WITH (
  'connector' = 'filesystem',
  'path' = 'build/larkspur/data/pos/upload_date=2026-08-15',
  'format' = 'json'
);

-- Every price version per (sku, country), kept forever: an as-of join needs the old prices too.
CREATE TABLE price_changes (
  sku            STRING,
  country        STRING,
  currency       STRING,
  price_minor    BIGINT,
  effective_from TIMESTAMP(3),
  WATERMARK FOR effective_from AS effective_from
) WITH (
  'connector' = 'filesystem',
  'path' = 'build/larkspur/data/prices',
  'format' = 'json'
);

-- The stores and their time zones (the report checks business_date against them).
CREATE TABLE stores (
  store_id      STRING,
  country       STRING,
  currency      STRING,
  time_zone     STRING,
  tills         INT,
  opening_hours STRING
) WITH (
  'connector' = 'filesystem',
  'path' = 'build/larkspur/data/stores',
  'format' = 'json'
);

-- Dedup: the first copy of each basket to arrive. arrived_at is PROCTIME(): nothing is late.
CREATE VIEW baskets AS
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY basket_id ORDER BY arrived_at ASC) AS rn
  FROM pos_basket_events)
WHERE rn = 1;

-- A versioned table from an append-only feed: key (sku, country), version time effective_from.
CREATE VIEW price_versions AS
SELECT sku, country, currency, price_minor, effective_from FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY sku, country ORDER BY effective_from DESC) AS rn
  FROM price_changes)
WHERE rn = 1;

-- One row per basket line, with the shelf price in force when the till sold it, and the store-local
-- business date. The country is computed before the join: Sluice takes the temporal join's key from
-- column equalities only (see README.md, "Known differences").
CREATE VIEW sales_lines AS
SELECT s.event_id, s.basket_id, s.store_id, s.till_id, s.country, s.currency, s.event_ts, s.uploaded_at,
       s.line_no, s.sku, s.qty, s.unit_price_minor, s.discount_minor,
       s.qty * s.unit_price_minor - s.discount_minor AS net_minor,
       p.price_minor AS list_price_minor,
       p.effective_from AS price_from,
       CAST(CONVERT_TZ(CAST(s.event_ts AS STRING), 'UTC',
                       CASE s.country WHEN 'GB' THEN 'Europe/London'
                                      WHEN 'IN' THEN 'Asia/Kolkata'
                                      ELSE 'Asia/Singapore' END) AS DATE) AS business_date
FROM (
  SELECT b.event_id, b.basket_id, b.store_id, b.till_id, SUBSTRING(b.store_id, 1, 2) AS country, b.currency,
         b.event_ts, b.uploaded_at, l.line_no, l.sku, l.qty, l.unit_price_minor, l.discount_minor
  FROM baskets AS b
  CROSS JOIN UNNEST(b.lines) AS l (line_no, sku, qty, unit_price_minor, discount_minor, promo_id)
) AS s
LEFT JOIN price_versions FOR SYSTEM_TIME AS OF s.event_ts AS p
  ON p.sku = s.sku AND p.country = s.country;
