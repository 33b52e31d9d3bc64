-- A filesystem sink in the json format: the lines Flink's json format writes for each type.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_json (
  order_id INT, customer STRING, amount DECIMAL(21, 2), ratio DOUBLE, f FLOAT, big BIGINT, flag BOOLEAN,
  ts TIMESTAMP(3), ts0 TIMESTAMP(0), ts6 TIMESTAMP(6), ltz TIMESTAMP_LTZ(3), d DATE, t TIME, tags ARRAY<STRING>, m MAP<STRING, INT>
) WITH ('connector' = 'filesystem', 'path' = '${OUT_DIR}/out_json', 'format' = 'json');
INSERT INTO out_json
SELECT order_id, customer, qty * price, CAST(qty AS DOUBLE) / 3, CAST(qty AS FLOAT) / 4, CAST(order_id AS BIGINT) * 10000000000, qty > 2,
       ts, CAST(ts AS TIMESTAMP(0)), CAST(ts AS TIMESTAMP(6)) + INTERVAL '0.5' SECOND, CAST(ts AS TIMESTAMP_LTZ(3)), CAST(ts AS DATE), CAST(ts AS TIME),
       ARRAY[customer, product], MAP[customer, qty]
FROM orders;
