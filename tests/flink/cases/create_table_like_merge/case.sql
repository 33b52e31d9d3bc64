-- CREATE TABLE ... LIKE: the source's physical and computed columns and its watermark (a window TVF needs it), a new computed column, the source's options overwritten by the new table's (the default INCLUDING ALL OVERWRITING OPTIONS).
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, ts TIMESTAMP(3),
  doubled AS qty * 2,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/none.json', 'format' = 'json');
CREATE TABLE orders2 (tripled AS qty * 3) WITH ('path' = '${CASE_DIR}/../../data/orders.json') LIKE orders;
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SELECT window_start, COUNT(*) AS n, SUM(doubled) AS d, SUM(tripled) AS t FROM TABLE(TUMBLE(TABLE orders2, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;
