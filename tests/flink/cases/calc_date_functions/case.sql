-- DATE/TIME functions: TO_DATE, TO_TIMESTAMP, DATE literals arithmetic, DAYOFWEEK, QUARTER, LAST_DAY-like arithmetic.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, TO_DATE('2026-08-15') + INTERVAL '3' DAY AS d3, TO_TIMESTAMP('2026-08-15 10:00:00') AS t0,
       DAYOFWEEK(CAST(ts AS DATE)) AS dow, QUARTER(CAST(ts AS DATE)) AS q, DAYOFYEAR(CAST(ts AS DATE)) AS doy,
       HOUR(ts) AS h, SECOND(ts) AS s, DATE_FORMAT(ts, 'EEE yyyy-MM-dd') AS fmt
FROM orders WHERE order_id <= 3;
