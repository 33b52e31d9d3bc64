-- A filesystem sink in the csv format: quoting, NULLs, numbers and timestamps as Flink's csv format writes them.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_csv (
  order_id INT, label STRING, amount DECIMAL(21, 2), ratio DOUBLE, flag BOOLEAN, ts TIMESTAMP(3), d DATE
) WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/out_csv', 'format' = 'csv');
INSERT INTO out_csv
SELECT order_id, CASE WHEN order_id = 2 THEN 'say "hi", bob' ELSE product END, qty * price, CAST(qty AS DOUBLE) / 3, qty > 2, ts, CAST(ts AS DATE)
FROM orders;
