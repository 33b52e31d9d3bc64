-- Calc: temporal functions on a TIMESTAMP(3) column.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, EXTRACT(MINUTE FROM ts) AS m, FLOOR(ts TO MINUTE) AS floored, CEIL(ts TO HOUR) AS ceiled,
       TIMESTAMPADD(SECOND, 90, ts) AS later, DATE_FORMAT(ts, 'yyyy/MM/dd HH:mm') AS fmt,
       TIMESTAMPDIFF(SECOND, TIMESTAMP '2026-08-15 10:00:00', ts) AS since, ts + INTERVAL '1' DAY AS tomorrow
FROM orders WHERE order_id < 8;
