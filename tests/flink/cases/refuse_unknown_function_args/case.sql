-- Refused at planning: an unknown function with string, boolean, timestamp and decimal arguments.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
SELECT NOPE(customer, qty > 1, ts, price, CAST(ts AS DATE)) FROM orders;
