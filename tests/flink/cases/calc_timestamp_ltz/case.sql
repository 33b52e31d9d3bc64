-- TIMESTAMP_LTZ in a fixed session time zone.
SET 'table.local-time-zone' = 'Asia/Singapore';
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, CAST(ts AS TIMESTAMP_LTZ(3)) AS ltz, TO_TIMESTAMP_LTZ(1786000000000, 3) AS fixed,
       CAST(CAST(ts AS TIMESTAMP_LTZ(3)) AS STRING) AS ltz_text, DATE_FORMAT(CAST(ts AS TIMESTAMP_LTZ(3)), 'HH:mm') AS hhmm
FROM orders WHERE order_id <= 4;
