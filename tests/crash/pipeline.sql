-- The crash harness's pipeline (tests/crash/crash_harness.py fills in ${DATA}, ${OUT} and ${CKPT}).
-- One statement set, so one job and one checkpoint stream: dedup and a regular join into an
-- append-only json sink; a group aggregate with Top-N into a changelog sink.
SET 'pipeline.name' = 'crash-pipeline';
SET 'state.checkpoints.dir' = '${CKPT}';

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

-- Re-sent orders are dropped: the first copy by arrival wins.
CREATE VIEW first_orders AS
SELECT order_id, customer_id, amount, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY proc ASC) AS rn FROM orders)
WHERE rn = 1;

EXECUTE STATEMENT SET BEGIN
INSERT INTO enriched
SELECT o.order_id, c.region, o.amount, o.ts
FROM first_orders o JOIN customers c ON o.customer_id = c.customer_id;
END;
