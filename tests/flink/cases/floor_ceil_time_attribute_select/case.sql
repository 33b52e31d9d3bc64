-- FLOOR and CEIL of a rowtime attribute in a SELECT list.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '30' SECOND
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT order_id, FLOOR(ts TO HOUR) AS h, CEIL(ts TO MINUTE) AS m FROM orders WHERE order_id < 4;
