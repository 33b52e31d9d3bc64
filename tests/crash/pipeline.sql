-- The crash harness's pipeline (tests/crash/crash_harness.py fills in ${DATA}, ${OUT} and ${CKPT}).
-- One statement set, so one job and one checkpoint stream: dedup and a regular join, and a window
-- aggregate, into append-only json sinks; a group aggregate with Top-N into a debezium-json
-- (changelog) sink. Orders that arrive after their TUMBLE window fired go to the late-rows table,
-- exactly once like the sinks.
SET 'pipeline.name' = 'crash-pipeline';
SET 'state.checkpoints.dir' = '${CKPT}';
-- Every operator state goes to a shared state file, so incremental checkpoints chain deltas onto it
-- (docs/checkpoints.md) even for this small input.
SET 'state.storage.fs.memory-threshold' = '0';
SET 'sluice.exec.late-rows.table' = 'late_orders';

CREATE TABLE orders (
  order_id BIGINT,
  customer_id INT,
  amount INT,
  ts TIMESTAMP(3),
  proc AS PROCTIME(),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${DATA}/orders', 'format' = 'json');

CREATE TABLE customers (customer_id INT, region STRING)
WITH ('connector' = 'filesystem', 'path' = '${DATA}/customers', 'format' = 'json');

CREATE TABLE enriched (order_id BIGINT, region STRING, amount INT, ts TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '${OUT}/enriched', 'format' = 'json');

CREATE TABLE per_minute (window_start TIMESTAMP(3), window_end TIMESTAMP(3), customer_id INT, orders BIGINT, amount BIGINT)
WITH ('connector' = 'filesystem', 'path' = '${OUT}/per_minute', 'format' = 'json');

-- Partitioned by the window's day and minute, committed by partition time with success files
-- (as Nexmark q10): rows exactly once in each partition, and the same success files.
CREATE TABLE per_minute_parts (customer_id INT, orders BIGINT, amount BIGINT, dt STRING, hm STRING)
PARTITIONED BY (dt, hm) WITH ('connector' = 'filesystem', 'path' = '${OUT}/per_minute_parts', 'format' = 'json',
  'sink.partition-commit.trigger' = 'partition-time', 'sink.partition-commit.delay' = '1 min',
  'sink.partition-commit.policy.kind' = 'success-file',
  'partition.time-extractor.timestamp-pattern' = '$dt $hm:00');

CREATE TABLE top_customers (region STRING, customer_id INT, total BIGINT)
WITH ('connector' = 'filesystem', 'path' = '${OUT}/top_customers', 'format' = 'debezium-json');

CREATE TABLE late_orders (operator STRING, `watermark` TIMESTAMP(3), `row` STRING, event_time TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = '${OUT}/late_orders', 'format' = 'json');

-- Re-sent orders are dropped: the first copy by arrival wins.
CREATE VIEW first_orders AS
SELECT order_id, customer_id, amount, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY proc ASC) AS rn FROM orders)
WHERE rn = 1;

EXECUTE STATEMENT SET BEGIN
INSERT INTO enriched
SELECT o.order_id, c.region, o.amount, o.ts
FROM first_orders o JOIN customers c ON o.customer_id = c.customer_id;

INSERT INTO per_minute
SELECT window_start, window_end, customer_id, COUNT(*), SUM(amount)
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, customer_id;

INSERT INTO per_minute_parts
SELECT customer_id, COUNT(*), SUM(amount), DATE_FORMAT(window_start, 'yyyy-MM-dd'), DATE_FORMAT(window_start, 'HH:mm')
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, customer_id;

INSERT INTO top_customers
SELECT region, customer_id, total FROM (
  SELECT region, customer_id, total,
         ROW_NUMBER() OVER (PARTITION BY region ORDER BY total DESC, customer_id) AS rn
  FROM (SELECT c.region, o.customer_id, SUM(o.amount) AS total
        FROM first_orders o JOIN customers c ON o.customer_id = c.customer_id
        GROUP BY c.region, o.customer_id))
WHERE rn <= 3;
END;
