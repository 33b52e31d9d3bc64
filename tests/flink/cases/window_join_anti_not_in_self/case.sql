-- Anti window join (NOT IN) with a NULL on the subquery's side: bob's orders whose product no other
-- customer ordered in the same 2-minute window; erin's NULL product makes NOT IN unknown for
-- [10:04, 10:06), so bob's apple there is dropped.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT o.order_id, o.product, o.window_start, o.window_end
FROM (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' MINUTE))) o
WHERE o.customer = 'bob' AND o.product NOT IN (
  SELECT product FROM (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' MINUTE))) r
  WHERE r.customer <> 'bob' AND o.window_start = r.window_start AND o.window_end = r.window_end);
