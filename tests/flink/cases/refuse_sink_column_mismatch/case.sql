-- Refused at planning: the query's columns do not fit the sink's.
CREATE TABLE orders (
  order_id INT, customer STRING, product STRING, qty INT, price DECIMAL(10, 2), ts TIMESTAMP(3)
) WITH ('connector' = 'filesystem', 'path' = '${CASE_DIR}/../../data/orders.json', 'format' = 'json');
CREATE TABLE out_pair (customer STRING, n BIGINT) WITH ('connector' = 'print');
INSERT INTO out_pair SELECT customer FROM orders;
